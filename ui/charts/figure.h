#pragma once

#include <QRectF>
#include <QSize>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "charts/chart_render.h"
#include "charts/chart_spec.h"
#include "ratelab/series.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

/// What a printed timeline shows besides the result itself.
struct PrintedTimelineOptions {
    /// The keys on show (key ids of the result's trace): the requests of other keys are drawn
    /// faint and the lanes count these keys only. Empty: every key.
    std::vector<KeyId> keys;
    /// The trace's notes, drawn in a strip under the ruler with a guide down each note's tick.
    std::vector<TraceNote> notes;
    /// "Split lanes by key": a row per key with a colour of its own in every lane, as the app's
    /// View menu has it (nothing to split with one key, or more than eight).
    bool split_by_key = false;
};

/// Paints the timeline of `result` over the ticks [from, to) into `target` and returns its
/// plot's rectangle, so that a chart drawn below can line its x axis up with it. The desktop
/// app provides it (printedTimelinePainter()); ratelab_charts only calls it.
using TimelinePainter = std::function<QRectF(
    QPainter& painter, const QRectF& target, const std::shared_ptr<const SimulationResult>& result,
    double from, double to, const PrintedTimelineOptions& options)>;

/// What can be exported or rendered: one of the five charts, the timeline, or a figure.
enum class ExportView { Load, Cumulative, Queue, Bucket, Worst, Timeline, Figure };

/// "load" ... "worst", "timeline", "figure": the names `ratelab-cli render --view` takes.
QString exportViewName(ExportView view);
std::optional<ExportView> exportViewFromName(const QString& name);
/// The chart a view shows, if it is one of the five charts.
std::optional<ChartKind> chartOf(ExportView view);
ExportView viewOf(ChartKind chart);
/// A size that suits the view at 1x, in logical pixels.
QSize defaultExportSize(ExportView view);

struct FigureRequest {
    ExportView view = ExportView::Figure;
    std::shared_ptr<const SimulationResult> result;
    /// The trace's name, for the figure's title and caption ("The boundary burst").
    QString scenario;
    /// Replaces the default title when not empty.
    QString title;
    /// The keys on show (key ids of the result's trace), as the app's key chooser has them:
    /// the charts, the table and the timeline count these keys only. Empty: every key.
    std::vector<KeyId> keys;
    /// The trace's notes, for the timeline of the timeline and figure views.
    std::vector<TraceNote> notes;
    /// The timeline's lanes split by key (PrintedTimelineOptions::split_by_key).
    bool split_by_key = false;
    /// The chart a figure shows under its table.
    ChartKind figure_chart = ChartKind::Load;
    /// Pixel columns the series are decimated to (the image's device width).
    int columns = 1600;
    /// Device pixels per logical pixel (a PNG's scale).
    double device_pixel_ratio = 1.0;
    /// Needed for the timeline and figure views.
    TimelinePainter timeline;
    /// The series of `result` for `keys`, when the caller has them (the app's charts); else
    /// they are computed, which takes seconds on ten million requests.
    std::shared_ptr<const ResultSeries> series;
};

/// The most characters of a name or title that a figure lays out.
inline constexpr qsizetype kMaxDrawnTextLength = 240;
/// `text`, cut to kMaxDrawnTextLength characters with "…" where it was cut: a name of any size,
/// or a flood of combining marks, lays out in bounded time and memory.
QString drawableText(const QString& text);
/// The title a view gets: the chart's own, or the scenario's name, unless one was given.
QString figureTitle(const FigureRequest& request);
/// "The boundary burst, L = 4, W = 10", and which keys when not every key is on show
/// ("..., key pro only").
QString figureCaption(const FigureRequest& request);

/// Draws the requested view over the whole trace in the print theme. A figure stacks a title,
/// the timeline with its lanes, the comparison table, the chosen chart (its x axis lined up
/// with the timeline's) and a caption. Throws std::invalid_argument for a timeline or figure
/// without a TimelinePainter.
PaintFunction figurePainter(const FigureRequest& request);

}  // namespace ratelab::ui
