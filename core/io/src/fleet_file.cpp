// A trace file's "fleet" object: read with each problem located at its JSON path.
#include "ratelab/io/fleet_file.h"

#include "fleet_json.h"
#include "params_json.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/limits.h"
#include "trace_problem.h"

namespace ratelab::io {

namespace detail {

namespace {

using Json = nlohmann::ordered_json;

std::string name_at(const Json& value, const std::string& path, const std::string& choices) {
    if (!value.is_string())
        throw TraceProblem{path, "wrong-type", "must be one of " + choices};
    return value.get<std::string>();
}

[[noreturn]] void unknown_value(const std::string& path, const std::string& value,
                                const std::string& choices) {
    throw TraceProblem{path, "unknown-value", quote_text(value) + " is not one of " + choices};
}

Outage read_outage(const Json& value, const std::string& path) {
    if (!value.is_object())
        throw TraceProblem{path, "wrong-type",
                           "\"outage\" must be an object: {\"start\", \"end\", \"on_outage\"}"};
    Outage outage;
    bool has_start = false;
    bool has_end = false;
    for (const auto& [name, member] : value.items()) {
        const std::string at = member_path(path, name);
        if (name == "start") {
            outage.start = read_integer(member, 0, bounds::kMaxTick, "start", at);
            has_start = true;
        } else if (name == "end") {
            outage.end = read_integer(member, 1, bounds::kMaxTick, "end", at);
            has_end = true;
        } else if (name == "on_outage") {
            const std::string choices = "fail_open, fail_closed, fallback_local";
            const std::string text = name_at(member, at, choices);
            const auto policy = parse_outage_policy(text);
            if (!policy)
                unknown_value(at, text, choices);
            outage.policy = *policy;
        } else {
            throw TraceProblem{at, "unknown-field", "an outage has start, end and on_outage"};
        }
    }
    if (!has_start || !has_end)
        throw TraceProblem{path, "missing-field", "an outage needs \"start\" and \"end\""};
    if (outage.end <= outage.start)
        throw TraceProblem{member_path(path, "end"), "empty-outage",
                           "\"end\" must be after \"start\""};
    return outage;
}

std::vector<ScaleEvent> read_scale(const Json& value, const std::string& path) {
    if (!value.is_array())
        throw TraceProblem{path, "wrong-type",
                           "\"scale\" must be an array of {\"tick\", \"servers\"}"};
    std::vector<ScaleEvent> events;
    for (std::size_t e = 0; e < value.size(); ++e) {
        const std::string at = index_path(path, e);
        const Json& event = value[e];
        if (!event.is_object() || !event.contains("tick") || !event.contains("servers") ||
            event.size() != 2)
            throw TraceProblem{at, "wrong-type", "a scale event is {\"tick\", \"servers\"}"};
        ScaleEvent out;
        out.tick =
            read_integer(event["tick"], 0, bounds::kMaxTick, "tick", member_path(at, "tick"));
        out.servers = static_cast<int>(read_integer(event["servers"], 1, kMaxFleetServers,
                                                    "servers", member_path(at, "servers")));
        if (!events.empty() && out.tick <= events.back().tick)
            throw TraceProblem{member_path(at, "tick"), "scale-order",
                               "scale events must be in increasing tick order"};
        events.push_back(out);
    }
    return events;
}

std::vector<FleetMode> read_modes(const Json& value, const std::string& path) {
    const std::string choices = "central, central_racy, local_share, periodic_sync, key_routed";
    if (!value.is_array() || value.empty())
        throw TraceProblem{path, "wrong-type", "\"modes\" must be a non-empty array of " + choices};
    std::vector<FleetMode> modes;
    for (std::size_t m = 0; m < value.size(); ++m) {
        const std::string at = index_path(path, m);
        const std::string text = name_at(value[m], at, choices);
        const auto mode = parse_fleet_mode(text);
        if (!mode)
            unknown_value(at, text, choices);
        if (std::find(modes.begin(), modes.end(), *mode) != modes.end())
            throw TraceProblem{at, "repeated-mode", quote_text(text) + " is listed twice"};
        modes.push_back(*mode);
    }
    return modes;
}

}  // namespace

FleetFile read_fleet(const Json& value, const std::string& path) {
    if (!value.is_object())
        throw TraceProblem{path, "wrong-type", "\"fleet\" must be an object of fleet settings"};
    FleetFile file;
    FleetSettings& settings = file.settings;
    for (const auto& [name, member] : value.items()) {
        const std::string at = member_path(path, name);
        if (name == "lane") {
            if (!member.is_string())
                throw TraceProblem{at, "wrong-type", "\"lane\" is written as for --lane"};
            try {
                file.lane = parse_lane_spec(member.get<std::string>());
            } catch (const LaneSpecError& error) {
                throw TraceProblem{at, "bad-lane", terminal_safe(error.what())};
            }
        } else if (name == "servers") {
            settings.servers =
                static_cast<int>(read_integer(member, 1, kMaxFleetServers, "servers", at));
        } else if (name == "balancer") {
            const std::string choices = "round_robin, random, key_hash";
            const std::string text = name_at(member, at, choices);
            const auto balancer = parse_balancer(text);
            if (!balancer)
                unknown_value(at, text, choices);
            settings.balancer = *balancer;
        } else if (name == "modes") {
            settings.modes = read_modes(member, at);
        } else if (name == "store_latency") {
            settings.store_latency =
                read_integer(member, 0, bounds::kMaxWindow, "store_latency", at);
        } else if (name == "sync_every") {
            settings.sync_every = read_integer(member, 1, bounds::kMaxWindow, "sync_every", at);
        } else if (name == "outage") {
            settings.outage = read_outage(member, at);
        } else if (name == "scale") {
            settings.scale = read_scale(member, at);
        } else if (name == "seed") {
            if (!member.is_number_unsigned())
                throw TraceProblem{at, "wrong-type", "\"seed\" must be a whole number >= 0"};
            settings.seed = member.get<std::uint64_t>();
        } else if (name == "lost_updates") {
            if (!member.is_boolean())
                throw TraceProblem{at, "wrong-type", "\"lost_updates\" must be true or false"};
            settings.lost_updates = member.get<bool>();
        } else {
            throw TraceProblem{at, "unknown-field",
                               "a fleet has lane, servers, balancer, modes, store_latency, "
                               "sync_every, lost_updates, outage, scale and seed"};
        }
    }
    return file;
}

}  // namespace detail

std::optional<FleetFile> fleet_settings(const TraceDocument& doc, const std::string& file) {
    const auto& fields = doc.unknown_fields;
    const auto it = fields.find("fleet");
    if (it == fields.end())
        return std::nullopt;
    try {
        return detail::read_fleet(*it, "$.fleet");
    } catch (const detail::TraceProblem& problem) {
        throw TraceFileError(file, problem.location, problem.rule, problem.detail);
    }
}

nlohmann::ordered_json fleet_json(const FleetFile& fleet) {
    const FleetSettings& settings = fleet.settings;
    nlohmann::ordered_json out;
    if (fleet.lane)
        out["lane"] = lane_spec(*fleet.lane);
    out["servers"] = settings.servers;
    out["balancer"] = balancer_name(settings.balancer);
    if (!settings.modes.empty() && settings.modes != all_fleet_modes()) {
        nlohmann::ordered_json modes = nlohmann::ordered_json::array();
        for (const FleetMode mode : settings.modes)
            modes.push_back(mode_name(mode));
        out["modes"] = std::move(modes);
    }
    out["store_latency"] = settings.store_latency;
    out["sync_every"] = settings.sync_every;
    if (settings.lost_updates)
        out["lost_updates"] = true;
    if (settings.outage) {
        out["outage"] = {{"start", settings.outage->start},
                         {"end", settings.outage->end},
                         {"on_outage", outage_policy_name(settings.outage->policy)}};
    }
    if (!settings.scale.empty()) {
        nlohmann::ordered_json scale = nlohmann::ordered_json::array();
        for (const ScaleEvent& event : settings.scale)
            scale.push_back({{"tick", event.tick}, {"servers", event.servers}});
        out["scale"] = std::move(scale);
    }
    if (settings.balancer == Balancer::random)
        out["seed"] = settings.seed;
    return out;
}

}  // namespace ratelab::io
