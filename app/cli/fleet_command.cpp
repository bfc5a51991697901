// ratelab-cli fleet: one lane enforced by N servers in each placement mode, as JSON.
#include <charconv>
#include <memory>

#include "cli_support.h"
#include "ratelab/fleet.h"
#include "ratelab/io/fleet_file.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/report.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"

namespace ratelab::cli {

namespace {

using Json = nlohmann::ordered_json;

std::optional<std::int64_t> whole(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

/// "A:B" as two whole numbers, or a UsageError naming `option`.
std::pair<std::int64_t, std::int64_t> pair_of(const std::string& option, const std::string& text,
                                              const std::string& form) {
    const auto colon = text.find(':');
    const auto a = colon == std::string::npos ? std::nullopt : whole(text.substr(0, colon));
    const auto b = colon == std::string::npos ? std::nullopt : whole(text.substr(colon + 1));
    if (!a || !b)
        throw UsageError("--" + option + " takes " + form + " (two whole numbers), not \"" + text +
                         "\"");
    return {*a, *b};
}

/// `settings` (the trace file's, or the defaults) with the options given on top.
FleetSettings settings_from(const Arguments& args, FleetSettings settings) {
    if (const auto servers = args.integer("servers", 1, kMaxFleetServers))
        settings.servers = static_cast<int>(*servers);
    if (const auto name = args.get("balancer")) {
        const auto balancer = parse_balancer(*name);
        if (!balancer)
            throw UsageError("--balancer must be round_robin, random or key_hash, not \"" + *name +
                             "\"");
        settings.balancer = *balancer;
    }
    if (const auto list = args.get("mode")) {
        settings.modes.clear();
        for (const std::string& name : split_list(*list)) {
            const auto mode = parse_fleet_mode(name);
            if (!mode)
                throw UsageError("--mode: unknown mode \"" + name +
                                 "\" (central, central_racy, local_share, periodic_sync, "
                                 "key_routed)");
            if (std::find(settings.modes.begin(), settings.modes.end(), *mode) !=
                settings.modes.end())
                throw UsageError("--mode: " + name + " is given twice");
            settings.modes.push_back(*mode);
        }
        if (settings.modes.empty())
            throw UsageError("--mode needs at least one mode");
    }
    settings.store_latency =
        args.integer("store-latency", 0, bounds::kMaxWindow).value_or(settings.store_latency);
    settings.sync_every =
        args.integer("sync-every", 1, bounds::kMaxWindow).value_or(settings.sync_every);
    if (args.has("lost-updates"))
        settings.lost_updates = true;
    if (const auto outage = args.get("outage")) {
        const auto [start, end] = pair_of("outage", *outage, "A:B");
        if (start < 0 || end <= start)
            throw UsageError("--outage A:B needs 0 <= A < B, not \"" + *outage + "\"");
        Outage out{start, end, OutagePolicy::fail_open};
        const std::string name = args.get("on-outage").value_or("fail_open");
        const auto policy = parse_outage_policy(name);
        if (!policy)
            throw UsageError(
                "--on-outage must be fail_open, fail_closed or fallback_local, not \"" + name +
                "\"");
        out.policy = *policy;
        settings.outage = out;
    } else if (const auto name = args.get("on-outage")) {
        if (!settings.outage)
            throw UsageError(
                "--on-outage says what to do during an --outage A:B, which is not given");
        const auto policy = parse_outage_policy(*name);
        if (!policy)
            throw UsageError(
                "--on-outage must be fail_open, fail_closed or fallback_local, not \"" + *name +
                "\"");
        settings.outage->policy = *policy;
    }
    if (args.has("scale"))
        settings.scale.clear();  // the events given replace the file's
    for (const std::string& event : args.all("scale")) {
        const auto [tick, servers] = pair_of("scale", event, "TICK:N");
        if (servers < 1 || servers > kMaxFleetServers)
            throw UsageError("--scale " + event + ": N must be between 1 and " +
                             std::to_string(kMaxFleetServers));
        if (tick < 0 || (!settings.scale.empty() && tick <= settings.scale.back().tick))
            throw UsageError("--scale " + event +
                             ": ticks must be >= 0 and increase from one event to the next");
        settings.scale.push_back(ScaleEvent{tick, static_cast<int>(servers)});
    }
    if (const auto seed = args.get("seed")) {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(seed->data(), seed->data() + seed->size(), value);
        if (seed->empty() || error != std::errc() || end != seed->data() + seed->size())
            throw UsageError("--seed must be a whole number from 0 to 2^64 - 1, not \"" + *seed +
                             "\"");
        settings.seed = value;
    }
    return settings;
}

Lane lane_from(const Arguments& args, const Params& params, const std::optional<Lane>& saved) {
    const std::vector<std::string> specs = args.all("lane");
    if (specs.size() > 1)
        throw UsageError("--lane: a fleet runs one lane, not " + std::to_string(specs.size()));
    if (specs.empty())
        return saved ? *saved : lanes_of(params).front();
    try {
        return io::parse_lane_spec(specs.front());
    } catch (const io::LaneSpecError& error) {
        throw UsageError("--lane " + specs.front() + ": " + error.what());
    }
}

Json burst_json(const Trace& trace, const KeyBurst& worst) {
    return {{"cost", worst.burst.cost},
            {"start", io::time_to_json(worst.burst.start)},
            {"key", trace.key_name(worst.key)}};
}

Json settings_json(const FleetResult& result) {
    Json out;
    out["servers"] = result.settings.servers;
    out["balancer"] = balancer_name(result.settings.balancer);
    out["lane"] = io::lane_spec(result.lane);
    out["limit"] = result.params.base.limit;
    out["window"] = result.params.base.window;
    out["store_latency"] = result.settings.store_latency;
    out["sync_every"] = result.settings.sync_every;
    out["lost_updates"] = result.settings.lost_updates;
    if (const auto& outage = result.settings.outage) {
        out["outage"] = {{"start", outage->start},
                         {"end", outage->end},
                         {"on_outage", outage_policy_name(outage->policy)}};
    }
    Json scale = Json::array();
    for (const ScaleEvent& event : result.settings.scale)
        scale.push_back({{"tick", event.tick}, {"servers", event.servers}});
    out["scale"] = std::move(scale);
    if (result.settings.balancer == Balancer::random)
        out["seed"] = result.settings.seed;
    out["ideal"] = {{"accepted", result.ideal_accepted},
                    {"worst_burst", burst_json(*result.trace, result.ideal_worst)},
                    {"overshoot", result.ideal_worst.overshoot().to_double()}};
    return out;
}

Json mode_json(const FleetResult& result, const FleetModeResult& mode) {
    Json out;
    out["mode"] = mode_name(mode.mode);
    out["accepted"] = mode.totals.accepted;
    out["rejected"] = mode.totals.rejected;
    out["accepted_cost"] = mode.totals.accepted_cost;
    out["rejected_cost"] = mode.totals.rejected_cost;
    out["worst_burst"] = burst_json(*result.trace, mode.worst);
    // A ratio for reading; the exact figures are the burst's cost and the key's limit.
    out["overshoot"] = mode.worst.overshoot().to_double();
    out["limit"] = mode.worst.limit;
    out["extra_accepted"] = mode.extra_accepted;
    out["extra_rejected"] = mode.extra_rejected;
    out["store_wait"] = mode.store_wait;
    out["store_round_trips"] = mode.store_round_trips;
    out["during_outage"] = mode.during_outage;
    Json load = Json::array();
    for (std::size_t s = 0; s < mode.load.size(); ++s) {
        load.push_back({{"server", s},
                        {"requests", mode.load[s].requests},
                        {"accepted", mode.load[s].accepted}});
    }
    out["load"] = std::move(load);
    return out;
}

/// The report, with the decisions written by hand: a million of them as JSON values would
/// cost far more than the run.
void write_fleet(std::ostream& stream, const FleetResult& result, bool summary) {
    Json head = settings_json(result);
    head["modes"] = Json::array();
    std::string text = io::format_json(head);
    // format_json ends with "[]\n}": the modes go between the brackets.
    const auto close = text.rfind("[]");
    std::string out = text.substr(0, close) + "[";
    for (std::size_t m = 0; m < result.modes.size(); ++m) {
        const FleetModeResult& mode = result.modes[m];
        Json entry = mode_json(result, mode);
        std::string body = io::format_json(entry);
        body.resize(body.rfind('}'));  // its closing brace comes after the decisions
        while (!body.empty() && body.back() == '\n')
            body.pop_back();
        // Indent the mode's members by one more level, as an element of "modes".
        std::string indented = "\n    ";
        for (const char c : body) {
            indented += c;
            if (c == '\n')
                indented += "    ";
        }
        out += (m == 0 ? "" : ",") + indented;
        if (!summary) {
            out += ",\n      \"decisions\": [";
            for (std::size_t i = 0; i < mode.accepted.size(); ++i) {
                out += i == 0 ? "\n        " : ",\n        ";
                out += "{\"index\": " + std::to_string(i) +
                       ", \"server\": " + std::to_string(mode.servers[i]) +
                       (mode.is_accepted(i) ? ", \"accepted\": true}" : ", \"accepted\": false}");
                if (out.size() >= (1 << 16)) {
                    stream.write(out.data(), static_cast<std::streamsize>(out.size()));
                    out.clear();
                }
            }
            out += mode.accepted.empty() ? "]" : "\n      ]";
        }
        out += "\n    }";
    }
    out += "\n  ]" + text.substr(close + 2);
    stream.write(out.data(), static_cast<std::streamsize>(out.size()));
}

int run_fleet(const Arguments& args, CommandIo& io) {
    io::TraceDocument doc = io::load_trace(args.positionals[0]);
    const auto saved = io::fleet_settings(doc, args.positionals[0]);
    if (!saved && !args.has("servers"))
        throw UsageError("--servers N is required (1 to " + std::to_string(kMaxFleetServers) +
                         ") when the trace file has no \"fleet\" settings");
    const FleetSettings settings = settings_from(args, saved ? saved->settings : FleetSettings{});
    for (const std::string& warning : doc.warnings) {
        io.err << "ratelab-cli fleet: " << io::terminal_safe(args.positionals[0]) << ": "
               << io::terminal_safe(warning) << "\n";
    }
    set_tick_ms(doc.params, doc.tick_ms);
    const Lane lane = lane_from(args, doc.params, saved ? saved->lane : std::nullopt);
    const auto trace = std::make_shared<const Trace>(std::move(doc.trace));
    const auto result = simulate_fleet(trace, doc.params, lane, settings);
    const bool summary = args.has("summary");
    write_output(args, io, [&](std::ostream& out) { write_fleet(out, *result, summary); });
    return kExitOk;
}

}  // namespace

Command make_fleet_command() {
    return {"fleet",
            "simulate one lane enforced by N servers in each placement mode",
            "fleet TRACE.json --servers N [options]",
            "Runs one lane (--lane, else the file's fleet lane, else its first lane) on N servers "
            "behind a\n"
            "balancer, once per placement mode: central (one atomic store), central_racy\n"
            "(check then act, charges landing store-latency ticks later), local_share (each\n"
            "server alone with 1/N of the limit), periodic_sync (local counts synced every\n"
            "sync-every ticks) and key_routed (each key on one server). Per mode it prints the\n"
            "totals, the worst burst against the key's limit (the overshoot), the decisions\n"
            "that differ from one limiter over the whole trace, the load per server and every\n"
            "decision with its server. The trace file's \"fleet\" object, when it has one,\n"
            "gives the settings; the options change them. See README.md, \"Fleets\".",
            {{"servers", "N",
              "servers at tick 0, 1 to 1000 (required unless the trace file has \"fleet\" "
              "settings)"},
             {"lane", "SPEC", "the lane the fleet runs: ID[:NAME=VALUE,...]"},
             {"balancer", "NAME", "round_robin (default), random (seeded) or key_hash"},
             {"mode", "MODE,...",
              "modes to run, in this order (default all five): central, central_racy, "
              "local_share, periodic_sync, key_routed"},
             {"store-latency", "T", "ticks of a store round trip (default 0)"},
             {"sync-every", "T", "periodic_sync: ticks between sync points (default 1)"},
             {"lost-updates", "",
              "central_racy: each write replaces the key's state with what its server read "
              "plus its own charge (the last to land wins)"},
             {"outage", "A:B", "the store is down for ticks A to B, B excluded"},
             {"on-outage", "POLICY", "fail_open (default), fail_closed or fallback_local"},
             {"scale", "TICK:N", "from TICK on there are N servers (repeatable)"},
             {"seed", "S", "seed of the random balancer (default 0)"},
             {"summary", "", "the figures only, without the decisions"},
             output_option("the report")},
            1,
            1,
            false,
            run_fleet};
}

}  // namespace ratelab::cli
