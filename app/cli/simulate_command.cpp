// ratelab-cli simulate: runs the algorithms over a trace file and prints the JSON report.
#include <algorithm>
#include <memory>

#include "cli_support.h"
#include "ratelab/clients.h"
#include "ratelab/eviction.h"
#include "ratelab/io/decisions_csv.h"
#include "ratelab/io/report.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/key_figures.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab::cli {

namespace {

/// What was made for the lane asked for last, made again when another lane is asked for.
template <class T>
class OneLane {
public:
    template <class Make>
    const T& get(std::size_t lane, Make make) {
        if (lane_ != lane) {
            value_ = T{};  // the old lane goes before the new one is made
            value_ = make();
            lane_ = lane;
        }
        return value_;
    }

private:
    std::size_t lane_ = static_cast<std::size_t>(-1);
    T value_{};
};

ClientPolicy policy_of(const std::string& option, const std::string& text) {
    auto parsed = parse_client_policy(text);
    if (const auto* error = std::get_if<std::string>(&parsed))
        throw UsageError(option + ": " + *error);
    return std::get<ClientPolicy>(parsed);
}

/// --client POLICY for every key, and --tier-client KEY=POLICY (repeatable) for a key of the
/// trace that answers otherwise; the others keep --client's, give_up without it.
std::optional<ClientPolicies> client_option(const Arguments& args, const Trace& trace) {
    const auto text = args.get("client");
    const std::vector<std::string> tiers = args.all("tier-client");
    if (!text && tiers.empty())
        return std::nullopt;
    ClientPolicies policies;
    if (text)
        policies.base = policy_of("--client", *text);
    for (const std::string& spec : tiers) {
        const std::size_t split = spec.find('=');
        if (split == std::string::npos || split == 0)
            throw UsageError("--tier-client: say KEY=POLICY, as in pro=retry_after, not \"" + spec +
                             "\"");
        const std::string key = spec.substr(0, split);
        if (std::find(trace.keys.begin(), trace.keys.end(), key) == trace.keys.end())
            throw UsageError("--tier-client: the trace has no key \"" + key + "\"");
        const ClientPolicy policy = policy_of("--tier-client " + key, spec.substr(split + 1));
        if (!policies.keys.emplace(key, policy).second)
            throw UsageError("--tier-client: key \"" + key + "\" is given twice");
    }
    return policies;
}

std::optional<Eviction> eviction_option(const Arguments& args) {
    const auto text = args.get("evict");
    if (!text)
        return std::nullopt;
    auto parsed = parse_eviction(*text);
    if (const auto* error = std::get_if<std::string>(&parsed))
        throw UsageError("--evict: " + *error);
    return std::get<Eviction>(parsed);
}

HeaderStyle header_style_option(const Arguments& args) {
    const auto style = args.get("header-style");
    if (!style)
        return HeaderStyle::ietf;
    if (!args.has("headers"))
        throw UsageError("--header-style says which headers --headers writes: give --headers too");
    if (*style == "ietf")
        return HeaderStyle::ietf;
    if (*style == "x-ratelimit")
        return HeaderStyle::x_ratelimit;
    if (*style == "both")
        return HeaderStyle::both;
    throw UsageError("--header-style must be ietf, x-ratelimit or both, not \"" + *style + "\"");
}

int run_simulate(const Arguments& args, CommandIo& io) {
    io::TraceDocument doc = io::load_trace(args.positionals[0]);
    for (const std::string& warning : doc.warnings) {
        io.err << "ratelab-cli simulate: " << io::terminal_safe(args.positionals[0]) << ": "
               << io::terminal_safe(warning) << "\n";
    }
    if (auto limit = args.integer("limit", 1, bounds::kMaxLimit)) {
        doc.params.base.limit = *limit;
    }
    if (auto window = args.integer("window", 1, bounds::kMaxWindow)) {
        doc.params.base.window = *window;
    }
    apply_lane_options(args, doc.params);
    set_tick_ms(doc.params, doc.tick_ms);
    const auto trace = std::make_shared<const Trace>(std::move(doc.trace));
    io::ReportOptions options;
    options.summary = args.has("summary");
    RunOptions run;
    // A summary needs no per-request columns, but each key's figures, judged against its own
    // tier, are counted from them when the trace has several keys.
    const std::optional<Eviction> eviction = eviction_option(args);
    // Eviction is compared decision by decision with keeping every key.
    run.keep_decisions =
        !options.summary || eviction || key_figures_need_decisions(*trace, doc.params);
    const std::string format = args.get("format").value_or("json");
    if (format != "json" && format != "ndjson" && format != "csv") {
        throw UsageError("--format must be json, ndjson or csv, not \"" + format + "\"");
    }
    if (format == "csv" && options.summary) {
        throw UsageError("--format csv lists the decisions, so it takes no --summary");
    }
    const std::optional<ClientPolicies> clients = client_option(args, *trace);
    const bool headers = args.has("headers");
    options.header_style = header_style_option(args);
    if (headers && options.summary) {
        throw UsageError("--headers gives each decision its response, so it takes no --summary");
    }
    if (format == "csv" && eviction) {
        throw UsageError(
            "--format csv lists one row per request and lane, so it takes no --evict: use "
            "json or ndjson for the eviction figures");
    }
    if (format == "csv" && clients) {
        throw UsageError(
            "--format csv lists one row per request and lane, so it takes no "
            "--client: use json or ndjson for the attempts");
    }
    const auto result = simulate(trace, doc.params, {}, run);
    // The report asks lane by lane: each lane's responses and attempts are made when asked
    // and the lane before is forgotten, so that one lane's worth sits in memory.
    OneLane<std::vector<Response>> lane_answers;
    OneLane<ClientRun> lane_clients;
    if (headers && format != "csv") {
        options.responses = [&](std::size_t lane) -> const std::vector<Response>& {
            return lane_answers.get(lane, [&] { return lane_responses(*result, lane); });
        };
    }
    if (clients) {
        options.clients = [&](std::size_t lane) -> const ClientRun& {
            return lane_clients.get(lane, [&] {
                return run_clients(*trace, doc.params, result->lanes[lane], *clients,
                                   ClientOptions{headers});
            });
        };
    }
    // A CSV row holds every lane's response to one request: all lanes are made at once.
    std::vector<std::vector<Response>> responses;
    if (headers && format == "csv") {
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane)
            responses.push_back(lane_responses(*result, lane));
    }
    std::optional<EvictionResult> evicted;
    if (eviction) {
        evicted = simulate_eviction(*result, *eviction);
        options.eviction = &*evicted;
    }
    // Streamed as it is written: a full report of a million requests never sits in memory.
    write_output(args, io, [&](std::ostream& out) {
        if (format == "ndjson") {
            io::write_report_ndjson(out, *result, options);
        } else if (format == "csv") {
            io::write_decisions_csv(out, *result, headers ? &responses : nullptr,
                                    options.header_style);
        } else {
            io::write_report(out, *result, options);
        }
    });
    return kExitOk;
}

}  // namespace

Command make_simulate_command() {
    return {
        "simulate",
        "run the algorithms over a trace and print a JSON report",
        "simulate TRACE.json [options]",
        "The report lists, per lane (the trace's lanes, or those given with --lane), its\n"
        "label and resolved parameters, the accepted and rejected counts and costs, the\n"
        "worst W-tick burst and every decision (times in ticks; \"retry_after\": \"never\"\n"
        "when a request can never pass). With --client, each request is an intent that\n"
        "the client tries again as POLICY says: give_up, immediate, fixed:delay=D,\n"
        "backoff:base=B,factor=F,cap=C,jitter=none|full|equal,seed=S,\n"
        "retry_after:spread=J,seed=S or paced, each with max_attempts=N (default 5) and\n"
        "deadline=T; each lane then lists its \"attempts\" and \"intents\". With\n"
        "--headers, each decision and attempt gets the HTTP \"response\" the lane would\n"
        "send (status, Retry-After, RateLimit-Policy, RateLimit). With --evict, each\n"
        "lane is decided again with idle keys dropped (idle=T: T ticks after a key's last\n"
        "request; lru=M: all but the M most recently used) and its \"eviction\" compares\n"
        "the two. See README.md, \"Command line\", \"Idle keys\" and \"Clients that\n"
        "retry, and the responses they get\".",
        with_lane_options({{"limit", "L", "override the trace's limit L"},
                           {"window", "W", "override the trace's window W (ticks)"},
                           {"summary", "", "totals and worst bursts only, without the decisions"},
                           {"format", "FORMAT",
                            "json (default), ndjson (one line per lane, then per decision) or "
                            "csv (one row per request and lane)"},
                           {"client", "POLICY[:NAME=VALUE,...]",
                            "clients retry rejected requests as POLICY says, e.g. "
                            "backoff:base=2,jitter=full,seed=7"},
                           {"tier-client", "KEY=POLICY",
                            "the clients of one key retry as POLICY instead (repeatable), "
                            "e.g. pro=retry_after"},
                           {"headers", "",
                            "give each decision (and attempt) the HTTP response: status, "
                            "Retry-After and RateLimit header fields"},
                           {"evict", "POLICY",
                            "drop idle keys' state: keep (default), idle=T (ticks) or lru=M "
                            "(keys), and report what it changes"},
                           {"header-style", "STYLE",
                            "with --headers: ietf (default, RateLimit-Policy and RateLimit), "
                            "x-ratelimit (X-RateLimit-*) or both"},
                           output_option("the report")}),
        1,
        1,
        false,
        run_simulate};
}

}  // namespace ratelab::cli
