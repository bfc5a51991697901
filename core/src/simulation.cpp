#include "ratelab/simulation.h"

#include <algorithm>
#include <functional>

#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "share_out.h"

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

/// Calls `work(i)` for every algorithm index i, several at once on large traces. Each run reads
/// only shared immutable input and writes only its own slot, so the result is the same whatever
/// the thread count.
void run_all(std::size_t count, std::size_t requests, const RunOptions& options,
             const std::function<void(std::size_t)>& work) {
    detail::share_out(count, detail::threads_for(requests, options.threads, count), work);
}

/// The index of a trace with the same key table as the one run (`index` of `trace`), and where
/// the trace run differs from it when that is known (an edit).
struct IndexBefore {
    const KeyIndex* index = nullptr;
    const Trace* trace = nullptr;
    std::optional<TraceChange> change;
};

/// work(i) for each of `result`'s lanes, side by side, and alongside them the index of the
/// trace's keys when `options` asks for it and the trace has more keys than keep checkpoints:
/// the index then goes to every run. `before`: the index of a trace with the same key table,
/// if there is one, which the new index starts from. A run that kept decisions and no
/// checkpoints gets room for its prefix marks.
void run_lanes(SimulationResult& result, const Trace& trace, const RunOptions& options,
               const std::function<void(std::size_t)>& work, const IndexBefore& before = {}) {
    const std::size_t lanes = result.runs.size();
    const bool index =
        options.index_keys && options.keep_decisions && trace.keys.size() > kCheckpointedKeys;
    std::shared_ptr<const KeyIndex> key_index;
    if (index && before.index && before.trace && before.change) {
        // After an edit: the index from the one before, on every thread, then the lanes, which
        // mostly decide only the touched keys.
        key_index = std::make_shared<const KeyIndex>(
            trace, *before.index, *before.trace, before.change->first, before.change->tail,
            detail::threads_for(trace.requests.size(), options.threads, 2));
        run_all(lanes, trace.requests.size(), options, work);
    } else {
        // The index first, beside the lanes: the other threads take the lanes meanwhile.
        const std::size_t first_lane = index ? 1 : 0;
        run_all(lanes + first_lane, trace.requests.size(), options, [&](std::size_t i) {
            if (i >= first_lane)
                work(i - first_lane);
            else
                key_index = std::make_shared<const KeyIndex>(trace, before.index);
        });
    }
    for (AlgorithmRun& run : result.runs) {
        run.key_index = key_index;
        if (run.has_decisions() && !run.checkpoints)
            run.prefix_cache = std::make_shared<PrefixCache>();
    }
}

void check_trace(const Trace& trace) {
    if (auto errors = validate(trace); !errors.empty())
        throw SimulationError(join_errors("trace", errors));
}

void check_lane(const SimulationResult& result, std::size_t lane) {
    if (lane >= result.runs.size())
        throw SimulationError("no lane " + std::to_string(lane));
}

void check_key(const SimulationResult& result, std::size_t lane, KeyId key) {
    check_lane(result, lane);
    if (key >= result.trace->keys.size())
        throw SimulationError("unknown key id " + std::to_string(key));
}

void check_request(const SimulationResult& result, std::size_t lane, std::size_t index) {
    check_lane(result, lane);
    if (index >= result.trace->requests.size())
        throw SimulationError("no request with index " + std::to_string(index));
}

/// The reference engine of `lane`'s algorithm.
const ReferenceEngine& reference_of(const Lane& lane) {
    (void)make_algorithm(lane.algorithm);  // the same error for an unknown id
    const ReferenceEngine& reference = Registry::instance().find(lane.algorithm)->reference;
    if (!reference.run || !reference.state_at || !reference.explain)
        throw SimulationError("algorithm \"" + lane.algorithm + "\" has no reference engine");
    return reference;
}

/// Each run's label: its lane's, numbered where two lanes would read the same.
void label_runs(SimulationResult& result) {
    for (std::size_t i = 0; i < result.runs.size(); ++i) {
        const std::string label = lane_label(result.lanes[i]);
        int same = 1;
        for (std::size_t j = 0; j < i; ++j)
            same += lane_label(result.lanes[j]) == label ? 1 : 0;
        result.runs[i].label = same == 1 ? label : label + " (" + std::to_string(same) + ")";
    }
}

}  // namespace

const AlgorithmRun* SimulationResult::find(std::string_view id) const {
    const auto it =
        std::find_if(runs.begin(), runs.end(), [id](const AlgorithmRun& r) { return r.id == id; });
    return it == runs.end() ? nullptr : &*it;
}

bool SimulationResult::kept_checkpoints() const {
    return std::all_of(runs.begin(), runs.end(),
                       [](const AlgorithmRun& run) { return run.checkpoints != nullptr; });
}

namespace {

/// Checks the inputs of a simulation and returns a result with its lanes and their parameters
/// set, and no runs yet: the lanes of `params`, or one default lane per id of `ids`.
std::shared_ptr<SimulationResult> lanes_for(const std::shared_ptr<const Trace>& trace,
                                            const Params& params,
                                            const std::vector<std::string>& ids) {
    if (!trace)
        throw SimulationError("no trace");
    if (auto errors = validate(params); !errors.empty())
        throw SimulationError(join_errors("parameters", errors));
    check_trace(*trace);
    auto result = std::make_shared<SimulationResult>();
    result->params = params;
    if (ids.empty()) {
        result->lanes = lanes_of(params);
    } else {
        for (const std::string& id : ids)
            result->lanes.push_back(Lane{id, {}, {}, false});
    }
    for (const Lane& lane : result->lanes)
        result->lane_params.push_back(params_for_lane(params, lane));
    return result;
}

}  // namespace

std::shared_ptr<const SimulationResult> simulate(std::shared_ptr<const Trace> trace,
                                                 const Params& params,
                                                 const std::vector<std::string>& ids,
                                                 const RunOptions& options) {
    const std::shared_ptr<SimulationResult> result = lanes_for(trace, params, ids);
    std::vector<std::unique_ptr<Algorithm>> algorithms;
    for (const Lane& lane : result->lanes)
        algorithms.push_back(make_algorithm(lane.algorithm));
    result->runs.resize(algorithms.size());
    run_lanes(*result, *trace, options, [&](std::size_t i) {
        result->runs[i] = algorithms[i]->run(*trace, result->lane_params[i], options);
    });
    label_runs(*result);
    result->sole_key = only_key(*trace);
    result->trace = std::move(trace);
    return result;
}

std::shared_ptr<const SimulationResult> simulate_reference(std::shared_ptr<const Trace> trace,
                                                           const Params& params) {
    const std::shared_ptr<SimulationResult> result = lanes_for(trace, params, {});
    for (std::size_t i = 0; i < result->lanes.size(); ++i)
        result->runs.push_back(reference_of(result->lanes[i]).run(*trace, result->lane_params[i]));
    label_runs(*result);
    result->sole_key = only_key(*trace);
    result->trace = std::move(trace);
    return result;
}

namespace {

/// How many requests at the start and at the end of `after` are as in `before`, durations
/// included, without overlapping.
TraceChange compare_traces(const Trace& before, const Trace& after) {
    const RequestColumn& old_requests = before.requests;
    const RequestColumn& new_requests = after.requests;
    const std::size_t common = std::min(old_requests.size(), new_requests.size());
    std::size_t unchanged = new_requests.common_prefix(old_requests);
    // A request is unchanged only with its duration.
    const bool durations = !before.durations.empty() || !after.durations.empty();
    if (durations) {
        std::size_t same = 0;
        while (same < unchanged && before.duration(same) == after.duration(same))
            ++same;
        unchanged = same;
    }
    // The unchanged requests at the end, not overlapping those at the start.
    std::size_t tail = new_requests.common_suffix(old_requests, common - unchanged);
    if (durations) {
        std::size_t same = 0;
        while (same < tail && before.duration(old_requests.size() - 1 - same) ==
                                  after.duration(new_requests.size() - 1 - same))
            ++same;
        tail = same;
    }
    return TraceChange{unchanged, tail};
}

}  // namespace

std::shared_ptr<const SimulationResult> resimulate(const SimulationResult& previous,
                                                   std::shared_ptr<const Trace> trace,
                                                   const RunOptions& options,
                                                   std::optional<TraceChange> change) {
    if (!trace)
        throw SimulationError("no trace");
    const std::size_t size = trace->requests.size();
    const std::size_t old_size = previous.trace->requests.size();
    if (change && (change->first + change->tail > std::min(size, old_size) ||
                   trace->keys.size() < previous.trace->keys.size() ||
                   (!trace->durations.empty() && trace->durations.size() != size)))
        change.reset();  // not a change of these two traces: find it
    const bool told = change.has_value();
    if (change) {
        if (auto errors = validate(*trace, change->first, size - change->tail); !errors.empty())
            throw SimulationError(join_errors("trace", errors));
    } else {
        check_trace(*trace);
        change = compare_traces(*previous.trace, *trace);
    }
    const std::size_t unchanged = change->first;
    const std::size_t tail = change->tail;
    const auto& after = trace->requests;
    const bool same_keys = trace->keys == previous.trace->keys;
    const bool reusable = options.keep_decisions && same_keys;

    auto result = std::make_shared<SimulationResult>();
    result->params = previous.params;
    result->lanes = previous.lanes;
    result->lane_params = previous.lane_params;
    std::vector<std::unique_ptr<Algorithm>> algorithms;
    for (const Lane& lane : previous.lanes)
        algorithms.push_back(make_algorithm(lane.algorithm));
    result->runs.resize(algorithms.size());
    run_lanes(
        *result, *trace, options,
        [&](std::size_t i) {
            const AlgorithmRun& old = previous.runs[i];
            const Params& params = previous.lane_params[i];
            result->runs[i] = reusable && old.has_decisions()
                                  ? algorithms[i]->rerun(*trace, *previous.trace, params, old,
                                                         unchanged, tail, options.control)
                                  : algorithms[i]->run(*trace, params, options);
        },
        same_keys && !previous.runs.empty()
            ? IndexBefore{previous.runs.front().key_index.get(), previous.trace.get(), change}
            : IndexBefore{});
    label_runs(*result);
    // One key before, and every changed request is that key's: still one key, found without
    // a pass over the trace.
    const auto first_changed = after.begin() + static_cast<std::ptrdiff_t>(unchanged);
    const auto last_changed = after.end() - static_cast<std::ptrdiff_t>(tail);
    const std::optional<KeyId> key = previous.sole_key;
    result->sole_key =
        told && same_keys && key && !after.empty() &&
                std::all_of(first_changed, last_changed,
                            [&key](const Request& request) { return request.key == *key; })
            ? key
            : only_key(*trace);
    result->edited_from = previous.trace;
    result->edit = *change;
    result->trace = std::move(trace);
    return result;
}

std::shared_ptr<const SimulationResult> simulate_prefix(const SimulationResult& full,
                                                        std::size_t count,
                                                        std::optional<Tick> released_by) {
    count = std::min(count, full.trace->requests.size());
    auto result = std::make_shared<SimulationResult>();
    result->trace = full.trace;
    result->params = full.params;
    result->lanes = full.lanes;
    result->lane_params = full.lane_params;
    result->sole_key = full.sole_key;
    std::vector<std::unique_ptr<Algorithm>> algorithms;
    for (const Lane& lane : full.lanes)
        algorithms.push_back(make_algorithm(lane.algorithm));
    result->runs.resize(algorithms.size());
    // Resuming from checkpoints is too little work to share out; starting over is not.
    RunOptions options;
    options.keep_decisions = false;
    options.threads = full.kept_checkpoints() ? 1 : 0;
    run_all(algorithms.size(), count, options, [&](std::size_t i) {
        result->runs[i] = algorithms[i]->prefix(*full.trace, full.lane_params[i], full.runs[i],
                                                count, released_by);
    });
    label_runs(*result);
    return result;
}

LimiterState state_at(const SimulationResult& result, std::size_t lane, KeyId key, Tick at) {
    check_key(result, lane, key);
    return make_algorithm(result.lanes[lane].algorithm)
        ->state_at(*result.trace, result.lane_params[lane], key, at, &result.runs[lane]);
}

Explanation explain(const SimulationResult& result, std::size_t lane, std::size_t index) {
    check_request(result, lane, index);
    return make_algorithm(result.lanes[lane].algorithm)
        ->explain(*result.trace, result.lane_params[lane], index, &result.runs[lane]);
}

LimiterState reference_state_at(const SimulationResult& result, std::size_t lane, KeyId key,
                                Tick at) {
    check_key(result, lane, key);
    return reference_of(result.lanes[lane])
        .state_at(*result.trace, result.lane_params[lane], key, at);
}

Explanation reference_explain(const SimulationResult& result, std::size_t lane, std::size_t index) {
    check_request(result, lane, index);
    return reference_of(result.lanes[lane]).explain(*result.trace, result.lane_params[lane], index);
}

std::unique_ptr<Limiter> make_limiter(const Trace& trace, const Params& params, const Lane& lane) {
    return make_algorithm(lane.algorithm)->limiter(trace, params_for_lane(params, lane));
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
