// What the keys' states of one lane cost in memory (state_cost() of key_figures.h): the Keys
// tab's column and the report's figure.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "ratelab/key_figures.h"
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

}  // namespace ratelab
