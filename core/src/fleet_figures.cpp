// What a view draws of a fleet run besides its decisions: the size over time, the sync points,
// each server's load in spans of ticks and the fleet-wide load in the trailing window.
#include <algorithm>
#include <deque>
#include <stdexcept>

#include "ratelab/fleet.h"

namespace ratelab {

int fleet_size_at(const FleetSettings& settings, Tick tick) {
    int size = settings.servers;
    for (const ScaleEvent& event : settings.scale) {
        if (event.tick > tick)
            break;
        size = event.servers;
    }
    return size;
}

std::vector<Tick> fleet_sync_points(const FleetSettings& settings, Tick from, Tick to) {
    std::vector<Tick> out;
    const Tick every = std::max<Tick>(settings.sync_every, 1);
    // The first multiple of S at or after `from`, never tick 0.
    Tick at = std::max<Tick>(every, (std::max<Tick>(from, 0) + every - 1) / every * every);
    for (; at <= to; at += every)
        out.push_back(at);
    return out;
}

namespace {

const FleetModeResult& mode_of(const FleetResult& result, std::size_t mode) {
    if (mode >= result.modes.size())
        throw std::out_of_range("fleet mode index out of range");
    return result.modes[mode];
}

}  // namespace

FleetHeat fleet_heat(const FleetResult& result, std::size_t mode, Tick bucket, Tick end,
                     Tick from) {
    const FleetModeResult& run = mode_of(result, mode);
    FleetHeat heat;
    bucket = std::max<Tick>(bucket, 1);
    from = std::max<Tick>(from, 0);
    heat.servers = run.load.size();
    heat.buckets = static_cast<std::size_t>(std::max<Tick>(end - from, 0) / bucket + 1);
    heat.counts.assign(heat.servers * heat.buckets, 0);
    const auto& requests = result.trace->requests;
    const auto first = std::lower_bound(requests.begin(), requests.end(), from,
                                        [](const Request& r, Tick t) { return r.tick < t; });
    for (auto i = static_cast<std::size_t>(first - requests.begin());
         i < requests.size() && i < run.servers.size() && requests[i].tick <= end; ++i) {
        if (run.servers[i] >= heat.servers)
            continue;
        std::int64_t& count =
            heat.counts[run.servers[i] * heat.buckets +
                        static_cast<std::size_t>((requests[i].tick - from) / bucket)];
        heat.peak = std::max(heat.peak, ++count);
    }
    return heat;
}

std::vector<std::int64_t> fleet_window_load(const FleetResult& result, std::size_t mode) {
    const FleetModeResult& run = mode_of(result, mode);
    const Tick window = result.params.base.window;
    const auto& requests = result.trace->requests;
    std::vector<std::int64_t> out(requests.size(), 0);
    // The accepted arrivals still inside the window, oldest first, and their cost.
    std::deque<std::size_t> inside;
    std::int64_t cost = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const Tick now = requests[i].tick;
        while (!inside.empty() && requests[inside.front()].tick + window <= now) {
            cost -= requests[inside.front()].cost;
            inside.pop_front();
        }
        if (run.is_accepted(i)) {
            inside.push_back(i);
            cost += requests[i].cost;
        }
        out[i] = cost;
    }
    // Later requests at the same tick add to the window of the earlier ones too: one tick,
    // one figure, the last (largest) of them.
    for (std::size_t i = requests.size(); i-- > 1;) {
        if (requests[i - 1].tick == requests[i].tick)
            out[i - 1] = out[i];
    }
    return out;
}

std::vector<SyncOvershoot> periodic_sync_overshoots(std::shared_ptr<const Trace> trace,
                                                    const Params& params, const Lane& lane,
                                                    FleetSettings settings,
                                                    const std::vector<Tick>& sync_every,
                                                    RunControl* control) {
    settings.modes = {FleetMode::periodic_sync};
    std::vector<SyncOvershoot> out;
    out.reserve(sync_every.size());
    for (const Tick every : sync_every) {
        settings.sync_every = every;
        const auto result = simulate_fleet(trace, params, lane, settings, control);
        const FleetModeResult& mode = result->modes.front();
        out.push_back(SyncOvershoot{every, mode.worst.overshoot(), mode.totals.accepted});
    }
    return out;
}

}  // namespace ratelab
