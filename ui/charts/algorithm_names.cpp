#include "charts/algorithm_names.h"

#include <QCoreApplication>

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

QString algorithmSummary(std::string_view id) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    return info ? QCoreApplication::translate("Algorithm", info->summary.c_str()) : QString();
}

}  // namespace ratelab::ui
