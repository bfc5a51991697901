#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ratelab/decision_columns.h"
#include "ratelab/key_index.h"
#include "ratelab/model.h"
#include "ratelab/rational.h"

namespace ratelab {

class Limiter;

/// What one algorithm decided for one request.
struct Decision {
    bool accepted = false;
    /// Rejections only: the exact wait after which the same request, with no other traffic,
    /// would be accepted. Nothing when `retry_never`.
    std::optional<Rational> retry_after;
    /// Rejections only: the cost exceeds what the algorithm can ever accept.
    bool retry_never = false;
    /// leaky_bucket acceptances only: when the request leaves the queue, and how long it waited.
    std::optional<Rational> release;
    std::optional<Rational> delay;

    friend bool operator==(const Decision&, const Decision&) = default;
};

/// One named number of a limiter's state, for example {"tokens", 12/5}.
struct StateField {
    std::string name;
    Rational value;
    friend bool operator==(const StateField&, const StateField&) = default;
};

/// The state of one algorithm for one key at one tick.
struct LimiterState {
    std::vector<StateField> fields;
    std::string summary;  ///< one line, e.g. "tokens 2.40 / 4, +0.40 per tick"
    friend bool operator==(const LimiterState&, const LimiterState&) = default;
};

/// Why a decision came out as it did.
struct Explanation {
    std::string state_before;
    std::string
        check;  ///< the inequality with its numbers, e.g. "estimate 4 x 0.80 + 0 + 1 = 4.20 > 4"
    std::string state_after;
    Decision decision;
    friend bool operator==(const Explanation&, const Explanation&) = default;
};

/// The worst W-tick burst: the largest accepted cost inside any half-open span [start, start + W).
struct Burst {
    std::int64_t cost = 0;
    Rational start;
    friend bool operator==(const Burst&, const Burst&) = default;
};

struct Totals {
    std::int64_t accepted = 0;
    std::int64_t rejected = 0;
    std::int64_t accepted_cost = 0;
    std::int64_t rejected_cost = 0;
    Rational max_delay;  ///< leaky_bucket only; 0 elsewhere
    friend bool operator==(const Totals&, const Totals&) = default;
};

/// Limiter states a run saved every few thousand requests while deciding, so that the state at
/// a tick or the why of a late request is a short replay. Only the kind of algorithm that saved
/// them reads them: as<T>() gives them as the type that saved them, or nothing for another.
class RunCheckpoints {
public:
    virtual ~RunCheckpoints() = default;
    template <class T>
    const T* as() const {
        return dynamic_cast<const T*>(this);
    }
};

/// What Algorithm::prefix() learns from a run that kept its decisions but no checkpoints, on its
/// first call: places a later call can start from instead of the first request. Filled once,
/// under the lock; the copies of a run share it.
struct PrefixCache {
    std::mutex mutex;
    std::shared_ptr<const RunCheckpoints> marks;
};

/// The outcome of one algorithm over a whole trace, kept in compact columns.
struct AlgorithmRun {
    using Outcome = DecisionColumns::Outcome;
    static constexpr Outcome kRejected = DecisionColumns::kRejected;
    static constexpr Outcome kAccepted = DecisionColumns::kAccepted;
    static constexpr Outcome kRejectedNever = DecisionColumns::kRejectedNever;

    std::string id;     ///< the algorithm's id
    std::string label;  ///< the lane's label (lane_label()); set by simulate()
    /// True for a shaper (leaky_bucket): accepted requests carry a release time.
    bool releases = false;
    Totals totals;
    Burst worst_burst;
    /// One decision per request (empty when decisions were not kept): the outcome, and a
    /// duration: the retry-after of a rejection, the delay of a shaper's acceptance. After an
    /// edit, the chunks the edit did not change are shared with the run before it.
    DecisionColumns decisions;
    /// Saved while deciding traces with few keys with decisions kept; else empty.
    std::shared_ptr<const RunCheckpoints> checkpoints;
    /// Where each key's requests lie in the trace decided, for traces of more keys than keep
    /// checkpoints: set by simulate() and resimulate() when asked (RunOptions::index_keys), the
    /// same for every lane of a result; else null, and a key's requests are found by reading
    /// the trace.
    std::shared_ptr<const KeyIndex> key_index;
    /// Set by simulate() and resimulate() for a run that kept its decisions and no checkpoints
    /// (a trace of many keys), for prefix(): the figures up to the clock then read a few
    /// thousand decisions, not every one before it.
    std::shared_ptr<PrefixCache> prefix_cache;
    /// The requests this run decided itself; after an edit (Algorithm::rerun) the others were
    /// taken from the run before it. For benchmarks and tests.
    std::size_t requests_decided = 0;

    bool has_decisions() const { return !decisions.empty(); }
    bool accepted(std::size_t index) const { return decisions.accepted(index); }
    Outcome outcome(std::size_t index) const { return decisions.outcome(index); }
    /// A rejection's wait before the same request could pass (0 when it never could).
    Rational retry_after(std::size_t index) const { return decisions.duration(index); }
    /// A shaper's accepted request: how long it waits in the queue.
    Rational delay(std::size_t index) const { return decisions.duration(index); }
    /// A shaper's accepted request: when it leaves the queue.
    Rational release(const Trace& trace, std::size_t index) const {
        return Rational(trace.requests[index].tick) + decisions.duration(index);
    }
    Decision decision(const Trace& trace, std::size_t index) const;
};

/// Builds the Decision for one stored outcome: `time` is the retry-after of a rejection, or the
/// release time of an acceptance when `releases`.
Decision make_decision(AlgorithmRun::Outcome outcome, const Rational& time, bool releases,
                       Tick tick);

/// Watches and stops runs from another thread: a long simulation behind a progress bar.
struct RunControl {
    /// Set it, and the runs stop at their next stretch of a few thousand requests by throwing
    /// SimulationCancelled.
    std::atomic<bool> stop{false};
    /// Requests decided so far, summed over the runs; they add to it stretch by stretch.
    std::atomic<std::uint64_t> decided{0};
};

/// Thrown by a run stopped through RunControl::stop.
class SimulationCancelled : public std::runtime_error {
public:
    SimulationCancelled() : std::runtime_error("the simulation was cancelled") {}
};

struct RunOptions {
    bool keep_decisions = true;  ///< false: totals and worst burst only (for huge traces)
    /// Threads that run algorithms side by side; 0 picks one per core. Results do not depend on it.
    unsigned threads = 0;
    /// When given, the runs report their progress to it and stop when it says so.
    RunControl* control = nullptr;
    /// simulate() and resimulate() with decisions kept: index each key's requests (KeyIndex)
    /// when the trace has more keys than keep checkpoints, and give it to every run. What the
    /// app asks for, so that a key's state at the clock and a re-run after an edit read that
    /// key's requests alone; it costs 4 bytes per request.
    bool index_keys = false;
};

/// A rate-limiting algorithm. Implementations are stateless; all state lives inside a run.
class Algorithm {
public:
    virtual ~Algorithm() = default;
    virtual std::string_view id() const = 0;

    /// Decides every request of `trace` in order. `params` must be valid.
    virtual AlgorithmRun run(const Trace& trace, const Params& params,
                             const RunOptions& options) const = 0;
    /// The state for `key` after every request with tick <= `at` has been decided. `run`, when
    /// given, is this algorithm's run over the same trace and parameters; its checkpoints
    /// shorten the replay.
    virtual LimiterState state_at(const Trace& trace, const Params& params, KeyId key, Tick at,
                                  const AlgorithmRun* run = nullptr) const = 0;
    /// The state before, the check with its numbers, and the state after request `index`.
    virtual Explanation explain(const Trace& trace, const Params& params, std::size_t index,
                                const AlgorithmRun* run = nullptr) const = 0;
    /// Fresh limiters for the keys of `trace` (each with its tier of `params`), to decide
    /// requests one at a time in any order of ticks per key (limiter.h). `params` must be valid.
    virtual std::unique_ptr<Limiter> limiter(const Trace& trace, const Params& params) const = 0;
    /// run() with decisions kept, after an edit: `previous` is this algorithm's run over
    /// `before`, a trace with the same keys and parameters whose first `unchanged` requests
    /// equal those of `trace`, and whose last `unchanged_tail` requests equal the last
    /// `unchanged_tail` of `trace`.
    /// The result is the same as run()'s; it may be quicker, because an implementation can take
    /// the decisions before the edit from `previous` and resume from its checkpoints, and take
    /// those after it from `previous` once it decides alike again.
    /// `control`, when given, watches it as run() would.
    virtual AlgorithmRun rerun(const Trace& trace, const Trace& before, const Params& params,
                               const AlgorithmRun& previous, std::size_t unchanged,
                               std::size_t unchanged_tail, RunControl* control) const {
        (void)before;
        (void)previous;
        (void)unchanged;
        (void)unchanged_tail;
        RunOptions options;
        options.control = control;
        return run(trace, params, options);
    }
    /// The totals, worst burst and longest delay of the first `count` requests of `trace` alone,
    /// without per-decision columns: what run() gives for that prefix of the trace. `full` is
    /// this algorithm's run over the whole trace; an implementation can resume from its
    /// checkpoints instead of deciding the prefix from the start. Given `released_by`, a shaper's
    /// worst burst counts only the units it has let through by that tick (the others are still
    /// queued); algorithms that do not shape have nothing to leave out.
    virtual AlgorithmRun prefix(const Trace& trace, const Params& params, const AlgorithmRun& full,
                                std::size_t count, std::optional<Tick> released_by) const {
        (void)full;
        (void)released_by;
        Trace head;
        head.keys = trace.keys;
        head.requests.append(trace.requests, 0, count);
        if (!trace.durations.empty())
            head.durations.assign(trace.durations.begin(),
                                  trace.durations.begin() + static_cast<std::ptrdiff_t>(count));
        RunOptions summary;
        summary.keep_decisions = false;
        return run(head, params, summary);
    }
};

}  // namespace ratelab
