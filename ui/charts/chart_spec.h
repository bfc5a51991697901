#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <optional>

#include "charts/palette.h"
#include "ratelab/model.h"

namespace ratelab::ui {

/// The five charts of a simulation.
enum class ChartKind { Load, Cumulative, Queue, Bucket, Worst };

inline constexpr ChartKind kAllChartKinds[] = {
    ChartKind::Load, ChartKind::Cumulative, ChartKind::Queue, ChartKind::Bucket, ChartKind::Worst};

/// "load", "cumulative", "queue", "bucket", "worst": the names used on the command line.
QString chartKindName(ChartKind kind);
std::optional<ChartKind> chartKindFromName(const QString& name);

/// The group of every series of lane `lane` (an index into the result's runs), shown and
/// hidden together.
inline QString laneGroup(std::size_t lane) {
    return QStringLiteral("lane-%1").arg(lane);
}

/// One drawn series: a line through `points`, or markers at them.
struct LineSpec {
    /// Series with the same group (a lane's, usually: laneGroup()) are shown and hidden together.
    QString group;
    QString label;  ///< legend text; also names the series
    QList<QPointF> points;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    double width = 2.0;
    bool markers_only = false;  ///< scatter instead of line
    MarkerShape marker = MarkerShape::Circle;
    double marker_size = 8.0;
    bool in_legend = true;
    bool secondary_axis = false;  ///< measured on the right-hand axis
};

/// A labelled horizontal line, such as the limit L.
struct ReferenceLine {
    QString label;  ///< drawn at the line's left end, e.g. "L = 4"
    double y = 0.0;
    Qt::PenStyle style = Qt::DashLine;
    /// Invalid: the grey of reference lines. A key's own size is drawn in the key's colour.
    QColor color = QColor();
    /// Whether the legend lists it when the right-hand axis is taken (else that axis labels it).
    bool in_legend = true;
};

struct AxisSpec {
    QString title;
    double min = 0.0;
    double max = 1.0;
    /// Distance between labelled ticks; labels are whole numbers when it is one.
    double step = 1.0;
};

/// Bars, one per category, each in its own colour (the worst-burst chart).
struct BarsSpec {
    QStringList categories;
    QStringList groups;  ///< the lane group of each bar, for toggling
    QList<double> values;
    QList<QColor> colors;
};

/// Everything a chart shows, as plain values: the charts are built from this alone, so the live
/// view, the exporter and the command line draw the same thing.
struct ChartSpec {
    ChartKind kind = ChartKind::Load;
    QString title;
    QString note;  ///< one short line under the title, may be empty
    AxisSpec x;
    AxisSpec y;
    std::optional<AxisSpec> y2;  ///< the right-hand axis, when a series uses it
    QList<LineSpec> lines;
    QList<ReferenceLine> references;
    std::optional<double> over_limit_from;  ///< shade y above this value
    std::optional<BarsSpec> bars;           ///< bars instead of a time axis
    std::optional<double> cursor;           ///< the clock's tick, as a vertical line
    /// The same series, axes and furniture: a chart can then be refilled instead of rebuilt.
    bool sameShape(const ChartSpec& other) const;
};

/// A time chart drawn for the whole trace, cut at the clock: lines end at `now` (interpolated
/// along what is drawn), markers after it go, and the cursor marks it. Playback then costs a
/// pass over the drawn points instead of over the series. Bars are left alone.
void cutAtTick(ChartSpec& spec, Tick now);

}  // namespace ratelab::ui
