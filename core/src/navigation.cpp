// The lecture-hall moves: from the clock to the next or previous rejection, or to the worst
// burst, read off a simulation's decisions.
#include "ratelab/navigation.h"

#include <algorithm>

namespace ratelab {

namespace {

bool some_lane_rejects(const SimulationResult& result, std::size_t index) {
    return std::any_of(result.runs.begin(), result.runs.end(), [index](const AlgorithmRun& run) {
        return run.has_decisions() && !run.accepted(index);
    });
}

bool before_tick(const Request& request, Tick tick) {
    return request.tick < tick;
}

}  // namespace

std::optional<Tick> next_rejection(const SimulationResult& result, Tick now) {
    const auto& requests = result.trace->requests;
    // Requests are in tick order: start at the first one after `now`.
    const auto first = std::upper_bound(requests.begin(), requests.end(), now,
                                        [](Tick tick, const Request& r) { return tick < r.tick; });
    for (auto it = first; it != requests.end(); ++it) {
        if (some_lane_rejects(result, static_cast<std::size_t>(it - requests.begin())))
            return it->tick;
    }
    return std::nullopt;
}

std::optional<Tick> previous_rejection(const SimulationResult& result, Tick now) {
    const auto& requests = result.trace->requests;
    auto it = std::lower_bound(requests.begin(), requests.end(), now, before_tick);
    while (it != requests.begin()) {
        --it;
        if (some_lane_rejects(result, static_cast<std::size_t>(it - requests.begin())))
            return it->tick;
    }
    return std::nullopt;
}

std::optional<BurstPlace> worst_burst_place(const SimulationResult& result) {
    std::optional<BurstPlace> worst;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        if (run.has_decisions() && run.worst_burst.cost > 0 &&
            (!worst || run.worst_burst.cost > worst->burst.cost)) {
            worst = BurstPlace{lane, run.worst_burst, result.lane_params.at(lane).base.window, 0};
        }
    }
    if (!worst)
        return std::nullopt;
    const AlgorithmRun& run = result.runs[worst->lane];
    const Trace& trace = *result.trace;
    const Rational end = worst->burst.start + worst->window;
    worst->last = std::max<Tick>(0, worst->burst.start.ceil());
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (!run.accepted(i))
            continue;
        const Rational arrival =
            run.releases ? run.release(trace, i) : Rational(trace.requests[i].tick);
        if (arrival >= worst->burst.start && arrival < end)
            worst->last = std::max(worst->last, arrival.ceil());
    }
    return worst;
}

}  // namespace ratelab
