#include "ratelab/series.h"

#include <algorithm>
#include <utility>

#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "share_out.h"

namespace ratelab {
namespace {

/// Requests between two looks at RunControl::stop: a few milliseconds of work.
constexpr std::size_t kStopStride = 1 << 16;

/// Throws SimulationCancelled when `control` says stop; called every kStopStride requests.
void stop_if_asked(const RunControl* control, std::size_t index) {
    if (control != nullptr && index % kStopStride == 0 &&
        control->stop.load(std::memory_order_relaxed))
        throw SimulationCancelled();
}

/// Appends "from `tick` on, the value is `value`", dropping changes that change nothing.
void set_value(StepSeries& series, Tick tick, std::int64_t value) {
    if (!series.ticks.empty() && series.ticks.back() == tick) {
        series.values.back() = value;
        const std::size_t size = series.values.size();
        const std::int64_t before = size > 1 ? series.values[size - 2] : 0;
        if (value == before) {
            series.ticks.pop_back();
            series.values.pop_back();
        }
        return;
    }
    const std::int64_t current = series.values.empty() ? 0 : series.values.back();
    if (value != current) {
        series.ticks.push_back(tick);
        series.values.push_back(value);
    }
}

/// Adds amounts at ticks, in non-decreasing tick order, into a running total.
void add_to_total(StepSeries& total, Tick tick, std::int64_t amount) {
    if (amount != 0)
        set_value(total, tick, (total.values.empty() ? 0 : total.values.back()) + amount);
}

/// a(t) - b(t - shift) at each tick t: with b = a and shift = W, the total of the trailing
/// window (t - W, t]; with shift = 0, what has arrived and not yet left.
StepSeries difference(const StepSeries& a, const StepSeries& b, Tick shift) {
    StepSeries out;
    out.ticks.reserve(a.ticks.size() + b.ticks.size());
    out.values.reserve(a.ticks.size() + b.ticks.size());
    std::int64_t a_value = 0;
    std::int64_t b_value = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.ticks.size() || j < b.ticks.size()) {
        Tick tick = i < a.ticks.size() ? a.ticks[i] : b.ticks[j] + shift;
        if (j < b.ticks.size())
            tick = std::min(tick, b.ticks[j] + shift);
        if (i < a.ticks.size() && a.ticks[i] == tick)
            a_value = a.values[i++];
        if (j < b.ticks.size() && b.ticks[j] + shift == tick)
            b_value = b.values[j++];
        set_value(out, tick, a_value - b_value);
    }
    return out;
}

Int128 floor_div(Int128 num, Int128 den) {
    const Int128 q = num / den;
    return (num % den != 0 && ((num < 0) != (den < 0))) ? q - 1 : q;
}

Int128 ceil_div(Int128 num, Int128 den) {
    return -floor_div(-num, den);
}

Int128 gcd128(Int128 a, Int128 b) {
    while (b != 0)
        a = std::exchange(b, a % b);
    return a < 0 ? -a : a;
}

/// Adds, for one accepted request of a shaper, how many of its cost units leave at each tick.
/// Its units start at release - k * drain for k = cost-1 .. 0, and a unit starting at time s
/// counts at tick ceil(s), the first tick at or after it. Work is O(cost) either way: one step per
/// unit when units are at least a tick apart, else one step per tick they span.
///
/// A request that would take more than kMaxReleaseSteps steps takes that many instead: its units
/// are cut into runs of consecutive units, and each run counts at the tick its last unit leaves.
/// A release of 10^6 units across 10^12 ticks then costs 4,096 steps rather than 10^6, and a
/// chart of it is drawn the same to well past the width of a screen; the totals shown are never
/// ahead of the units that have left.
void add_unit_releases(std::vector<std::pair<Tick, std::int64_t>>& out, const Rational& release,
                       std::int64_t cost, const Rational& drain) {
    if (cost == 1) {
        out.emplace_back(release.ceil(), 1);
        return;
    }
    // Exact times over one common denominator.
    const Int128 den =
        static_cast<Int128>(release.den()) * drain.den() / gcd128(release.den(), drain.den());
    const Int128 last = static_cast<Int128>(release.num()) * (den / release.den());
    const Int128 step = static_cast<Int128>(drain.num()) * (den / drain.den());
    const Int128 first = last - static_cast<Int128>(cost - 1) * step;
    const Int128 ticks_spanned = ceil_div(last, den) - ceil_div(first, den) + 1;
    if (std::min<Int128>(cost, ticks_spanned) > kMaxReleaseSteps) {
        const std::int64_t per_run = (cost + kMaxReleaseSteps - 1) / kMaxReleaseSteps;
        for (std::int64_t done = 0; done < cost;) {
            const std::int64_t run = std::min(per_run, cost - done);
            done += run;
            out.emplace_back(static_cast<Tick>(ceil_div(first + (done - 1) * step, den)), run);
        }
        return;
    }
    if (step >= den) {
        for (Int128 s = first; s <= last; s += step)
            out.emplace_back(static_cast<Tick>(ceil_div(s, den)), 1);
        return;
    }
    const auto departed_by = [&](Int128 tick) -> Int128 {
        const Int128 k = floor_div(tick * den - first, step) + 1;
        return std::clamp<Int128>(k, 0, cost);
    };
    const Int128 end = ceil_div(last, den);
    for (Int128 tick = ceil_div(first, den); tick <= end; ++tick) {
        const Int128 units = departed_by(tick) - departed_by(tick - 1);
        if (units > 0)
            out.emplace_back(static_cast<Tick>(tick), static_cast<std::int64_t>(units));
    }
}

StepSeries released_total(std::vector<std::pair<Tick, std::int64_t>> events) {
    const auto by_tick = [](const auto& x, const auto& y) { return x.first < y.first; };
    if (!std::is_sorted(events.begin(), events.end(), by_tick))
        std::stable_sort(events.begin(), events.end(), by_tick);
    StepSeries out;
    out.ticks.reserve(events.size());
    out.values.reserve(events.size());
    for (const auto& [tick, amount] : events)
        add_to_total(out, tick, amount);
    return out;
}

/// A level that refills at `slope` per tick up to `capacity` and drops by the cost of each
/// accepted request of `key`. This is a token bucket; GCRA's allowance follows the same law
/// with capacity B and slope 1/T, which is why the two lines coincide under equal settings.
/// The level is kept exactly, in units of 1/slope.den(), so that a tick adds slope.num() units.
LevelSeries bucket_level(const Trace& trace, const AlgorithmRun& run, KeyId key,
                         std::int64_t capacity, const Rational& slope, Tick from,
                         const RunControl* control) {
    const Int128 per_tick = slope.num();
    const Int128 unit = slope.den();
    const Int128 full = capacity * unit;
    const auto to_y = [unit](Int128 level) {
        return static_cast<double>(level) / static_cast<double>(unit);
    };
    LevelSeries out;
    const auto push = [&out](double x, double y) {
        const PlotPoint point{x, y};
        if (out.vertices.empty() || !(out.vertices.back() == point))
            out.vertices.push_back(point);
    };
    Int128 level = full;
    Tick last = from;
    push(static_cast<double>(from), static_cast<double>(capacity));
    // When the level is refilled to full again after `last`.
    const auto full_at = [&]() {
        return static_cast<double>(last) +
               static_cast<double>(full - level) / static_cast<double>(per_tick);
    };
    const std::vector<Request>& requests = trace.requests;
    for (std::size_t i = 0; i < requests.size();) {
        const Tick tick = requests[i].tick;
        std::int64_t spent = 0;
        for (; i < requests.size() && requests[i].tick == tick; ++i) {
            stop_if_asked(control, i);
            if (requests[i].key == key && run.accepted(i))
                spent += requests[i].cost;
        }
        if (spent == 0)
            continue;
        if (level < full) {
            const Int128 refilled = level + static_cast<Int128>(tick - last) * per_tick;
            if (refilled >= full)
                push(full_at(), static_cast<double>(capacity));
            level = std::min(refilled, full);
        }
        push(static_cast<double>(tick), to_y(level));
        level -= spent * unit;
        push(static_cast<double>(tick), to_y(level));
        last = tick;
    }
    if (level < full)
        push(full_at(), static_cast<double>(capacity));
    return out;
}

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
    const std::vector<Request>& requests = trace.requests;
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
    const std::vector<Request>& requests = trace.requests;
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
