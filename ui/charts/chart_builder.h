#pragma once

#include <QString>

#include "charts/chart_spec.h"
#include "charts/chart_theme.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ratelab::ui {

/// Turns chart specs into Qt Charts objects. The only place that knows how a spec looks on
/// screen and on paper, so the live charts, the exports and the command line draw alike.
class ChartBuilder {
public:
    /// A new chart showing `spec` in `theme`; the caller owns it.
    static QChart* build(const ChartSpec& spec, const ChartTheme& theme);
    /// Puts the values of `spec` into `chart`, built from a spec of the same shape: each series
    /// is refilled with one replace() call, and the axes follow the new ranges.
    static void refill(QChart* chart, const ChartSpec& spec);
    /// Compact charts leave out the note and keep the legend beside the plot, for short docks.
    static void setCompact(QChart* chart, const ChartSpec& spec, const ChartTheme& theme,
                           bool compact);
    /// Shows or hides every series of `group` (an algorithm id), and dims its legend entries.
    static void setGroupVisible(QChart* chart, const QString& group, bool visible);
    /// The group of a series or a legend entry's series; empty for the chart's furniture.
    static QString groupOf(const QObject* series);
};

}  // namespace ratelab::ui
