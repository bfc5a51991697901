#pragma once
// What a chart is drawn from (ChartInput), and the spans and series choices every chart shares.

#include <memory>
#include <optional>
#include <utility>
#include <vector>

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
/// The same, drawn from `series`, already computed for `result`.
ChartInput wholeTraceInput(std::shared_ptr<const SimulationResult> result,
                           std::shared_ptr<const ResultSeries> series, int columns);

}  // namespace ratelab::ui
