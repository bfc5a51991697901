#include "charts/algorithm_names.h"

#include <QCoreApplication>

#include "charts/tick_text.h"
#include "ratelab/registry.h"

namespace ratelab::ui {

QString algorithmName(std::string_view id) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    if (!info) {
        return QString::fromUtf8(id.data(), static_cast<qsizetype>(id.size()));
    }
    return QCoreApplication::translate("Algorithm", info->name.c_str());
}

QString laneName(std::string_view id, std::string_view label) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    if (label.empty() || (info != nullptr && label == info->name)) {
        return algorithmName(id);
    }
    return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

QString libraryBadge(std::string_view id) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    if (info == nullptr || !info->is_preset())
        return {};
    // The library's first word names it ("nginx ngx_http_limit_req_module" is nginx).
    const std::string_view library = info->library;
    const std::string_view short_name = library.substr(0, library.find(' '));
    return QString::fromUtf8(short_name.data(), static_cast<qsizetype>(short_name.size())) +
           QLatin1Char(' ') + QString::fromStdString(info->library_version);
}

QString keyName(std::string_view key) {
    constexpr qsizetype kLongest = 40;  // characters; a key may be up to 256 bytes
    if (key.empty()) {
        return QCoreApplication::translate("Algorithm", "(default key)");
    }
    QString name = QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
    if (name.size() > kLongest) {
        name.truncate(name.at(kLongest - 1).isHighSurrogate() ? kLongest - 1 : kLongest);
        name += QChar(0x2026);
    }
    return name;
}

QString judgedBurstText(const SimulationResult& result, const JudgedBurst& judged,
                        bool several_keys) {
    const QString count = QCoreApplication::translate("Timeline", "%1 in %2")
                              .arg(judged.burst.cost)
                              .arg(ticksText(judged.window));
    if (judged.limit == 0) {
        return QCoreApplication::translate("Timeline", "%1, all keys").arg(count);
    }
    const bool named = several_keys && judged.key;
    QString label = count;
    if (judged.over_limit()) {
        label =
            !named && judged.limit == result.params.base.limit
                ? QCoreApplication::translate("Timeline", "%1 > L").arg(count)
                : QCoreApplication::translate("Timeline", "%1 > %2").arg(count).arg(judged.limit);
    }
    if (!named) {
        return label;
    }
    return QCoreApplication::translate("Timeline", "%1: %2")
        .arg(keyName(result.trace->key_name(*judged.key)), label);
}

QString algorithmSummary(std::string_view id) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    return info ? QCoreApplication::translate("Algorithm", info->summary.c_str()) : QString();
}

}  // namespace ratelab::ui
