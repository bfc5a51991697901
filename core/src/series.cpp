#include "ratelab/series.h"

#include <algorithm>
#include <utility>

#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "series_lines.h"
#include "share_out.h"

namespace ratelab {
namespace {

using detail::add_to_total;
using detail::add_unit_releases;
using detail::bucket_level;
using detail::difference;
using detail::released_total;
using detail::stop_if_asked;

/// Which keys the series count, by key id; empty: every key.
using KeyMask = std::vector<char>;

bool counted(const KeyMask& mask, KeyId key) {
    return mask.empty() || mask[key] != 0;
}

/// The counted key with the most requests (the first on a tie), given each key's requests.
KeyId busiest_key(const std::vector<std::size_t>& requests, const KeyMask& mask) {
    KeyId busiest = 0;
    for (KeyId key = 0; key < requests.size(); ++key) {
        if (counted(mask, key) && (!counted(mask, busiest) || requests[key] > requests[busiest]))
            busiest = key;
    }
    return busiest;
}

/// Each key's time between two released cost units, for a shaper.
std::vector<Rational> release_spacings(const Trace& trace, const Params& params,
                                       const AlgorithmInfo& info) {
    std::vector<Rational> out;
    out.reserve(trace.keys.size());
    for (const std::string& key : trace.keys) {
        out.push_back(info.shaper_law(params.for_key(key)).spacing);
        if (params.keys.empty())
            break;  // every key shares the base limits
    }
    return out;
}

/// The window a lane's load is counted over: its own W, or the one key's own when one is shown.
Tick load_window(const SimulationResult& result, std::size_t lane, std::optional<KeyId> one_key) {
    const Params& params = result.lane_params[lane];
    if (one_key && !params.keys.empty())
        return params.for_key(result.trace->key_name(*one_key)).window;
    return params.base.window;
}

/// The last tick at which anything a lane's series count changes: the last request, or the last
/// release of an accepted request counted.
Tick last_change(const SimulationResult& result, std::size_t lane, const KeyMask& mask, Tick from,
                 const RunControl* control) {
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    const RequestColumn& requests = trace.requests;
    Tick last = requests.empty() ? from : requests.back().tick;
    if (!run.releases)
        return last;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        stop_if_asked(control, i);
        if (counted(mask, requests[i].key) && run.accepted(i))
            last = std::max(last, run.release(trace, i).ceil());
    }
    return last;
}

/// Fills the per-request series of one run.
void fill_series(AlgorithmSeries& out, const SimulationResult& result, std::size_t lane,
                 const KeyMask& mask, std::optional<KeyId> one_key, KeyId level_key, Tick from,
                 const RunControl* control) {
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    const Params& params = result.lane_params[lane];
    const Tick window = load_window(result, lane, one_key);
    const AlgorithmInfo& info = *Registry::instance().find(run.id);
    const RequestColumn& requests = trace.requests;
    std::vector<std::pair<Tick, std::int64_t>> releases;
    std::vector<Rational> drains;
    if (run.releases) {
        drains = release_spacings(trace, params, info);
        releases.reserve(requests.size());
        out.delays.reserve(requests.size());
    }
    // At most a change per request: room for them at once rather than by doubling, which
    // copies the series and, on ten million requests, touches twice the memory.
    for (StepSeries* series : {&out.accepted, &out.rejected}) {
        series->ticks.reserve(requests.size());
        series->values.reserve(requests.size());
    }
    for (std::size_t i = 0; i < requests.size(); ++i) {
        stop_if_asked(control, i);
        const Request& r = requests[i];
        if (!counted(mask, r.key))
            continue;
        if (!run.accepted(i)) {
            add_to_total(out.rejected, r.tick, r.cost);
            continue;
        }
        add_to_total(out.accepted, r.tick, r.cost);
        if (run.releases) {
            const Rational release = run.release(trace, i);
            add_unit_releases(releases, release, r.cost, drains[drains.size() == 1 ? 0 : r.key]);
            out.delays.push_back(PlotPoint{static_cast<double>(r.tick),
                                           release.to_double() - static_cast<double>(r.tick)});
        }
    }
    if (run.releases) {
        const StepSeries released = released_total(std::move(releases));
        out.load = difference(released, released, window);
        out.queue = difference(out.accepted, released, 0);
    } else {
        out.load = difference(out.accepted, out.accepted, window);
    }

    if (info.shaper_law) {
        const Limits& limits = one_key ? params.for_key(trace.key_name(*one_key)) : params.base;
        out.queue_capacity = info.shaper_law(limits).capacity;
    }
    if (info.level_law) {
        const LevelLaw law = info.level_law(params.for_key(trace.key_name(level_key)));
        out.level_capacity = law.capacity;
        out.level = bucket_level(trace, run, level_key, law.capacity, law.slope, from, control);
    }
}

/// The queues of `keys` one by one (a shaper's cost units accepted and not yet released), in
/// one pass over the requests.
std::vector<StepSeries> key_queues(const SimulationResult& result, std::size_t lane,
                                   const std::vector<KeyId>& keys,
                                   const std::vector<Rational>& drains, const RunControl* control) {
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    constexpr std::size_t kNoLine = kMostKeyLines;
    std::vector<std::size_t> line_of(trace.keys.size(), kNoLine);
    for (std::size_t i = 0; i < keys.size(); ++i)
        line_of[keys[i]] = i;
    std::vector<StepSeries> accepted(keys.size());
    std::vector<std::vector<std::pair<Tick, std::int64_t>>> releases(keys.size());
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        stop_if_asked(control, i);
        const Request& r = trace.requests[i];
        const std::size_t line = line_of[r.key];
        if (line == kNoLine || !run.accepted(i))
            continue;
        add_to_total(accepted[line], r.tick, r.cost);
        add_unit_releases(releases[line], run.release(trace, i), r.cost, drains[line]);
    }
    std::vector<StepSeries> out;
    for (std::size_t line = 0; line < keys.size(); ++line)
        out.push_back(difference(accepted[line], released_total(std::move(releases[line])), 0));
    return out;
}

/// The series of `keys` one by one, for a shaper's queue or a lane's level.
std::vector<KeySeries> key_lines(const SimulationResult& result, std::size_t lane,
                                 const std::vector<KeyId>& keys, Tick from,
                                 const RunControl* control) {
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    const Params& params = result.lane_params[lane];
    const AlgorithmInfo& info = *Registry::instance().find(run.id);
    const bool queues = run.releases && info.shaper_law;
    std::vector<KeySeries> out;
    if (!queues && !info.level_law)
        return out;
    std::vector<Rational> drains;
    for (const KeyId key : keys) {
        KeySeries& line = out.emplace_back();
        line.key = key;
        const Limits& limits = params.for_key(trace.key_name(key));
        if (queues) {
            const ShaperLaw law = info.shaper_law(limits);
            line.queue_capacity = law.capacity;
            drains.push_back(law.spacing);
        }
        if (info.level_law) {
            const LevelLaw law = info.level_law(limits);
            line.level_capacity = law.capacity;
            line.level = bucket_level(trace, run, key, law.capacity, law.slope, from, control);
        }
    }
    if (queues) {
        std::vector<StepSeries> queue = key_queues(result, lane, keys, drains, control);
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].queue = std::move(queue[i]);
    }
    return out;
}

/// A lane's worst burst over the keys shown: one key's own, else the most the shown keys let
/// through together in one window, counted as the load is.
Burst shown_worst_burst(const SimulationResult& result, std::size_t lane,
                        const AlgorithmSeries& series, const ResultSeries& out, Tick window) {
    if (out.one_key) {
        for (const KeyFigures& figures : key_figures(result, lane).keys) {
            if (figures.key == *out.one_key)
                return figures.worst_burst;
        }
        return Burst{};
    }
    Burst worst;
    for (std::size_t i = 0; i < series.load.values.size(); ++i) {
        if (series.load.values[i] > worst.cost) {
            worst.cost = series.load.values[i];
            worst.start = Rational(series.load.ticks[i] - window + 1);
        }
    }
    return worst;
}

/// Block extremes for every line of a lane, so that drawing it at any width reads a few
/// entries per block of changes rather than each change.
void summarize(AlgorithmSeries& series) {
    for (StepSeries* line : {&series.load, &series.accepted, &series.rejected, &series.queue})
        line->summarize();
    series.level.summarize();
    for (KeySeries& key : series.by_key) {
        key.queue.summarize();
        key.level.summarize();
    }
}

}  // namespace

std::int64_t StepSeries::value_at(Tick tick) const {
    const auto it = std::upper_bound(ticks.begin(), ticks.end(), tick);
    return it == ticks.begin() ? 0 : values[static_cast<std::size_t>(it - ticks.begin()) - 1];
}

std::int64_t StepSeries::max_until(Tick tick) const {
    std::int64_t best = 0;
    for (std::size_t i = 0; i < ticks.size() && ticks[i] <= tick; ++i)
        best = std::max(best, values[i]);
    return best;
}

std::int64_t StepSeries::max() const {
    return values.empty()
               ? 0
               : std::max<std::int64_t>(0, *std::max_element(values.begin(), values.end()));
}

const AlgorithmSeries* ResultSeries::find(std::string_view id) const {
    for (const AlgorithmSeries& series : algorithms) {
        if (series.id == id)
            return &series;
    }
    return nullptr;
}

StepSeries trailing_sum(const std::vector<Tick>& ticks, const std::vector<std::int64_t>& costs,
                        Tick window) {
    StepSeries total;
    for (std::size_t i = 0; i < ticks.size(); ++i)
        add_to_total(total, ticks[i], costs[i]);
    return difference(total, total, window);
}

std::int64_t worst_so_far(const AlgorithmSeries& series, Tick now, Tick end) {
    if (now >= end)
        return series.worst_burst.cost;
    return series.load.max_until(now);
}

ResultSeries compute_series(const SimulationResult& result, const SeriesOptions& options) {
    const Trace& trace = *result.trace;
    ResultSeries out;
    out.limit = result.params.base.limit;
    out.window = result.params.base.window;
    out.has_decisions = std::all_of(result.runs.begin(), result.runs.end(), [&](const auto& run) {
        return run.decisions.size() == trace.requests.size();
    });
    KeyMask mask;
    for (const KeyId key : options.keys) {
        if (key >= trace.keys.size())
            continue;
        mask.resize(trace.keys.size(), 0);
        mask[key] = 1;
    }
    for (KeyId key = 0; key < mask.size(); ++key) {
        if (mask[key] != 0)
            out.keys.push_back(key);
    }
    std::vector<std::size_t> requests(trace.keys.size(), 0);
    for (const Request& r : trace.requests)
        ++requests[r.key];
    out.keys_in_trace = static_cast<std::size_t>(
        std::count_if(requests.begin(), requests.end(), [](std::size_t n) { return n > 0; }));
    if (out.keys.size() == 1)
        out.one_key = out.keys.front();
    else if (out.keys.empty())
        out.one_key = result.sole_key;
    out.summed = !out.one_key && !trace.requests.empty();
    if (out.one_key && !result.params.keys.empty()) {
        // A tier's own L and W: the load is counted over the key's window and judged by its L.
        const Limits& own = result.params.for_key(trace.key_name(*out.one_key));
        out.limit = own.limit;
        out.window = own.window;
    }
    if (options.level_key && *options.level_key < trace.keys.size() &&
        counted(mask, *options.level_key))
        out.level_key = *options.level_key;
    else
        out.level_key = out.one_key.value_or(busiest_key(requests, mask));
    const auto first = std::find_if(trace.requests.begin(), trace.requests.end(),
                                    [&](const Request& r) { return counted(mask, r.key); });
    out.from = first == trace.requests.end() ? 0 : first->tick;
    std::vector<KeyId> lines;
    for (const KeyId key : options.key_lines) {
        if (key < trace.keys.size() && lines.size() < kMostKeyLines &&
            std::find(lines.begin(), lines.end(), key) == lines.end())
            lines.push_back(key);
    }
    // Each lane reads the shared result and writes its own series, so lanes go side by side.
    out.algorithms.resize(result.runs.size());
    std::vector<Tick> last_changes(result.runs.size(), out.from);
    const auto fill_lane = [&](std::size_t lane) {
        const AlgorithmRun& run = result.runs[lane];
        AlgorithmSeries& series = out.algorithms[lane];
        series.id = run.id;
        series.label = run.label;
        series.releases = run.releases;
        series.worst_burst = run.worst_burst;
        if (!out.has_decisions)
            return;
        last_changes[lane] = last_change(result, lane, mask, out.from, options.control);
        if (options.only_span)
            return;
        fill_series(series, result, lane, mask, out.one_key, out.level_key, out.from,
                    options.control);
        const Tick window = load_window(result, lane, out.one_key);
        const bool tiered = out.one_key && !result.lane_params[lane].keys.empty();
        if (!mask.empty() || tiered)
            series.worst_burst = shown_worst_burst(result, lane, series, out, window);
        series.by_key = key_lines(result, lane, lines, out.from, options.control);
        summarize(series);
    };
    detail::share_out(
        result.runs.size(),
        detail::threads_for(trace.requests.size(), options.threads, result.runs.size()), fill_lane);
    Tick last = out.from;
    for (const Tick tick : last_changes)
        last = std::max(last, tick);
    out.to = last + out.window;
    return out;
}

}  // namespace ratelab
