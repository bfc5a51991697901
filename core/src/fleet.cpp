// simulate_fleet(): the settings, the routing every mode shares, the local shares, and the
// figures counted from a mode's decisions. The modes themselves are in fleet_modes.cpp.
#include "ratelab/fleet.h"

#include <algorithm>
#include <array>

#include "fleet_engine.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab {

namespace {

constexpr std::array<std::pair<FleetMode, std::string_view>, 5> kModes{{
    {FleetMode::central, "central"},
    {FleetMode::central_racy, "central_racy"},
    {FleetMode::local_share, "local_share"},
    {FleetMode::periodic_sync, "periodic_sync"},
    {FleetMode::key_routed, "key_routed"},
}};
constexpr std::array<std::pair<Balancer, std::string_view>, 3> kBalancers{{
    {Balancer::round_robin, "round_robin"},
    {Balancer::random, "random"},
    {Balancer::key_hash, "key_hash"},
}};
constexpr std::array<std::pair<OutagePolicy, std::string_view>, 3> kPolicies{{
    {OutagePolicy::fail_open, "fail_open"},
    {OutagePolicy::fail_closed, "fail_closed"},
    {OutagePolicy::fallback_local, "fallback_local"},
}};

template <class T, std::size_t N>
std::string_view name_in(const std::array<std::pair<T, std::string_view>, N>& table, T value) {
    for (const auto& [v, name] : table) {
        if (v == value)
            return name;
    }
    return {};
}

template <class T, std::size_t N>
std::optional<T> parse_in(const std::array<std::pair<T, std::string_view>, N>& table,
                          std::string_view text) {
    for (const auto& [v, name] : table) {
        if (name == text)
            return v;
    }
    return std::nullopt;
}

/// SplitMix64's finaliser: a well mixed 64-bit value from any 64-bit input, the same on every
/// platform (std::hash and the standard distributions are not).
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t hash_key(std::string_view key) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed
    for (const char c : key) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return mix(h);
}

__extension__ using UInt128 = unsigned __int128;

/// A number in [0, n) from a 64-bit draw, by multiplying rather than by a modulo.
int scaled(std::uint64_t draw, int n) {
    return static_cast<int>((static_cast<UInt128>(draw) * static_cast<unsigned>(n)) >> 64);
}

bool is_amount(ParamUnit unit) {
    return unit == ParamUnit::tokens || unit == ParamUnit::cost_units || unit == ParamUnit::none;
}
bool is_rate(ParamUnit unit) {
    return unit == ParamUnit::per_tick || unit == ParamUnit::per_second;
}

/// One value's share on `servers` servers (see local_share_params()).
ParamValue shared_value(const ParameterInfo& info, const ParamValue& value, int servers) {
    const auto* number = std::get_if<Rational>(&value);
    if (number == nullptr)
        return value;
    if (info.kind == ParamKind::whole) {
        if (is_amount(info.unit) || is_rate(info.unit))
            return Rational(std::max<std::int64_t>(1, number->floor() / servers));
        return value;
    }
    if (is_amount(info.unit) || is_rate(info.unit))
        return *number / Rational(servers);
    if (info.unit == ParamUnit::ticks_per_unit)
        return *number * Rational(servers);
    return value;
}

/// The routing of every request: the balancer's server, the key's server by hashing, and N.
detail::FleetPlan make_plan(const Trace& trace, const Params& params, const Lane& lane,
                            const FleetSettings& settings) {
    detail::FleetPlan plan{trace, params, lane, settings, {}, {}, {}};
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
                server = scaled(mix(settings.seed ^ mix(i)), servers);
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

std::string_view mode_name(FleetMode mode) {
    return name_in(kModes, mode);
}
std::string_view balancer_name(Balancer balancer) {
    return name_in(kBalancers, balancer);
}
std::string_view outage_policy_name(OutagePolicy policy) {
    return name_in(kPolicies, policy);
}
std::optional<FleetMode> parse_fleet_mode(std::string_view name) {
    return parse_in(kModes, name);
}
std::optional<Balancer> parse_balancer(std::string_view name) {
    return parse_in(kBalancers, name);
}
std::optional<OutagePolicy> parse_outage_policy(std::string_view name) {
    return parse_in(kPolicies, name);
}
std::vector<FleetMode> all_fleet_modes() {
    std::vector<FleetMode> out;
    for (const auto& [mode, name] : kModes)
        out.push_back(mode);
    return out;
}

std::vector<std::string> validate(const FleetSettings& settings) {
    std::vector<std::string> problems;
    const auto servers_ok = [](int n) { return n >= 1 && n <= kMaxFleetServers; };
    const std::string range = "between 1 and " + std::to_string(kMaxFleetServers);
    if (!servers_ok(settings.servers))
        problems.push_back("servers must be " + range + ", not " +
                           std::to_string(settings.servers));
    if (settings.store_latency < 0 || settings.store_latency > bounds::kMaxWindow)
        problems.push_back("store_latency must be between 0 and " +
                           std::to_string(bounds::kMaxWindow) + " ticks");
    if (settings.sync_every < 1 || settings.sync_every > bounds::kMaxWindow)
        problems.push_back("sync_every must be between 1 and " +
                           std::to_string(bounds::kMaxWindow) + " ticks");
    if (settings.outage &&
        (settings.outage->start < 0 || settings.outage->end <= settings.outage->start))
        problems.push_back("the outage A:B must have 0 <= A < B, not " +
                           std::to_string(settings.outage->start) + ":" +
                           std::to_string(settings.outage->end));
    for (std::size_t e = 0; e < settings.scale.size(); ++e) {
        const ScaleEvent& event = settings.scale[e];
        const std::string which = "scale event " + std::to_string(e + 1);
        if (!servers_ok(event.servers))
            problems.push_back(which + ": servers must be " + range + ", not " +
                               std::to_string(event.servers));
        if (event.tick < 0 || (e > 0 && event.tick <= settings.scale[e - 1].tick))
            problems.push_back(which + ": ticks must be >= 0 and increasing");
    }
    for (std::size_t m = 0; m < settings.modes.size(); ++m) {
        if (std::find(settings.modes.begin(),
                      settings.modes.begin() + static_cast<std::ptrdiff_t>(m),
                      settings.modes[m]) != settings.modes.begin() + static_cast<std::ptrdiff_t>(m))
            problems.push_back("mode " + std::string(mode_name(settings.modes[m])) +
                               " is given twice");
    }
    return problems;
}

HashRing::HashRing(int servers) : servers_(servers) {
    constexpr int kPointsPerServer = 64;
    points_.reserve(static_cast<std::size_t>(servers) * kPointsPerServer);
    for (int s = 0; s < servers; ++s) {
        for (int v = 0; v < kPointsPerServer; ++v)
            points_.emplace_back(
                mix((static_cast<std::uint64_t>(s) << 32) | static_cast<std::uint64_t>(v)), s);
    }
    std::sort(points_.begin(), points_.end());
}

int HashRing::server_of(std::string_view key) const {
    const std::uint64_t h = hash_key(key);
    const auto at =
        std::lower_bound(points_.begin(), points_.end(), std::pair<std::uint64_t, int>(h, 0));
    return at == points_.end() ? points_.front().second : at->second;
}

Params local_share_params(const Params& params, const Lane& lane, int servers) {
    const AlgorithmInfo* info = Registry::instance().find(lane.algorithm);
    if (info == nullptr)
        throw SimulationError("unknown algorithm \"" + lane.algorithm + "\"");
    Params out = params_for_lane(params, lane);
    out.lanes = {Lane{lane.algorithm, {}, lane.label, false}};
    const auto share = [&](Limits& limits) {
        // Resolved first: the declared defaults follow from the undivided L.
        const ParamValues values = resolved_params(*info, limits);
        limits.limit = std::max<std::int64_t>(1, limits.limit / servers);
        for (const ParameterInfo& parameter : info->parameters) {
            const ParamValue value = shared_value(parameter, values.at(parameter.id), servers);
            if (const auto problem = check_value(parameter, value))
                throw SimulationError("the share of " + parameter.id + " on " +
                                      std::to_string(servers) + " servers: " + *problem);
            limits.set_override(info->id, parameter.id, value);
        }
    };
    share(out.base);
    for (auto& [key, limits] : out.keys)
        share(limits);
    return out;
}

std::shared_ptr<const FleetResult> simulate_fleet(std::shared_ptr<const Trace> trace,
                                                  const Params& params, const Lane& lane,
                                                  const FleetSettings& settings) {
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
            const Request& r = trace->requests[i];
            result->ideal[i] = single->decide(r.key, r.tick, r.cost).accepted ? 1 : 0;
            result->ideal_accepted += result->ideal[i];
        }
        result->ideal_worst = worst_of(key_bursts(*trace, params, groups, result->ideal), params);
    }
    const detail::FleetPlan plan =
        make_plan(*trace, result->params, result->lane, result->settings);
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
