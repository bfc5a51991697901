#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "ratelab/clients.h"
#include "ratelab/eviction.h"
#include "ratelab/rational.h"
#include "ratelab/responses.h"
#include "ratelab/simulation.h"

namespace ratelab::io {

/// The JSON report keeps its keys in the documented order, hence ordered_json.
using Report = nlohmann::ordered_json;

/// A lane's worth of `--headers` or `--client` output, made when a report asks for it. Reports
/// ask lane by lane, in order (the NDJSON layout goes over the lanes twice), and use what they
/// were given only until they ask for another lane: a source may keep just the lane asked for
/// last, so that one lane's attempts and responses sit in memory, not every lane's.
using LaneResponses = std::function<const std::vector<Response>&(std::size_t lane)>;
using LaneClients = std::function<const ClientRun&(std::size_t lane)>;

struct ReportOptions {
    /// Totals and worst bursts only, without the per-decision lists (`--summary`).
    bool summary = false;
    /// `--headers`: one response per request of the lane (lane_responses()), given to each
    /// decision as "response"; and to each attempt, from `clients`. Empty for none.
    LaneResponses responses;
    HeaderStyle header_style = HeaderStyle::ietf;
    /// `--client`: the lane's attempts (run_clients(), with responses when `responses` is
    /// set), listed as the lane's "attempts" after its decisions, and its "intents" figures.
    LaneClients clients;
    /// `--evict`: the lanes decided again with idle keys dropped (simulate_eviction()), given to
    /// each lane as "eviction" after its figures. Null for none.
    const EvictionResult* eviction = nullptr;
};

/// The simulation report documented in the README:
/// {"limit", "window", "algorithms": [{"id", "label", "params", "accepted", "rejected",
/// "accepted_cost", "rejected_cost", "worst_burst": {"cost", "start"}, "max_delay" (shapers),
/// "over_limit", "worst_key", "keys": [...], "decisions": [...]}]}. "keys" holds each key's
/// figures against its own tier (ratelab/key_figures.h), one line per key; it and the two
/// before it are left out when the run kept no decisions over several keys. Each
/// decision has "index", "tick", "cost", "key", "accepted", then "retry_after" for a rejection (a
/// number of ticks, or "never") and "release" and "delay" for a leaky_bucket acceptance. Decisions
/// are left out when `options.summary` is set or the run kept none. With `options.responses`
/// each decision ends with "response"; with `options.clients` each lane has "intents" after its
/// figures and "attempts" after its decisions; with `options.eviction` each lane has "eviction"
/// after its figures (see ReportOptions).
Report make_report(const SimulationResult& result, const ReportOptions& options = {});

/// Writes format_json(make_report(result, options)), byte for byte, while it is made: no JSON
/// value of the whole report is built, so a report of millions of decisions needs memory for
/// a buffer, not for the document.
void write_report(std::ostream& out, const SimulationResult& result,
                  const ReportOptions& options = {});
/// The report as newline-delimited JSON: first one line per lane, {"type": "lane", "lane": i,
/// and the report entry's fields without its decisions}, then one line per decision,
/// {"type": "decision", "lane": i, and the report's decision fields}, lane after lane.
void write_report_ndjson(std::ostream& out, const SimulationResult& result,
                         const ReportOptions& options = {});

/// A time in ticks as a JSON number: an integer when whole, else the nearest double.
nlohmann::ordered_json time_to_json(const Rational& ticks);

/// Pretty text for a report or any JSON value: nested structure on separate lines, while
/// objects of plain values (a decision, a burst) stay on one line each, so a report of many
/// decisions reads and diffs one decision per line. Ends with a newline.
std::string format_json(const nlohmann::ordered_json& value);

}  // namespace ratelab::io
