#include "window/remembered_state.h"

#include <QSettings>
#include <QString>

#include "ratelab/simulation.h"
#include "session/playback_clock.h"
#include "session/session.h"

namespace ratelab::ui::remembered {

namespace {

const QString kGroup = QStringLiteral("parameters");
const QString kSpeed = QStringLiteral("playback/speed");

// Settings keys of the overrides, by member, so that reading and writing cannot drift apart.
struct CountKey {
    const char* key;
    std::optional<std::int64_t> Overrides::*field;
};
struct RateKey {
    const char* key;
    std::optional<Rational> Overrides::*field;
};
constexpr CountKey kCounts[] = {{"bucketCapacity", &Overrides::bucket_capacity},
                                {"queueSize", &Overrides::queue_size},
                                {"gcraBurst", &Overrides::gcra_burst}};
constexpr RateKey kRates[] = {{"refillRate", &Overrides::refill_rate},
                              {"drainInterval", &Overrides::drain_interval},
                              {"emissionInterval", &Overrides::emission_interval}};

QString key(const char* name) {
    return kGroup + QLatin1Char('/') + QLatin1String(name);
}

std::optional<std::int64_t> integer(const QSettings& settings, const char* name) {
    bool ok = false;
    const qlonglong value = settings.value(key(name)).toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(value) : std::nullopt;
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
    for (const CountKey& count : kCounts) {
        params.base.overrides.*count.field = integer(settings, count.key);
    }
    for (const RateKey& rate : kRates) {
        const QString text = settings.value(key(rate.key)).toString();
        if (!text.isEmpty()) {
            const auto value = Rational::parse(text.toStdString());
            if (!value) {
                return std::nullopt;
            }
            params.base.overrides.*rate.field = *value;
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
    for (const CountKey& count : kCounts) {
        if (const auto& value = params.base.overrides.*count.field) {
            settings.setValue(key(count.key), static_cast<qlonglong>(*value));
        }
    }
    for (const RateKey& rate : kRates) {
        if (const auto& value = params.base.overrides.*rate.field) {
            settings.setValue(key(rate.key), QString::fromStdString(value->to_string()));
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
