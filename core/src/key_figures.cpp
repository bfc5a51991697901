#include "ratelab/key_figures.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "burst.h"
#include "ratelab/registry.h"

namespace ratelab {
namespace {

/// The requests [0, count) grouped by key, each group in trace order: a counting sort.
struct ByKey {
    std::vector<std::uint32_t> first;  // group g is order[first[g], first[g + 1])
    std::vector<std::uint32_t> order;  // request indexes
};

ByKey group_by_key(const Trace& trace, std::size_t count) {
    ByKey groups;
    groups.first.assign(trace.keys.size() + 1, 0);
    for (std::size_t i = 0; i < count; ++i)
        ++groups.first[trace.requests[i].key + 1];
    std::partial_sum(groups.first.begin(), groups.first.end(), groups.first.begin());
    std::vector<std::uint32_t> next(groups.first.begin(), groups.first.end() - 1);
    groups.order.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        groups.order[next[trace.requests[i].key]++] = static_cast<std::uint32_t>(i);
    return groups;
}

/// Whether `a` is over its limit by more than `b` is: a.cost / a.limit > b.cost / b.limit.
bool relatively_worse(const KeyFigures& a, const KeyFigures& b) {
    return static_cast<Int128>(a.worst_burst.cost) * b.limit >
           static_cast<Int128>(b.worst_burst.cost) * a.limit;
}

/// Finds the lane's worst key and whether any is over its limit, the keys sorted by name.
void judge(LaneKeys& lane) {
    lane.worst.reset();
    lane.over_limit = false;
    for (std::size_t i = 0; i < lane.keys.size(); ++i) {
        const KeyFigures& key = lane.keys[i];
        lane.over_limit = lane.over_limit || key.over_limit();
        if (key.worst_burst.cost > 0 &&
            (!lane.worst || relatively_worse(key, lane.keys[*lane.worst]))) {
            lane.worst = i;
        }
    }
}

void sort_and_judge(const Trace& trace, LaneKeys& lane) {
    std::sort(lane.keys.begin(), lane.keys.end(), [&](const KeyFigures& a, const KeyFigures& b) {
        return trace.key_name(a.key) < trace.key_name(b.key);
    });
    judge(lane);
}

/// One key's figures from the lane's decisions of its requests `indexes`, in trace order.
KeyFigures from_decisions(const Trace& trace, const AlgorithmRun& run, const AlgorithmInfo& info,
                          const Limits& limits, KeyId key, const std::uint32_t* indexes,
                          std::size_t count, std::optional<Tick> released_by) {
    KeyFigures out;
    out.key = key;
    out.limit = limits.limit;
    out.window = limits.window;
    out.requests = static_cast<std::int64_t>(count);
    if (!run.releases) {
        detail::ArrivalBurst burst(limits.window);
        for (std::size_t k = 0; k < count; ++k) {
            const Request& r = trace.requests[indexes[k]];
            if (run.accepted(indexes[k])) {
                ++out.totals.accepted;
                out.totals.accepted_cost += r.cost;
                const detail::ArrivalBurst::Arrival arrival{r.tick, r.cost};
                burst.add(&arrival, 1);
            } else {
                ++out.totals.rejected;
                out.totals.rejected_cost += r.cost;
            }
        }
        out.worst_burst = burst.result();
        return out;
    }
    // A shaper lets a request's units through one every `spacing` ticks, the last at its
    // release (ShaperLaw): in 1/den ticks, they start at release - (cost - 1) * num.
    const Rational spacing = info.shaper_law(limits).spacing;
    const std::int64_t step = spacing.num();
    const std::int64_t scale = spacing.den();
    detail::SegmentBurst burst(limits.window);
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t index = indexes[k];
        const Request& r = trace.requests[index];
        if (!run.accepted(index)) {
            ++out.totals.rejected;
            out.totals.rejected_cost += r.cost;
            continue;
        }
        ++out.totals.accepted;
        out.totals.accepted_cost += r.cost;
        const Rational release = run.release(trace, index);
        out.totals.max_delay = std::max(out.totals.max_delay, release - Rational(r.tick));
        // Releases fall on the 1/den grid of the spacing (a queue starts a unit at an
        // arrival or one spacing after the unit before).
        const Rational last_scaled = release * Rational(scale);
        if (!last_scaled.is_integer())
            throw SimulationError(run.id + ": a release off its spacing's grid");
        const std::int64_t last = last_scaled.num();
        detail::UnitSegment units{last - (static_cast<std::int64_t>(r.cost) - 1) * step, r.cost,
                                  step, scale};
        if (released_by) {
            const Int128 by = static_cast<Int128>(*released_by) * scale;
            units.count = units.first > by ? 0
                                           : static_cast<std::int64_t>(std::min<Int128>(
                                                 units.count, (by - units.first) / step + 1));
        }
        if (units.count > 0)
            burst.add(units);
    }
    out.worst_burst = burst.result();
    return out;
}

}  // namespace

std::optional<KeyId> only_key(const Trace& trace) {
    if (trace.requests.empty())
        return std::nullopt;
    if (trace.keys.size() == 1)
        return KeyId{0};
    const KeyId key = trace.requests.front().key;
    if (std::any_of(trace.requests.begin(), trace.requests.end(),
                    [key](const Request& r) { return r.key != key; })) {
        return std::nullopt;
    }
    return key;
}

bool key_figures_need_decisions(const Trace& trace, const Params& params) {
    if (trace.requests.empty())
        return false;
    const auto key = only_key(trace);
    return !key || params.for_key(trace.key_name(*key)).window != params.base.window;
}

bool key_figures_need_decisions(const SimulationResult& result) {
    if (result.trace->requests.empty())
        return false;
    return !result.sole_key ||
           result.params.for_key(result.trace->key_name(*result.sole_key)).window !=
               result.params.base.window;
}

bool has_key_figures(const SimulationResult& result, std::size_t lane) {
    return lane < result.runs.size() &&
           (result.runs[lane].has_decisions() || !key_figures_need_decisions(result));
}

LaneKeys key_figures(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                     const AlgorithmRun* prefix_run) {
    if (!has_key_figures(result, lane))
        throw SimulationError("lane " + std::to_string(lane) +
                              " kept no decisions to count its keys from");
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    const Params& params = result.lane_params[lane];
    const std::size_t count =
        std::min(scope.count.value_or(trace.requests.size()), trace.requests.size());
    LaneKeys out;
    if (count == 0)
        return out;
    if (!key_figures_need_decisions(result)) {
        // One key, counted over the trace's W: the lane's own figures are the key's.
        const bool whole = count == trace.requests.size() && !scope.released_by;
        const AlgorithmRun* figures = prefix_run != nullptr ? prefix_run : whole ? &run : nullptr;
        if (figures != nullptr) {
            const KeyId key = trace.requests.front().key;
            const Limits& limits = params.for_key(trace.key_name(key));
            out.keys.push_back(KeyFigures{key, limits.limit, limits.window,
                                          static_cast<std::int64_t>(count), figures->totals,
                                          figures->worst_burst});
            sort_and_judge(trace, out);
            return out;
        }
    }
    if (!run.has_decisions())
        throw SimulationError("lane " + std::to_string(lane) +
                              ": a part of a run without decisions needs its own run");
    const AlgorithmInfo& info = *Registry::instance().find(run.id);
    const ByKey groups = group_by_key(trace, count);
    for (KeyId key = 0; key < trace.keys.size(); ++key) {
        const std::size_t begin = groups.first[key];
        const std::size_t end = groups.first[key + 1];
        if (begin == end)
            continue;
        out.keys.push_back(from_decisions(trace, run, info, params.for_key(trace.key_name(key)),
                                          key, groups.order.data() + begin, end - begin,
                                          scope.released_by));
    }
    sort_and_judge(trace, out);
    return out;
}

namespace {

/// The most requests of one key that a log held at once: appended requests (accepted ones, and
/// rejected ones when they count) within any span of W ticks, as the log keeps those of the
/// trailing window (t - W, t] at each request.
std::int64_t log_peak(const Trace& trace, const AlgorithmRun& run, bool rejections_count,
                      Tick window, const std::uint32_t* indexes, std::size_t count) {
    std::vector<Tick> appended;
    for (std::size_t k = 0; k < count; ++k) {
        if (rejections_count || run.accepted(indexes[k]))
            appended.push_back(trace.requests[indexes[k]].tick);
    }
    std::int64_t peak = 0;
    std::size_t first = 0;
    for (std::size_t last = 0; last < appended.size(); ++last) {
        while (appended[last] - appended[first] >= window)
            ++first;
        peak = std::max<std::int64_t>(peak, static_cast<std::int64_t>(last - first + 1));
    }
    return peak;
}

/// The most requests of one key waiting in a FIFO queue at once: each accepted request waits
/// from its arrival until its release, and leaves in arrival order.
std::int64_t queue_peak(const Trace& trace, const AlgorithmRun& run, const std::uint32_t* indexes,
                        std::size_t count) {
    std::vector<std::size_t> accepted;
    for (std::size_t k = 0; k < count; ++k) {
        if (run.accepted(indexes[k]))
            accepted.push_back(indexes[k]);
    }
    std::int64_t peak = 0;
    std::size_t left = 0;  // the accepted requests released by the current arrival
    for (std::size_t i = 0; i < accepted.size(); ++i) {
        const Rational now(trace.requests[accepted[i]].tick);
        while (left < i && run.release(trace, accepted[left]) <= now)
            ++left;
        const bool waits = run.delay(accepted[i]) > Rational();
        peak = std::max<std::int64_t>(peak, static_cast<std::int64_t>(i - left) + (waits ? 1 : 0));
    }
    return peak;
}

}  // namespace

std::optional<StateCost> state_cost(const SimulationResult& result, std::size_t lane,
                                    const LaneKeys& keys, const KeyScope& scope) {
    const AlgorithmRun& run = result.runs.at(lane);
    const AlgorithmInfo* info = Registry::instance().find(run.id);
    if (info == nullptr || !info->state_size)
        return std::nullopt;
    StateCost cost;
    cost.size = *info->state_size;
    const Trace& trace = *result.trace;
    const Params& params = result.lane_params[lane];
    using Grows = StateSize::Grows;
    switch (cost.size.grows) {
        case Grows::no:
            cost.most_per_key = cost.size.fixed;
            break;
        case Grows::per_request_in_window:
            if (!params.rejections_count)
                cost.most_per_key = cost.size.fixed + params.base.limit;
            break;
        case Grows::per_queued_request:
            cost.most_per_key = cost.size.fixed + info->shaper_law(params.base).capacity;
            break;
    }
    if (cost.size.grows != Grows::no && !run.has_decisions())
        return std::nullopt;
    const std::size_t count =
        std::min(scope.count.value_or(trace.requests.size()), trace.requests.size());
    const ByKey groups = group_by_key(trace, cost.size.grows == Grows::no ? 0 : count);
    for (const KeyFigures& key : keys.keys) {
        std::int64_t peak = cost.size.fixed;
        if (cost.size.grows != Grows::no) {
            const std::uint32_t* indexes = groups.order.data() + groups.first[key.key];
            const std::size_t requests = groups.first[key.key + 1] - groups.first[key.key];
            peak +=
                cost.size.grows == Grows::per_request_in_window
                    ? log_peak(trace, run, params.rejections_count, key.window, indexes, requests)
                    : queue_peak(trace, run, indexes, requests);
        }
        cost.peaks.push_back(peak);
        cost.total += peak;
    }
    return cost;
}

std::vector<char> key_mask(std::size_t key_count, const std::vector<KeyId>& keys) {
    std::vector<char> mask(key_count, 0);
    for (const KeyId key : keys) {
        if (key < key_count)
            mask[key] = 1;
    }
    return mask;
}

LaneKeys only_keys(const LaneKeys& lane, const std::vector<char>& shown) {
    LaneKeys out;
    for (const KeyFigures& key : lane.keys) {
        if (key.key < shown.size() && shown[key.key] != 0)
            out.keys.push_back(key);
    }
    judge(out);
    return out;
}

Totals sum_totals(const LaneKeys& lane) {
    Totals sum;
    for (const KeyFigures& key : lane.keys) {
        sum.accepted += key.totals.accepted;
        sum.rejected += key.totals.rejected;
        sum.accepted_cost += key.totals.accepted_cost;
        sum.rejected_cost += key.totals.rejected_cost;
        sum.max_delay = std::max(sum.max_delay, key.totals.max_delay);
    }
    return sum;
}

JudgedBurst judged_burst(const SimulationResult& result, std::size_t lane, const LaneKeys* keys,
                         const AlgorithmRun& shown) {
    const Trace& trace = *result.trace;
    const Params& params = result.lane_params.at(lane);
    if (keys != nullptr) {
        if (const KeyFigures* worst = keys->worst_key())
            return JudgedBurst{worst->worst_burst, worst->limit, worst->window, worst->key};
        if (keys->keys.size() == 1) {  // one key, nothing accepted yet
            const KeyFigures& only = keys->keys.front();
            return JudgedBurst{only.worst_burst, only.limit, only.window, only.key};
        }
    }
    if (const auto key = result.sole_key) {
        const Limits& limits = params.for_key(trace.key_name(*key));
        if (limits.window == params.base.window)
            return JudgedBurst{shown.worst_burst, limits.limit, limits.window, key};
    } else if (trace.requests.empty()) {
        return JudgedBurst{shown.worst_burst, params.base.limit, params.base.window, {}};
    }
    return JudgedBurst{shown.worst_burst, 0, params.base.window, {}};
}

}  // namespace ratelab
