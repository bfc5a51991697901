// The fleet's settings: names, checks, the hash ring, and each server's local share.
#include <algorithm>
#include <array>

#include "fleet_engine.h"
#include "ratelab/fleet.h"
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

std::uint64_t hash_key(std::string_view key) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed
    for (const char c : key) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return detail::mix64(h);
}

bool is_amount(ParamUnit unit) {
    return unit == ParamUnit::tokens || unit == ParamUnit::cost_units ||
           unit == ParamUnit::requests || unit == ParamUnit::none;
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
        // 0 stays 0 (nginx's burst): shared out, nothing is still nothing.
        if ((is_amount(info.unit) || is_rate(info.unit)) && number->num() != 0)
            return Rational(std::max<std::int64_t>(1, number->floor() / servers));
        return value;
    }
    if (is_amount(info.unit) || is_rate(info.unit))
        return *number / Rational(servers);
    if (info.unit == ParamUnit::ticks_per_unit)
        return *number * Rational(servers);
    return value;
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
            points_.emplace_back(detail::mix64((static_cast<std::uint64_t>(s) << 32) |
                                               static_cast<std::uint64_t>(v)),
                                 s);
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

}  // namespace ratelab
