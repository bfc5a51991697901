#include "ratelab/io/report.h"

#include <ostream>

#include "client_report.h"
#include "eviction_report.h"
#include "inline_json.h"
#include "params_json.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"

namespace ratelab::io {

using Json = nlohmann::ordered_json;

namespace {

Json decision_json(const Trace& trace, const AlgorithmRun& run, std::size_t index,
                   const ReportOptions& options, std::size_t lane) {
    const Request& request = trace.requests[index];
    const Decision decision = run.decision(trace, index);
    Json out;
    out["index"] = index;
    out["tick"] = request.tick;
    out["cost"] = request.cost;
    out["key"] = trace.key_name(request.key);
    if (const Tick duration = trace.duration(index); duration != 0)
        out["duration"] = duration;
    out["accepted"] = decision.accepted;
    if (decision.retry_never) {
        out["retry_after"] = "never";
    } else if (decision.retry_after) {
        out["retry_after"] = time_to_json(*decision.retry_after);
    }
    if (decision.release) {
        out["release"] = time_to_json(*decision.release);
    }
    if (decision.delay) {
        out["delay"] = time_to_json(*decision.delay);
    }
    if (options.responses) {
        out["response"] =
            detail::response_json(options.responses(lane)[index], options.header_style);
    }
    return out;
}

/// A lane's attempts (--client), one line each.
const Response* attempt_response(const ClientRun& client, std::size_t a) {
    return client.responses.empty() ? nullptr : &client.responses[a];
}

bool is_flat(const Json& value) {
    for (const Json& child : value) {
        if (child.is_structured()) {
            return false;
        }
    }
    return true;
}

/// `one_line_items`: each element of this array is written on one line whatever it holds (a
/// lane's keys, which hold their worst burst).
void format_into(std::string& out, const Json& value, int indent, bool one_line_items = false) {
    if (!value.is_structured() || value.empty() || is_flat(value)) {
        out += detail::inline_json(value);
        return;
    }
    const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
    const bool object = value.is_object();
    out += object ? "{\n" : "[\n";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        out += first ? inner : ",\n" + inner;
        if (object) {
            out += detail::json_string(it.key()) + ": ";
        }
        if (one_line_items) {
            out += detail::inline_json(it.value());
        } else {
            // A lane's keys, decisions and attempts: one line each, whatever they hold.
            format_into(out, it.value(), indent + 2,
                        object && (it.key() == "keys" || it.key() == "decisions" ||
                                   it.key() == "attempts"));
        }
        first = false;
    }
    out += '\n' + std::string(static_cast<std::size_t>(indent), ' ') + (object ? "}" : "]");
}

Json burst_json(const Burst& burst) {
    return {{"cost", burst.cost}, {"start", time_to_json(burst.start)}};
}

const char* grows_name(StateSize::Grows grows) {
    switch (grows) {
        case StateSize::Grows::per_request_in_window:
            return "per_request_in_window";
        case StateSize::Grows::per_queued_request:
            return "per_queued_request";
        case StateSize::Grows::no:
            break;
    }
    return "no";
}

/// What the lane's key states cost: {"holds", "fixed", "grows", "most_per_key", "peak_total",
/// "peak_total_bytes"} at 8 bytes a number.
Json state_json(const StateCost& cost) {
    Json out;
    out["holds"] = cost.size.what;
    out["fixed"] = cost.size.fixed;
    out["grows"] = grows_name(cost.size.grows);
    out["most_per_key"] = cost.most_per_key ? Json(*cost.most_per_key) : Json(nullptr);
    out["peak_total"] = cost.total;
    out["peak_total_bytes"] = cost.total * 8;
    return out;
}

/// A key's entry of a lane: its figures judged against its own tier.
Json key_json(const Trace& trace, const KeyFigures& key, bool releases,
              std::optional<std::int64_t> state_peak) {
    Json entry;
    entry["key"] = trace.key_name(key.key);
    entry["limit"] = key.limit;
    entry["window"] = key.window;
    entry["accepted"] = key.totals.accepted;
    entry["rejected"] = key.totals.rejected;
    entry["accepted_cost"] = key.totals.accepted_cost;
    entry["rejected_cost"] = key.totals.rejected_cost;
    entry["worst_burst"] = burst_json(key.worst_burst);
    entry["over_limit"] = key.over_limit();
    if (releases)
        entry["max_delay"] = time_to_json(key.totals.max_delay);
    if (state_peak)
        entry["state_peak"] = *state_peak;
    return entry;
}

void append_time(std::string& out, const Rational& ticks) {
    if (ticks.is_integer()) {
        out += std::to_string(ticks.num());
    } else {
        out += Json(ticks.to_double()).dump();  // the same digits as the report's DOM gives
    }
}

/// A lane's figures for each key: its "keys" list, which may be written one key at a time.
struct KeyList {
    LaneKeys figures;
    std::optional<StateCost> state;
    bool releases = false;

    std::size_t size() const { return figures.keys.size(); }
    /// Key `k`'s entry.
    Json entry(const Trace& trace, std::size_t k) const {
        return key_json(trace, figures.keys[k], releases,
                        state ? std::optional(state->peaks[k]) : std::nullopt);
    }
    /// Key `k`'s entry as inline_json(entry(trace, k)) writes it, without building it.
    void append(std::string& out, const Trace& trace, std::size_t k) const {
        const KeyFigures& key = figures.keys[k];
        auto number = [&out](const char* name, std::int64_t value) {
            out += name;
            out += std::to_string(value);
        };
        out += "{\"key\": ";
        out += detail::json_string(trace.key_name(key.key));
        number(", \"limit\": ", key.limit);
        number(", \"window\": ", key.window);
        number(", \"accepted\": ", key.totals.accepted);
        number(", \"rejected\": ", key.totals.rejected);
        number(", \"accepted_cost\": ", key.totals.accepted_cost);
        number(", \"rejected_cost\": ", key.totals.rejected_cost);
        number(", \"worst_burst\": {\"cost\": ", key.worst_burst.cost);
        out += ", \"start\": ";
        append_time(out, key.worst_burst.start);
        out += key.over_limit() ? "}, \"over_limit\": true" : "}, \"over_limit\": false";
        if (releases) {
            out += ", \"max_delay\": ";
            append_time(out, key.totals.max_delay);
        }
        if (state)
            number(", \"state_peak\": ", state->peaks[k]);
        out += '}';
    }
};

/// A lane's entry of the report, without its decisions. Its "keys" list comes last; when
/// `keys_out` is given, the list is left out and its figures handed back there to be written
/// one key at a time (a trace of a million keys would otherwise build a JSON value of each).
Json lane_json(const SimulationResult& result, std::size_t lane, const ReportOptions& options,
               std::optional<KeyList>* keys_out = nullptr) {
    const AlgorithmRun& run = result.runs[lane];
    const AlgorithmInfo& info = *Registry::instance().find(run.id);
    Json entry;
    entry["id"] = run.id;
    entry["label"] = run.label;
    entry["params"] =
        detail::values_to_json(info, resolved_params(info, result.lane_params[lane].base));
    entry["accepted"] = run.totals.accepted;
    entry["rejected"] = run.totals.rejected;
    entry["accepted_cost"] = run.totals.accepted_cost;
    entry["rejected_cost"] = run.totals.rejected_cost;
    // Summed over every key: with several keys, no one key's L applies to it.
    entry["worst_burst"] = burst_json(run.worst_burst);
    if (run.releases)
        entry["max_delay"] = time_to_json(run.totals.max_delay);
    if (options.clients)
        entry["intents"] = detail::intents_json(options.clients(lane).intents);
    if (options.eviction)
        entry["eviction"] = detail::eviction_json(*options.eviction, lane);
    if (!has_key_figures(result, lane))
        return entry;  // a run without decisions over several keys: see key_figures()
    KeyList keys{key_figures(result, lane), std::nullopt, run.releases};
    entry["over_limit"] = keys.figures.over_limit;
    if (const KeyFigures* worst = keys.figures.worst_key()) {
        entry["worst_key"] = {{"key", result.trace->key_name(worst->key)},
                              {"limit", worst->limit},
                              {"window", worst->window},
                              {"cost", worst->worst_burst.cost},
                              {"start", time_to_json(worst->worst_burst.start)}};
    }
    keys.state = state_cost(result, lane, keys.figures);
    if (keys.state)
        entry["state"] = state_json(*keys.state);
    if (keys_out) {
        *keys_out = std::move(keys);
        return entry;
    }
    Json list = Json::array();
    for (std::size_t k = 0; k < keys.size(); ++k) {
        list.push_back(keys.entry(*result.trace, k));
    }
    entry["keys"] = std::move(list);
    return entry;
}

/// One decision as inline_json(decision_json(...)) writes it, without building a JSON value:
/// a report of millions of decisions is written in one pass with a few allocations.
class DecisionWriter {
public:
    DecisionWriter(const Trace& trace, const ReportOptions& options)
        : trace_(trace), options_(options) {
        keys_.reserve(trace.keys.size());
        for (const std::string& key : trace.keys) {
            keys_.push_back(detail::json_string(key));
        }
    }

    /// Appends the decision's members, from "index" on, without braces.
    void members(std::string& out, const AlgorithmRun& run, std::size_t lane,
                 std::size_t index) const {
        const Request& request = trace_.requests[index];
        const Decision decision = run.decision(trace_, index);
        out += "\"index\": ";
        out += std::to_string(index);
        out += ", \"tick\": ";
        out += std::to_string(request.tick);
        out += ", \"cost\": ";
        out += std::to_string(request.cost);
        out += ", \"key\": ";
        out += keys_[request.key];
        if (const Tick duration = trace_.duration(index); duration != 0) {
            out += ", \"duration\": ";
            out += std::to_string(duration);
        }
        out += decision.accepted ? ", \"accepted\": true" : ", \"accepted\": false";
        if (decision.retry_never) {
            out += ", \"retry_after\": \"never\"";
        } else if (decision.retry_after) {
            out += ", \"retry_after\": ";
            append_time(out, *decision.retry_after);
        }
        if (decision.release) {
            out += ", \"release\": ";
            append_time(out, *decision.release);
        }
        if (decision.delay) {
            out += ", \"delay\": ";
            append_time(out, *decision.delay);
        }
        if (options_.responses) {
            out += ", \"response\": ";
            out += detail::inline_json(
                detail::response_json(options_.responses(lane)[index], options_.header_style));
        }
    }

private:
    const Trace& trace_;
    const ReportOptions& options_;
    std::vector<std::string> keys_;
};

/// Writes `text` and empties it once it has grown past a buffer's worth.
void flush_if_full(std::ostream& out, std::string& text) {
    if (text.size() >= (1 << 16)) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        text.clear();
    }
}

/// Appends a lane's list `name` of `count` items at the report's layout, one a line, each
/// appended to `text` by `item(i)`; writes `text` out as it fills.
template <typename Item>
void append_list(std::ostream& out, std::string& text, std::string_view name, std::size_t count,
                 Item item) {
    text += ",\n      \"";
    text += name;
    text += "\": ";
    if (count == 0) {
        text += "[]";
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        text += i == 0 ? "[\n        " : ",\n        ";
        item(i);
        flush_if_full(out, text);
    }
    text += "\n      ]";
}

}  // namespace

Json time_to_json(const Rational& ticks) {
    return ticks.is_integer() ? Json(ticks.num()) : Json(ticks.to_double());
}

Report make_report(const SimulationResult& result, const ReportOptions& options) {
    Report report;
    report["limit"] = result.params.base.limit;
    report["window"] = result.params.base.window;
    Json algorithms = Json::array();
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        Json entry = lane_json(result, lane, options);
        if (!options.summary && run.has_decisions()) {
            Json decisions = Json::array();
            for (std::size_t i = 0; i < result.trace->requests.size(); ++i) {
                decisions.push_back(decision_json(*result.trace, run, i, options, lane));
            }
            entry["decisions"] = std::move(decisions);
        }
        if (!options.summary && options.clients) {
            const ClientRun& client = options.clients(lane);
            Json attempts = Json::array();
            for (std::size_t a = 0; a < client.attempts.size(); ++a) {
                attempts.push_back(detail::attempt_json(
                    client.attempts[a], attempt_response(client, a), options.header_style));
            }
            entry["attempts"] = std::move(attempts);
        }
        algorithms.push_back(std::move(entry));
    }
    report["algorithms"] = std::move(algorithms);
    return report;
}

void write_report(std::ostream& out, const SimulationResult& result, const ReportOptions& options) {
    // The layout format_json() gives make_report(), written lane by lane and decision by
    // decision: each lane's entry is formatted alone and its decisions spliced in before its
    // closing brace.
    std::string text = "{\n  \"limit\": " + std::to_string(result.params.base.limit) +
                       ",\n  \"window\": " + std::to_string(result.params.base.window) +
                       ",\n  \"algorithms\": ";
    if (result.runs.empty()) {
        out << text << "[]\n}\n";
        return;
    }
    text += "[";
    const DecisionWriter decisions(*result.trace, options);
    const std::size_t count = result.trace->requests.size();
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        text += lane == 0 ? "\n    " : ",\n    ";
        std::optional<KeyList> keys;
        std::string entry;
        format_into(entry, lane_json(result, lane, options, &keys), 4);
        const bool with_attempts = !options.summary && options.clients != nullptr;
        const std::string_view closing = "\n    }";
        text.append(entry, 0, entry.size() - closing.size());
        if (keys) {
            append_list(out, text, "keys", keys->size(),
                        [&](std::size_t k) { keys->append(text, *result.trace, k); });
        }
        if (!options.summary && run.has_decisions()) {
            append_list(out, text, "decisions", count, [&](std::size_t i) {
                text += '{';
                decisions.members(text, run, lane, i);
                text += '}';
            });
        }
        if (with_attempts) {
            const ClientRun& client = options.clients(lane);
            append_list(out, text, "attempts", client.attempts.size(), [&](std::size_t a) {
                text += '{';
                detail::append_attempt_members(text, client.attempts[a],
                                               attempt_response(client, a), options.header_style);
                text += '}';
            });
        }
        text += closing;
    }
    text += "\n  ]\n}\n";
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void write_report_ndjson(std::ostream& out, const SimulationResult& result,
                         const ReportOptions& options) {
    std::string text;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        Json entry = {{"type", "lane"}, {"lane", lane}};
        std::optional<KeyList> keys;
        const Json fields = lane_json(result, lane, options, &keys);
        for (const auto& [name, value] : fields.items()) {
            entry[name] = value;
        }
        text += detail::inline_json(entry);
        if (keys) {  // before the closing brace, a key at a time
            text.pop_back();
            text += ", \"keys\": [";
            for (std::size_t k = 0; k < keys->size(); ++k) {
                text += k == 0 ? "" : ", ";
                keys->append(text, *result.trace, k);
                flush_if_full(out, text);
            }
            text += "]}";
        }
        text += '\n';
    }
    const DecisionWriter decisions(*result.trace, options);
    for (std::size_t lane = 0; lane < result.runs.size() && !options.summary; ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        if (!run.has_decisions()) {
            continue;
        }
        const std::string prefix =
            "{\"type\": \"decision\", \"lane\": " + std::to_string(lane) + ", ";
        for (std::size_t i = 0; i < result.trace->requests.size(); ++i) {
            text += prefix;
            decisions.members(text, run, lane, i);
            text += "}\n";
            flush_if_full(out, text);
        }
    }
    for (std::size_t lane = 0; options.clients && !options.summary && lane < result.runs.size();
         ++lane) {
        const ClientRun& client = options.clients(lane);
        for (std::size_t a = 0; a < client.attempts.size(); ++a) {
            text += "{\"type\": \"attempt\", \"lane\": " + std::to_string(lane) + ", ";
            detail::append_attempt_members(text, client.attempts[a], attempt_response(client, a),
                                           options.header_style);
            text += '}';
            text += '\n';
            flush_if_full(out, text);
        }
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

std::string format_json(const Json& value) {
    std::string out;
    format_into(out, value, 0);
    out += '\n';
    return out;
}

}  // namespace ratelab::io
