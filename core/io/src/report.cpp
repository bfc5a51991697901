#include "ratelab/io/report.h"

#include "inline_json.h"
#include "params_json.h"
#include "ratelab/registry.h"

namespace ratelab::io {

using Json = nlohmann::ordered_json;

namespace {

Json decision_json(const Trace& trace, const AlgorithmRun& run, std::size_t index) {
    const Request& request = trace.requests[index];
    const Decision decision = run.decision(trace, index);
    Json out;
    out["index"] = index;
    out["tick"] = request.tick;
    out["cost"] = request.cost;
    out["key"] = trace.key_name(request.key);
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
    return out;
}

bool is_flat(const Json& value) {
    for (const Json& child : value) {
        if (child.is_structured()) {
            return false;
        }
    }
    return true;
}

void format_into(std::string& out, const Json& value, int indent) {
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
        format_into(out, it.value(), indent + 2);
        first = false;
    }
    out += '\n' + std::string(static_cast<std::size_t>(indent), ' ') + (object ? "}" : "]");
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
        entry["worst_burst"] = {{"cost", run.worst_burst.cost},
                                {"start", time_to_json(run.worst_burst.start)}};
        if (!options.summary && run.has_decisions()) {
            Json decisions = Json::array();
            for (std::size_t i = 0; i < result.trace->requests.size(); ++i) {
                decisions.push_back(decision_json(*result.trace, run, i));
            }
            entry["decisions"] = std::move(decisions);
        }
        algorithms.push_back(std::move(entry));
    }
    report["algorithms"] = std::move(algorithms);
    return report;
}

std::string format_json(const Json& value) {
    std::string out;
    format_into(out, value, 0);
    out += '\n';
    return out;
}

}  // namespace ratelab::io
