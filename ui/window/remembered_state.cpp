#include "window/remembered_state.h"

#include <QSettings>
#include <QString>

#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "session/playback_clock.h"
#include "session/session.h"

namespace ratelab::ui::remembered {

namespace {

const QString kGroup = QStringLiteral("parameters");
const QString kSpeed = QStringLiteral("playback/speed");

// Overrides are kept under "overrides/<algorithm id>/<parameter id>", as text, and read back
// through the parameter's own declaration.
const QString kOverrides = QStringLiteral("overrides");

// Where versions before declared parameters kept the six overrides, read once so that an
// upgrade keeps them; they are written in the new form from then on.
struct LegacyKey {
    const char* key;
    const char* algorithm;
    const char* parameter;
};
constexpr LegacyKey kLegacyKeys[] = {{"bucketCapacity", "token_bucket", "capacity"},
                                     {"refillRate", "token_bucket", "refill_rate"},
                                     {"queueSize", "leaky_bucket", "queue_size"},
                                     {"drainInterval", "leaky_bucket", "drain_interval"},
                                     {"gcraBurst", "gcra", "burst"},
                                     {"emissionInterval", "gcra", "emission_interval"}};

QString key(const char* name) {
    return kGroup + QLatin1Char('/') + QLatin1String(name);
}

std::optional<std::int64_t> integer(const QSettings& settings, const char* name) {
    bool ok = false;
    const qlonglong value = settings.value(key(name)).toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(value) : std::nullopt;
}

QString overrideKey(const std::string& algorithm, const std::string& parameter) {
    return kGroup + QLatin1Char('/') + kOverrides + QLatin1Char('/') +
           QString::fromStdString(algorithm) + QLatin1Char('/') + QString::fromStdString(parameter);
}

/// Reads one remembered override; false if it is there but no longer valid.
bool readOverride(const QSettings& settings, const QString& settings_key,
                  const AlgorithmInfo& algorithm, const ParameterInfo& parameter, Params& params) {
    const QString text = settings.value(settings_key).toString();
    if (text.isEmpty()) {
        return true;
    }
    auto parsed = parse_value(parameter, text.toStdString());
    if (std::holds_alternative<std::string>(parsed)) {
        return false;
    }
    params.base.overrides[algorithm.id][parameter.id] = std::get<ParamValue>(std::move(parsed));
    return true;
}

}  // namespace

std::optional<Params> parameters(const QSettings& settings) {
    const auto limit = integer(settings, "limit");
    const auto window = integer(settings, "window");
    if (!limit || !window) {
        return std::nullopt;
    }
    Params params = default_params();
    params.base.limit = *limit;
    params.base.window = *window;
    params.rejections_count = settings.value(key("rejectionsCount"), false).toBool();
    for (const LegacyKey& legacy : kLegacyKeys) {
        const AlgorithmInfo* algorithm = Registry::instance().find(legacy.algorithm);
        const ParameterInfo* parameter =
            algorithm ? find_parameter(algorithm->parameters, legacy.parameter) : nullptr;
        if (parameter && !readOverride(settings, key(legacy.key), *algorithm, *parameter, params)) {
            return std::nullopt;
        }
    }
    for (const AlgorithmInfo* algorithm : Registry::instance().all()) {
        for (const ParameterInfo& parameter : algorithm->parameters) {
            if (!readOverride(settings, overrideKey(algorithm->id, parameter.id), *algorithm,
                              parameter, params)) {
                return std::nullopt;
            }
        }
    }
    if (!validate(params).empty()) {
        return std::nullopt;
    }
    return params;
}

void setParameters(QSettings& settings, const Params& params) {
    settings.remove(kGroup);  // an override that was cleared must not come back
    settings.setValue(key("limit"), static_cast<qlonglong>(params.base.limit));
    settings.setValue(key("window"), static_cast<qlonglong>(params.base.window));
    settings.setValue(key("rejectionsCount"), params.rejections_count);
    for (const auto& [algorithm, values] : params.base.overrides) {
        for (const auto& [parameter, value] : values) {
            settings.setValue(overrideKey(algorithm, parameter),
                              QString::fromStdString(to_text(value)));
        }
    }
}

std::optional<double> speed(const QSettings& settings) {
    bool ok = false;
    const double value = settings.value(kSpeed).toDouble(&ok);
    if (!ok || !PlaybackClock::speeds().contains(value)) {
        return std::nullopt;
    }
    return value;
}

void restore(const QSettings& settings, Session& session, PlaybackClock& clock) {
    if (auto params = parameters(settings)) {
        SessionDocument document = session.document();
        params->keys = document.params.keys;
        params->lanes = document.params.lanes;  // lanes belong to the document, not the settings
        if (*params != document.params) {
            document.params = *params;
            // Remembered parameters that no longer simulate leave the default scenario as it is.
            (void)session.reset(std::move(document), session.filePath());
        }
    }
    if (const auto value = speed(settings)) {
        clock.setSpeed(*value);
    }
}

void save(QSettings& settings, const Session& session, const PlaybackClock& clock) {
    setParameters(settings, session.params());
    settings.setValue(kSpeed, clock.speed());
}

Params withDefaultBase(Params params) {
    const Params defaults = default_params();
    params.base = defaults.base;
    params.rejections_count = defaults.rejections_count;
    return params;
}

}  // namespace ratelab::ui::remembered
