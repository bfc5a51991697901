#pragma once

#include <memory>
#include <optional>

#include "charts/chart_spec.h"
#include "ratelab/series.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

/// What a chart is built from: a result, its series, and the part of time on show.
struct ChartInput {
    std::shared_ptr<const SimulationResult> result;
    std::shared_ptr<const ResultSeries> series;
    /// The time span on the x axis, in ticks (chart coordinates: tick t is at x = t).
    double from = 0.0;
    double to = 1.0;
    /// Pixel columns of the plot area: series are decimated to this budget.
    int columns = 800;
    /// Device pixels per logical pixel (an image's scale): columns / ratio is the plot's width
    /// in logical pixels, which decides how thick lines can be.
    double device_pixel_ratio = 1.0;
    /// The clock: nothing after it is drawn and a cursor marks it. Nothing = the whole trace.
    std::optional<Tick> now;
};

/// The whole trace in ticks: from tick 0 when the trace starts early (else a window before its
/// first request), until every load has fallen back to zero.
std::pair<double, double> defaultTimeSpan(const ResultSeries& series);

/// defaultTimeSpan() with a little room before the first tick: what charts show by default.
std::pair<double, double> chartTimeSpan(const ResultSeries& series);

/// The series the charts draw of `result` with `keys` chosen (empty: every key): the keys with
/// a colour of their own on the timeline get a line each.
SeriesOptions chartSeriesOptions(const SimulationResult& result, const std::vector<KeyId>& keys);

/// A chart input for the whole of `result`, for exports and the command line; with `keys`
/// (key ids of its trace), for those keys only.
ChartInput wholeTraceInput(std::shared_ptr<const SimulationResult> result, int columns,
                           const std::vector<KeyId>& keys = {});

ChartSpec buildChartSpec(ChartKind kind, const ChartInput& input);

/// A time chart drawn for the whole trace, cut at the clock: lines end at `now` (interpolated
/// along what is drawn), markers after it go, and the cursor marks it. Playback then costs a
/// pass over the drawn points instead of over the series. Bars are left alone.
void cutAtTick(ChartSpec& spec, Tick now);

/// The spacing of labelled ticks: 1, 2 or 5 times a power of ten, giving at most `target`
/// intervals over `range`; never below `minimum`.
double niceStep(double range, int target, double minimum);
/// The smallest multiple of `step` that is at least `value`.
double niceCeiling(double value, double step);

}  // namespace ratelab::ui
