#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/limiter.h"
#include "ratelab/model.h"

namespace ratelab {

/// Raised for invalid parameters, an invalid trace or an unknown algorithm id.
class SimulationError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Where an edit changed a trace, as its maker knows it: the new trace's requests
/// [first, size - tail) took the place of the old one's [first, old size - tail), and every
/// other request is as it was, duration included.
struct TraceChange {
    std::size_t first = 0;
    std::size_t tail = 0;
};

/// An immutable simulation: the inputs and every lane's run over them.
struct SimulationResult {
    std::shared_ptr<const Trace> trace;
    Params params;
    std::vector<Lane> lanes;          ///< the lanes run, one per entry of `runs`
    std::vector<Params> lane_params;  ///< what each lane ran with: params_for_lane()
    std::vector<AlgorithmRun> runs;   ///< one per lane, in the lanes' order
    /// The key every request has, when they all have one (see only_key() in key_figures.h):
    /// counted once here, because views ask at every frame.
    std::optional<KeyId> sole_key;
    /// A result of resimulate(): the trace of the result it started from (while anything holds
    /// it), and which of its requests the edit changed, so that what a view derived from that
    /// result can be brought up to date rather than derived again.
    std::weak_ptr<const Trace> edited_from;
    TraceChange edit;

    /// The first run of algorithm `id`, or nothing. Two lanes may run one algorithm: code that
    /// shows lanes goes by position, never by id.
    const AlgorithmRun* find(std::string_view id) const;
    /// Whether every run kept checkpoints (traces with few keys, decisions kept): then a prefix
    /// (simulate_prefix) or a state at a tick costs at most a few thousand decisions.
    bool kept_checkpoints() const;
};

/// Runs the lanes of `params` (lanes_of()) over `trace`; `ids`, when given, is a shorthand for
/// one default lane per algorithm id instead. Throws SimulationError for invalid input.
std::shared_ptr<const SimulationResult> simulate(std::shared_ptr<const Trace> trace,
                                                 const Params& params,
                                                 const std::vector<std::string>& ids = {},
                                                 const RunOptions& options = {});

/// What simulate() must give, from the reference engine (core/src/reference_engine.h): each
/// lane decided by a plain loop over the requests, and its worst burst counted over a list of
/// every accepted arrival or released unit. Slow (quadratic in the units of a burst), for tests
/// and for checking a new algorithm; no checkpoints.
std::shared_ptr<const SimulationResult> simulate_reference(std::shared_ptr<const Trace> trace,
                                                           const Params& params);

/// simulate() again after an edit of `previous.trace`: the same result as
/// simulate(trace, previous.params) with the same algorithms, but where the keys are unchanged
/// the decisions before the first changed request are taken from `previous` (resuming from the
/// runs' checkpoints, kept for traces with few keys), so an edit near the end costs little.
/// Given `change`, only the changed requests are checked, and neither trace is compared with
/// the other to find them: an edit of a long trace then costs no pass over all of it.
std::shared_ptr<const SimulationResult> resimulate(const SimulationResult& previous,
                                                   std::shared_ptr<const Trace> trace,
                                                   const RunOptions& options = {},
                                                   std::optional<TraceChange> change = {});

/// The totals, worst bursts and longest delays of the first `count` requests of `full.trace`
/// alone: what simulate() of that prefix gives, without per-decision columns. Where `full` kept
/// checkpoints, each run resumes from the last one before `count` instead of starting over, so
/// a clock step on a long trace costs a few thousand decisions. The result's `trace` is
/// `full.trace` itself, not a copy of the prefix: only its runs describe the prefix. Given
/// `released_by` (the clock), a shaper's worst burst counts only the units let through by then.
std::shared_ptr<const SimulationResult> simulate_prefix(const SimulationResult& full,
                                                        std::size_t count,
                                                        std::optional<Tick> released_by = {});

/// The state of lane `lane` (an index into result.runs) for `key` after every request with
/// tick <= `at`.
LimiterState state_at(const SimulationResult& result, std::size_t lane, KeyId key, Tick at);
/// Why lane `lane` decided request `index` as it did.
Explanation explain(const SimulationResult& result, std::size_t lane, std::size_t index);
/// What state_at() and explain() must give, from the reference engine: replayed from the first
/// request, ignoring the runs' checkpoints. Slow; for tests.
LimiterState reference_state_at(const SimulationResult& result, std::size_t lane, KeyId key,
                                Tick at);
Explanation reference_explain(const SimulationResult& result, std::size_t lane, std::size_t index);

/// Fresh limiters (limiter.h) for `lane` over the keys of `trace`, configured as simulate()
/// configures that lane. `params` must be valid.
std::unique_ptr<Limiter> make_limiter(const Trace& trace, const Params& params, const Lane& lane);

/// The default scenario: L = 4, W = 10, one request at each of ticks 6 to 13.
Trace default_trace();
Params default_params();

}  // namespace ratelab
