#include "charts/chart_input.h"

#include <algorithm>

#include "charts/palette.h"
#include "ratelab/key_figures.h"

namespace ratelab::ui {

std::pair<double, double> defaultTimeSpan(const ResultSeries& series) {
    // A window's worth of quiet before a late first request shows the state it starts from.
    const double from =
        series.from <= 2 * series.window ? 0.0 : static_cast<double>(series.from - series.window);
    return {from, static_cast<double>(series.to) + 1.0};
}

std::pair<double, double> chartTimeSpan(const ResultSeries& series) {
    auto [from, to] = defaultTimeSpan(series);
    // A little room left of the first tick, so that what happens there is not on the axis.
    return {from - std::max(0.5, (to - from) * 0.015), to};
}

SeriesOptions chartSeriesOptions(const SimulationResult& result, const std::vector<KeyId>& keys) {
    SeriesOptions options;
    options.keys = keys;
    // The keys with a colour of their own on the timeline get a queue and a level line each, in
    // the same colours.
    options.key_lines = colouredKeys(
        result, keys.empty() ? std::vector<char>{} : key_mask(result.trace->keys.size(), keys));
    return options;
}

ChartInput wholeTraceInput(std::shared_ptr<const SimulationResult> result, int columns,
                           const std::vector<KeyId>& keys) {
    auto series = std::make_shared<const ResultSeries>(
        compute_series(*result, chartSeriesOptions(*result, keys)));
    return wholeTraceInput(std::move(result), std::move(series), columns);
}

ChartInput wholeTraceInput(std::shared_ptr<const SimulationResult> result,
                           std::shared_ptr<const ResultSeries> series, int columns) {
    ChartInput input;
    input.result = std::move(result);
    input.series = std::move(series);
    std::tie(input.from, input.to) = chartTimeSpan(*input.series);
    input.columns = columns;
    return input;
}

}  // namespace ratelab::ui
