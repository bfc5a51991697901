#include "ratelab/simulation.h"

#include <algorithm>

#include "ratelab/registry.h"

namespace ratelab {
namespace {

std::string join_errors(const std::string& what, const std::vector<std::string>& errors) {
    std::string message = what + ": " + errors.front();
    if (errors.size() > 1)
        message += " (and " + std::to_string(errors.size() - 1) + " more)";
    return message;
}

std::unique_ptr<Algorithm> make_algorithm(std::string_view id) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    if (info == nullptr) {
        std::string known;
        for (const std::string& name : Registry::instance().ids())
            known += (known.empty() ? "" : ", ") + name;
        throw SimulationError("unknown algorithm \"" + std::string(id) + "\" (known: " + known +
                              ")");
    }
    return info->make();
}

}  // namespace

const AlgorithmRun* SimulationResult::find(std::string_view id) const {
    const auto it =
        std::find_if(runs.begin(), runs.end(), [id](const AlgorithmRun& r) { return r.id == id; });
    return it == runs.end() ? nullptr : &*it;
}

std::shared_ptr<const SimulationResult> simulate(std::shared_ptr<const Trace> trace,
                                                 const Params& params,
                                                 const std::vector<std::string>& ids,
                                                 const RunOptions& options) {
    if (!trace)
        throw SimulationError("no trace");
    if (auto errors = validate(params); !errors.empty())
        throw SimulationError(join_errors("parameters", errors));
    if (auto errors = validate(*trace); !errors.empty())
        throw SimulationError(join_errors("trace", errors));

    auto result = std::make_shared<SimulationResult>();
    result->params = params;
    const std::vector<std::string> chosen = ids.empty() ? Registry::instance().ids() : ids;
    std::vector<std::unique_ptr<Algorithm>> algorithms;
    for (const std::string& id : chosen)
        algorithms.push_back(make_algorithm(id));
    result->runs.reserve(algorithms.size());
    for (const auto& algorithm : algorithms)
        result->runs.push_back(algorithm->run(*trace, params, options));
    result->trace = std::move(trace);
    return result;
}

LimiterState state_at(const SimulationResult& result, std::string_view id, KeyId key, Tick at) {
    if (key >= result.trace->keys.size())
        throw SimulationError("unknown key id " + std::to_string(key));
    return make_algorithm(id)->state_at(*result.trace, result.params, key, at);
}

Explanation explain(const SimulationResult& result, std::string_view id, std::size_t index) {
    if (index >= result.trace->requests.size()) {
        throw SimulationError("no request with index " + std::to_string(index));
    }
    return make_algorithm(id)->explain(*result.trace, result.params, index);
}

Trace default_trace() {
    TraceBuilder builder;
    for (Tick tick = 6; tick <= 13; ++tick)
        builder.add(tick);
    return std::move(builder).take();
}

Params default_params() {
    Params params;
    params.base.limit = 4;
    params.base.window = 10;
    return params;
}

}  // namespace ratelab
