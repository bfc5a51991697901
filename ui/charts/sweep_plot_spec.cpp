// What a sweep's chart shows: its metrics and the spec built from a sweep's rows.
#include <QObject>
#include <algorithm>
#include <variant>

#include "charts/algorithm_names.h"
#include "charts/palette.h"
#include "charts/sweep_plot.h"
#include "ratelab/registry.h"

namespace ratelab::ui {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// "L (limit)", "W (window, ticks)", "Capacity (tokens)".
QString axisTitle(const SweepTarget& target) {
    switch (target.kind) {
        case SweepTarget::Kind::limit:
            return QObject::tr("L (limit)");
        case SweepTarget::Kind::window:
            return QObject::tr("W (window, ticks)");
        case SweepTarget::Kind::lane_parameter:
            break;
    }
    const AlgorithmInfo* info = Registry::instance().find(target.algorithm);
    if (info != nullptr) {
        for (const ParameterInfo& parameter : info->parameters) {
            if (parameter.id != target.parameter)
                continue;
            const std::string_view unit = unit_name(parameter.unit);
            return unit.empty() ? text(parameter.name)
                                : QStringLiteral("%1 (%2)").arg(text(parameter.name),
                                                                text(std::string(unit)));
        }
    }
    return text(target.name());
}

/// Where values sit along an axis: at their numbers when all are numbers, else one apart.
QList<double> positionsOf(const SweepAxis& axis) {
    QList<double> positions;
    bool numbers = true;
    for (const ParamValue& value : axis.values)
        numbers = numbers && std::holds_alternative<Rational>(value);
    for (std::size_t i = 0; i < axis.values.size(); ++i) {
        positions << (numbers ? std::get<Rational>(axis.values[i]).to_double()
                              : static_cast<double>(i));
    }
    return positions;
}

QStringList labelsOf(const SweepAxis& axis) {
    QStringList labels;
    for (const ParamValue& value : axis.values)
        labels << text(to_text(value));
    return labels;
}

QString valueText(const Rational& value, SweepMetric metric) {
    switch (metric) {
        case SweepMetric::RejectedPercent:
            return QStringLiteral("%1%").arg(text(value.to_short(2)));
        case SweepMetric::BurstRatio:
            return QStringLiteral("×%1").arg(text(value.to_short(2)));
        case SweepMetric::P95Delay:
        case SweepMetric::MaxDelay:
            return text(value.to_short(2));
    }
    return {};
}

}  // namespace

QString sweepMetricName(SweepMetric metric) {
    switch (metric) {
        case SweepMetric::RejectedPercent:
            return QStringLiteral("rejected");
        case SweepMetric::BurstRatio:
            return QStringLiteral("burst");
        case SweepMetric::P95Delay:
            return QStringLiteral("p95_delay");
        case SweepMetric::MaxDelay:
            return QStringLiteral("max_delay");
    }
    return {};
}

std::optional<SweepMetric> sweepMetricFromName(const QString& name) {
    for (const SweepMetric metric : kAllSweepMetrics) {
        if (sweepMetricName(metric) == name)
            return metric;
    }
    return std::nullopt;
}

QString sweepMetricTitle(SweepMetric metric) {
    switch (metric) {
        case SweepMetric::RejectedPercent:
            return QObject::tr("Rejected %");
        case SweepMetric::BurstRatio:
            return QObject::tr("Worst burst / L");
        case SweepMetric::P95Delay:
            return QObject::tr("95th percentile delay (ticks)");
        case SweepMetric::MaxDelay:
            return QObject::tr("Longest delay (ticks)");
    }
    return {};
}

std::optional<Rational> sweepMetricValue(const SweepRow& row, SweepMetric metric) {
    switch (metric) {
        case SweepMetric::RejectedPercent:
            return row.rejected_percent();
        case SweepMetric::BurstRatio:
            if (row.judged.limit > 0)
                return Rational(row.judged.burst.cost, row.judged.limit);
            return row.burst_ratio();
        case SweepMetric::P95Delay:
            if (!row.releases)
                return std::nullopt;
            return row.p95_delay;
        case SweepMetric::MaxDelay:
            if (!row.releases)
                return std::nullopt;
            return row.totals.max_delay;
    }
    return std::nullopt;
}

SweepPlotSpec sweepPlotSpec(const SweepResult& result, std::size_t lane, SweepMetric metric,
                            std::optional<std::size_t> current) {
    SweepPlotSpec spec;
    const Lane& shown = result.lanes.at(lane);
    if (result.axes.size() == 1)
        spec.title =
            QObject::tr("%1 by %2").arg(sweepMetricTitle(metric), axisTitle(result.axes[0].target));
    else if (result.axes.size() > 1)
        spec.title = QObject::tr("%1 by %2 and %3")
                         .arg(sweepMetricTitle(metric), axisTitle(result.axes[0].target),
                              axisTitle(result.axes[1].target));
    else
        spec.title = sweepMetricTitle(metric);
    const QString label = lane < result.labels.size() ? text(result.labels[lane])
                                                      : laneName(shown.algorithm, shown.label);
    spec.note = label;
    spec.value_title = sweepMetricTitle(metric);
    spec.color = algorithmColor(shown.algorithm);
    if (!result.axes.empty()) {
        spec.x_title = axisTitle(result.axes[0].target);
        spec.x_positions = positionsOf(result.axes[0]);
        spec.x_labels = labelsOf(result.axes[0]);
    }
    if (result.axes.size() > 1) {
        spec.y_title = axisTitle(result.axes[1].target);
        spec.y_labels = labelsOf(result.axes[1]);
    }
    for (std::size_t p = 0; p < result.points; ++p) {
        const auto value = sweepMetricValue(result.row(p, lane), metric);
        spec.values << (value ? std::optional<double>(value->to_double()) : std::nullopt);
        spec.value_texts << (value ? valueText(*value, metric) : QObject::tr("none"));
    }
    if (current && *current < result.points)
        spec.current = static_cast<int>(*current);
    return spec;
}

void addFrontier(SweepPlotSpec& spec, const ZeroRejectionFrontier& frontier) {
    spec.frontier.clear();
    spec.frontier_label.clear();
    spec.frontier_at_most = frontier.at_most;
    for (const std::optional<Rational>& row : frontier.rows)
        spec.frontier << (row ? std::optional<double>(row->to_double()) : std::nullopt);
    const QString name = text(frontier.parameter).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (spec.isHeatmap()) {
        spec.frontier_label =
            frontier.at_most
                ? QObject::tr("cells left of a mark reject nothing (the exact %1)").arg(name)
                : QObject::tr("cells right of a mark reject nothing (the exact %1)").arg(name);
        spec.note += QStringLiteral(" · ") + spec.frontier_label;
        return;
    }
    if (frontier.rows.empty() || !frontier.rows.front())
        return;
    const Rational& exact = *frontier.rows.front();
    QString value = text(to_text(ParamValue(exact)));
    if (exact.den() != 1)
        value += QStringLiteral(" (%1)").arg(text(exact.to_short(2)));
    spec.frontier_label =
        QObject::tr("%1 %2 %3: none rejected")
            .arg(name, frontier.at_most ? QStringLiteral("≤") : QStringLiteral("≥"), value);
    const auto [lo, hi] = std::minmax_element(spec.x_positions.begin(), spec.x_positions.end());
    if (lo == spec.x_positions.end() || exact.to_double() < *lo || exact.to_double() > *hi)
        spec.note += QObject::tr(" · %1 (outside this range)").arg(spec.frontier_label);
}

}  // namespace ratelab::ui
