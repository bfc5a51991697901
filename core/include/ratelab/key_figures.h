#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"
#include "ratelab/registry.h"
#include "ratelab/shared_column.h"
#include "ratelab/simulation.h"

namespace ratelab {

/// One key's figures in one lane, judged against the key's own tier: its worst burst is counted
/// over the key's own W and compared with the key's own L.
struct KeyFigures {
    KeyId key = 0;
    std::int64_t limit = 0;  ///< the key's L
    Tick window = 0;         ///< the key's W
    std::int64_t requests = 0;
    Totals totals;  ///< max_delay: shapers only, 0 elsewhere
    Burst worst_burst;

    bool over_limit() const { return worst_burst.cost > limit; }
    friend bool operator==(const KeyFigures&, const KeyFigures&) = default;
};

/// Every key's figures in one lane.
struct LaneKeys {
    /// The keys with requests, sorted by name. Held in chunks that the figures after an edit
    /// share with those before it, but for the chunks of the keys it touched.
    SharedColumn<KeyFigures> keys;
    /// The key whose worst burst is the largest relative to its own L (the first by name on a
    /// tie); nothing when no request was accepted.
    std::optional<std::size_t> worst;
    /// Whether some key's worst burst exceeds its own L.
    bool over_limit = false;

    const KeyFigures* worst_key() const { return worst ? &keys[*worst] : nullptr; }
    friend bool operator==(const LaneKeys&, const LaneKeys&) = default;
};

/// Which requests key_figures() looks at: the first `count` (all of them when nothing), and of a
/// shaper's units only those let through by `released_by` (the clock), as simulate_prefix().
struct KeyScope {
    std::optional<std::size_t> count;
    std::optional<Tick> released_by;
};

/// Whether key_figures() can answer for lane `lane` of `result`: when the lane kept its
/// decisions, or when one key made every request and counts its bursts over the trace's W (then
/// the lane's own figures are that key's, and a prefix's come from simulate_prefix()).
bool has_key_figures(const SimulationResult& result, std::size_t lane);

/// The figures of every key of lane `lane` over the requests `scope` names: from the lane's
/// decisions, in one pass over them. Without decisions, only for a trace of one key whose W is
/// the trace's (has_key_figures()), and then `prefix_run`, when given, is the lane's run of
/// simulate_prefix() over the same scope. Throws SimulationError when it cannot answer.
LaneKeys key_figures(const SimulationResult& result, std::size_t lane, const KeyScope& scope = {},
                     const AlgorithmRun* prefix_run = nullptr);

/// key_figures() of every lane of `result` that has_key_figures(), nothing for the others, on the
/// machine's cores: when every lane kept its decisions and the runs hold an index of the keys,
/// key by key (each key's requests read once for every lane, ranges of keys side by side), else
/// the lanes side by side. `prefix`, when given, is simulate_prefix() of `result` over the same
/// scope, whose runs are the lanes' `prefix_run`.
std::vector<std::optional<LaneKeys>> every_lane_key_figures(
    const SimulationResult& result, const KeyScope& scope = {},
    const SimulationResult* prefix = nullptr);

/// every_lane_key_figures() of `result`, made by resimulate() from `before`, whose figures over
/// its whole trace are `before_keys`: each key is decided on its own, so only the keys whose
/// requests the edit changed are counted again (not those whose requests only moved past
/// another's), in a pass that picks their requests out. Counts every key when the edit changed the
/// key table, the lanes or their parameters (or `result` was not made from `before`), or touched
/// more than a few thousand requests.
std::vector<std::optional<LaneKeys>> every_lane_key_figures_after_edit(
    const SimulationResult& result, const SimulationResult& before,
    const std::vector<std::optional<LaneKeys>>& before_keys);

/// every_lane_key_figures() of `result` over `scope`, where `from_keys` are its figures over
/// `from` (a clock step: the two differ in the requests between them, and in a shaper's units
/// let through between the two clocks). Only the keys of those requests are counted again, or
/// every key when they are a large part of the trace. For a result whose key figures need
/// decisions (key_figures_need_decisions()); for another it counts every key.
std::vector<std::optional<LaneKeys>> every_lane_key_figures_moved(
    const SimulationResult& result, const KeyScope& from,
    const std::vector<std::optional<LaneKeys>>& from_keys, const KeyScope& scope);

/// The figures of `lane`'s keys that `shown` holds (indexed by key id, non-zero for a key
/// kept; keys past its end are left out), their worst and over_limit found again among them.
LaneKeys only_keys(const LaneKeys& lane, const std::vector<char>& shown);
/// The `shown` of only_keys() for the key ids `keys` of a trace of `key_count` keys (ids past it
/// are left out).
std::vector<char> key_mask(std::size_t key_count, const std::vector<KeyId>& keys);

/// The totals of every key of `lane` together (max_delay: the longest of any).
Totals sum_totals(const LaneKeys& lane);

/// What the keys' states of one lane cost in memory ("What it costs"): the most numbers each
/// key's state held at once, and their sum, an upper bound on what all keys hold at one time.
struct StateCost {
    StateSize size;                   ///< what one key's state holds (AlgorithmInfo::state_size)
    std::vector<std::int64_t> peaks;  ///< per key, in the order of LaneKeys::keys
    std::int64_t total = 0;           ///< the sum of the peaks
    /// The most one key can ever hold under `limits`: nothing when it has no bound (a log
    /// that also remembers rejected requests).
    std::optional<std::int64_t> most_per_key;
};

/// The state cost of lane `lane` over the requests `scope` names, for the keys of `keys` (its
/// key_figures() over the same scope): nothing when the algorithm does not say what its state
/// holds, or when its size grows and the lane kept no decisions to count it from.
std::optional<StateCost> state_cost(const SimulationResult& result, std::size_t lane,
                                    const LaneKeys& keys, const KeyScope& scope = {});

/// The worst burst a lane is judged by, as its headline: the worst key's, against that key's own
/// L and over its own W. Without key figures over several keys, the burst summed over them,
/// held to no limit.
struct JudgedBurst {
    Burst burst;
    std::int64_t limit = 0;    ///< the L it is held to; 0 for a sum over several keys
    Tick window = 0;           ///< the W it is counted over
    std::optional<KeyId> key;  ///< whose burst it is; nothing for the sum

    bool over_limit() const { return limit > 0 && burst.cost > limit; }
    friend bool operator==(const JudgedBurst&, const JudgedBurst&) = default;
};

/// Lane `lane`'s headline burst: from `keys` (its key figures over the part shown) when given,
/// else from `shown` (its run over that part), which is one key's only when the trace has one.
JudgedBurst judged_burst(const SimulationResult& result, std::size_t lane, const LaneKeys* keys,
                         const AlgorithmRun& shown);

/// The key every request of `trace` has, or nothing when they have several (or there are none).
std::optional<KeyId> only_key(const Trace& trace);

/// Whether a run over `trace` must keep its decisions for key_figures() to answer: when several
/// keys made requests, or one key whose W is not the trace's.
bool key_figures_need_decisions(const Trace& trace, const Params& params);
/// The same for a simulation's trace and parameters, without looking at every request.
bool key_figures_need_decisions(const SimulationResult& result);

}  // namespace ratelab
