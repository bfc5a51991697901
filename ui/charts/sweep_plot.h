#pragma once
// The Sweep panel's chart: one figure of a sweep over one or two axes, painted directly (a line
// through the points of one axis, or a heatmap of two), for the screen, exports and
// `ratelab-cli render --view sweep` alike.

#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <optional>

#include "charts/chart_render.h"
#include "ratelab/sweep.h"

class QPainter;

namespace ratelab::ui {

struct ChartTheme;

/// What a sweep's chart shows for each point.
enum class SweepMetric { RejectedPercent, BurstRatio, P95Delay, MaxDelay };

inline constexpr SweepMetric kAllSweepMetrics[] = {SweepMetric::RejectedPercent,
                                                   SweepMetric::BurstRatio, SweepMetric::P95Delay,
                                                   SweepMetric::MaxDelay};

/// "rejected", "burst", "p95_delay", "max_delay": the names `render --metric` takes.
QString sweepMetricName(SweepMetric metric);
std::optional<SweepMetric> sweepMetricFromName(const QString& name);
/// "Rejected %", "Worst burst / L", ...
QString sweepMetricTitle(SweepMetric metric);
/// The metric of one row, exactly; nothing where it means nothing (a delay of a lane that does
/// not shape, a percentile without acceptances). The worst burst is the lane's judged one: on
/// a trace of several keys, its worst key against that key's own L.
std::optional<Rational> sweepMetricValue(const SweepRow& row, SweepMetric metric);

/// Everything the chart draws, as plain values.
struct SweepPlotSpec {
    QString title;
    QString note;  ///< one short line under the title, may be empty
    QString x_title;
    /// The first axis's values: where each sits along x (numbers; or 0, 1, 2, ... for choices)
    /// and its label.
    QList<double> x_positions;
    QStringList x_labels;
    /// Heatmaps only: the second axis, one row of cells per value, the first at the bottom.
    QString y_title;
    QStringList y_labels;
    QString value_title;  ///< the metric
    /// One per point, in the sweep's order (the second axis varying fastest).
    QList<std::optional<double>> values;
    QStringList value_texts;     ///< the exact value of each point, for labels and tooltips
    std::optional<int> current;  ///< the point of the document's own setting
    std::optional<int> marked;   ///< a point to point out, e.g. the smallest that fits
    QString marked_label;
    /// Where the closed form says the lane stops rejecting, as a position along x: one for a
    /// line; one per row of a heatmap, the first at the bottom (nothing in a row without one).
    QList<std::optional<double>> frontier;
    QString frontier_label;  ///< what the mark means, with the exact value where there is one
    /// The values at or below the frontier reject nothing (an emission interval), not those at
    /// or above it.
    bool frontier_at_most = false;
    QColor color;  ///< the lane's

    bool isHeatmap() const { return !y_labels.isEmpty(); }
    int columns() const { return static_cast<int>(x_labels.size()); }
    int rows() const { return isHeatmap() ? static_cast<int>(y_labels.size()) : 1; }
};

/// The chart of `metric` for lane `lane` of `result` (one or two axes). `current` is the point
/// of the document's setting, when the sweep has it.
SweepPlotSpec sweepPlotSpec(const SweepResult& result, std::size_t lane, SweepMetric metric,
                            std::optional<std::size_t> current);
/// Marks `frontier` (zero_rejection_frontier() of the spec's sweep and lane) on `spec`: where
/// the lane's closed form says it stops rejecting, and its exact value in the label.
void addFrontier(SweepPlotSpec& spec, const ZeroRejectionFrontier& frontier);

/// Where the chart's parts are inside a target rectangle: pure, so that clicks and tooltips
/// are tested without painting.
class SweepPlotGeometry {
public:
    SweepPlotGeometry(const SweepPlotSpec& spec, const QRectF& target);

    QRectF plot() const { return plot_; }
    /// The largest value the y axis (line) or the colour scale (heatmap) reaches.
    double scaleMax() const { return scale_max_; }
    double scaleStep() const { return scale_step_; }
    /// A line chart's point (its y at 0 when it has no value), or a heatmap cell's centre.
    QPointF pointAt(int index) const;
    /// A heatmap's cell.
    QRectF cellAt(int index) const;
    double xOf(double position) const;
    /// Where the frontier at `value` of the first axis is drawn: a line's xOf(), within the
    /// axis's values; on a heatmap the edge of the cells that reject nothing, left of the first
    /// column at or above `value` (right of the last at or below it, frontier_at_most). Nothing
    /// where the mark would fall off the chart.
    std::optional<double> frontierX(double value) const;
    double yOf(double value) const;
    /// The point under `position`: a heatmap's cell, or a line's nearest point within a few
    /// pixels along x; nothing elsewhere.
    std::optional<int> hit(QPointF position) const;

private:
    const SweepPlotSpec& spec_;
    QRectF plot_;
    double x_min_ = 0.0;
    double x_max_ = 1.0;
    double scale_max_ = 1.0;
    double scale_step_ = 1.0;
};

/// The colour of `value` (0 to `max`) on the heatmap's scale: light for little, dark for much.
QColor heatColor(double value, double max);

/// Paints the chart into `target`; `hovered` is drawn raised.
void paintSweepPlot(QPainter& painter, const QRectF& target, const SweepPlotSpec& spec,
                    const ChartTheme& theme, std::optional<int> hovered = std::nullopt);
/// paintSweepPlot() in the print theme, as a PaintFunction.
PaintFunction printedSweepPlot(const SweepPlotSpec& spec);

}  // namespace ratelab::ui
