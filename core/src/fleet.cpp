// simulate_fleet(): the routing every mode shares, and the figures counted from a mode's
// decisions. The modes are in fleet_modes.cpp, the settings and local shares in
// fleet_settings.cpp.
#include "ratelab/fleet.h"

#include <algorithm>

#include "fleet_engine.h"
#include "ratelab/registry.h"

namespace ratelab {

namespace {

__extension__ using UInt128 = unsigned __int128;

/// A number in [0, n) from a 64-bit draw, by multiplying rather than by a modulo.
int scaled(std::uint64_t draw, int n) {
    return static_cast<int>((static_cast<UInt128>(draw) * static_cast<unsigned>(n)) >> 64);
}

/// The routing of every request: the balancer's server, the key's server by hashing, and N.
detail::FleetPlan make_plan(const Trace& trace, const Params& params, const Lane& lane,
                            const FleetSettings& settings) {
    detail::FleetPlan plan{trace, params, lane, settings, {}, {}, {}, nullptr};
    const std::size_t n = trace.requests.size();
    plan.routed.resize(n);
    plan.hashed.resize(n);
    plan.size.resize(n);
    int servers = settings.servers;
    std::size_t next_event = 0;
    int previous = -1;  // round robin: the server of the request before
    HashRing ring(servers);
    std::vector<int> key_server(trace.keys.size(), -1);  // for the ring of the current size
    for (std::size_t i = 0; i < n; ++i) {
        const Request& r = trace.requests[i];
        while (next_event < settings.scale.size() && settings.scale[next_event].tick <= r.tick)
            servers = settings.scale[next_event++].servers;
        if (ring.servers() != servers) {
            ring = HashRing(servers);
            std::fill(key_server.begin(), key_server.end(), -1);
        }
        if (key_server[r.key] < 0)
            key_server[r.key] = ring.server_of(trace.key_name(r.key));
        plan.hashed[i] = static_cast<std::uint16_t>(key_server[r.key]);
        plan.size[i] = static_cast<std::uint16_t>(servers);
        int server = 0;
        switch (settings.balancer) {
            case Balancer::round_robin:
                server = (previous + 1) % servers;
                break;
            case Balancer::random:
                server = scaled(detail::mix64(settings.seed ^ detail::mix64(i)), servers);
                break;
            case Balancer::key_hash:
                server = key_server[r.key];
                break;
        }
        previous = server;
        plan.routed[i] = static_cast<std::uint16_t>(server);
    }
    return plan;
}

/// The requests grouped by key, in trace order within a key, copied out once so that each
/// mode's bursts are counted reading memory in order.
struct KeyGroups {
    struct Arrival {
        Tick tick;
        std::int64_t cost;
    };
    std::vector<std::size_t> first;    ///< key k's requests are [first[k], first[k + 1])
    std::vector<std::uint32_t> index;  ///< the request at each place
    std::vector<Arrival> arrivals;

    explicit KeyGroups(const Trace& trace) : first(trace.keys.size() + 1, 0) {
        for (const Request& r : trace.requests)
            ++first[r.key + 1];
        for (std::size_t k = 0; k + 1 < first.size(); ++k)
            first[k + 1] += first[k];
        index.resize(trace.requests.size());
        arrivals.resize(trace.requests.size());
        std::vector<std::size_t> fill(first.begin(), first.end() - 1);
        for (std::size_t i = 0; i < trace.requests.size(); ++i) {
            const Request& r = trace.requests[i];
            const std::size_t at = fill[r.key]++;
            index[at] = static_cast<std::uint32_t>(i);
            arrivals[at] = Arrival{r.tick, r.cost};
        }
    }
};

/// Each key's worst burst of accepted cost over its own window, as the reference engine counts
/// one (spans [u, u + W) starting at an accepted arrival, the earliest on ties).
std::vector<KeyBurst> key_bursts(const Trace& trace, const Params& params, const KeyGroups& groups,
                                 const std::vector<std::uint8_t>& accepted) {
    std::vector<std::uint8_t> taken(groups.index.size());  // `accepted` in the groups' order
    for (std::size_t at = 0; at < taken.size(); ++at)
        taken[at] = accepted[groups.index[at]];
    std::vector<KeyBurst> out;
    for (std::size_t k = 0; k + 1 < groups.first.size(); ++k) {
        if (groups.first[k] == groups.first[k + 1])
            continue;
        const Limits& limits = params.for_key(trace.key_name(static_cast<KeyId>(k)));
        KeyBurst entry{static_cast<KeyId>(k), Burst{}, limits.limit};
        std::int64_t inside = 0;
        std::size_t left = groups.first[k];
        for (std::size_t at = groups.first[k]; at < groups.first[k + 1]; ++at) {
            if (taken[at] == 0)
                continue;
            inside += groups.arrivals[at].cost;
            for (; groups.arrivals[left].tick + limits.window <= groups.arrivals[at].tick; ++left)
                inside -= taken[left] != 0 ? groups.arrivals[left].cost : 0;
            while (taken[left] == 0)  // the span starts at an accepted arrival
                ++left;
            if (inside > entry.burst.cost)
                entry.burst = Burst{inside, Rational(groups.arrivals[left].tick)};
        }
        out.push_back(entry);
    }
    return out;
}

/// The key with the largest overshoot, the first on ties.
KeyBurst worst_of(const std::vector<KeyBurst>& keys, const Params& params) {
    if (keys.empty())
        return KeyBurst{0, Burst{}, params.base.limit};
    return *std::max_element(keys.begin(), keys.end(), [](const KeyBurst& a, const KeyBurst& b) {
        return a.overshoot() < b.overshoot();
    });
}

int most_servers(const FleetSettings& settings) {
    int most = settings.servers;
    for (const ScaleEvent& event : settings.scale)
        most = std::max(most, event.servers);
    return most;
}

void check_runnable(const Trace& trace, const Params& params, const Lane& lane,
                    const FleetSettings& settings) {
    Params with_lane = params;
    with_lane.lanes = {lane};
    if (const auto problems = validate(with_lane); !problems.empty())
        throw SimulationError(problems.front());
    if (const auto problems = validate(trace); !problems.empty())
        throw SimulationError(problems.front());
    if (const auto problems = validate(settings); !problems.empty())
        throw SimulationError(problems.front());
    const auto probe = make_limiter(trace, params, lane);
    const bool per_server = std::any_of(
        settings.modes.begin(), settings.modes.end(),
        [](FleetMode m) { return m == FleetMode::local_share || m == FleetMode::periodic_sync; });
    constexpr std::size_t kMostStates = 50'000'000;
    if (per_server &&
        static_cast<std::size_t>(most_servers(settings)) * trace.keys.size() > kMostStates)
        throw SimulationError("local_share and periodic_sync keep a state per server and key: " +
                              std::to_string(most_servers(settings)) + " servers x " +
                              std::to_string(trace.keys.size()) + " keys is over " +
                              std::to_string(kMostStates));
    for (const FleetMode mode : settings.modes) {
        if (mode != FleetMode::central_racy && mode != FleetMode::periodic_sync)
            continue;
        const std::string name(mode_name(mode));
        const auto copy = probe->clone();
        if (!copy->charge(0, 0, 1) || !copy->adopt(0, *probe))
            throw SimulationError(name + " merges charges decided elsewhere, which " +
                                  lane.algorithm + " cannot");
        if (params.rejections_count)
            throw SimulationError(name +
                                  " merges accepted charges only: it runs without "
                                  "rejections_count");
    }
    if (std::find(settings.modes.begin(), settings.modes.end(), FleetMode::local_share) !=
            settings.modes.end() ||
        (settings.outage && settings.outage->policy == OutagePolicy::fallback_local)) {
        local_share_params(params, lane, most_servers(settings));  // throws when out of bounds
    }
}

}  // namespace

std::shared_ptr<const FleetResult> simulate_fleet(std::shared_ptr<const Trace> trace,
                                                  const Params& params, const Lane& lane,
                                                  const FleetSettings& settings,
                                                  RunControl* control) {
    FleetSettings filled = settings;
    if (filled.modes.empty())
        filled.modes = all_fleet_modes();
    check_runnable(*trace, params, lane, filled);
    auto result = std::make_shared<FleetResult>();
    result->trace = trace;
    result->params = params;
    result->lane = lane;
    result->settings = filled;
    const std::size_t n = trace->requests.size();
    const KeyGroups groups(*trace);
    {
        const auto single = make_limiter(*trace, params, lane);
        result->ideal.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (i % detail::kStretch == detail::kStretch - 1)
                detail::report_stretch(control, detail::kStretch);
            const Request& r = trace->requests[i];
            result->ideal[i] =
                single->decide(r.key, r.tick, r.cost, trace->duration(i)).accepted ? 1 : 0;
            result->ideal_accepted += result->ideal[i];
        }
        result->ideal_worst = worst_of(key_bursts(*trace, params, groups, result->ideal), params);
    }
    detail::FleetPlan plan = make_plan(*trace, result->params, result->lane, result->settings);
    plan.control = control;
    const auto servers = static_cast<std::size_t>(most_servers(filled));
    for (const FleetMode mode : filled.modes) {
        detail::ModeDecisions decided = detail::run_fleet_mode(plan, mode, std::nullopt);
        FleetModeResult out;
        out.mode = mode;
        out.servers = mode == FleetMode::key_routed ? plan.hashed : plan.routed;
        out.load.assign(servers, ServerLoad{});
        for (std::size_t i = 0; i < n; ++i) {
            const Request& r = trace->requests[i];
            const bool accepted = decided.accepted[i] != 0;
            ServerLoad& load = out.load[out.servers[i]];
            ++load.requests;
            if (accepted) {
                ++out.totals.accepted;
                out.totals.accepted_cost += r.cost;
                ++load.accepted;
                load.accepted_cost += r.cost;
            } else {
                ++out.totals.rejected;
                out.totals.rejected_cost += r.cost;
            }
            out.extra_accepted += accepted && result->ideal[i] == 0;
            out.extra_rejected += !accepted && result->ideal[i] != 0;
        }
        out.keys = key_bursts(*trace, params, groups, decided.accepted);
        out.worst = worst_of(out.keys, params);
        const bool waits = mode == FleetMode::central || mode == FleetMode::central_racy;
        out.store_wait = waits ? filled.store_latency : 0;
        out.store_round_trips = waits ? decided.store_round_trips : 0;
        out.during_outage = decided.during_outage;
        out.accepted = std::move(decided.accepted);
        result->modes.push_back(std::move(out));
    }
    return result;
}

std::string explain_fleet(const FleetResult& result, std::size_t mode, std::size_t index) {
    const detail::FleetPlan plan =
        make_plan(*result.trace, result.params, result.lane, result.settings);
    return detail::run_fleet_mode(plan, result.modes.at(mode).mode, index).why;
}

}  // namespace ratelab
