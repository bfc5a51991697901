#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "branch_free.h"
#include "burst.h"
#include "memory_advice.h"
#include "merged_burst.h"
#include "param_reader.h"
#include "policy.h"
#include "ratelab/algorithm.h"
#include "ratelab/registry.h"

namespace ratelab::detail {

/// Turns a policy (the contract is the Policy concept, policy.h) into an Algorithm, so that
/// every algorithm shares one fast run loop, one way of computing bursts, and one way of
/// explaining a decision. reference_run (reference_engine.h) is the plain loop it must agree
/// with.
template <class P>
class BasicAlgorithm final : public Algorithm {
    static_assert(Policy<P>, "an algorithm file's policy provides what the Policy concept lists");

public:
    using Config = typename P::Config;
    using State = typename P::State;

    std::string_view id() const override { return P::kId; }

    AlgorithmRun run(const Trace& trace, const Params& params,
                     const RunOptions& options) const override;
    AlgorithmRun rerun(const Trace& trace, const Trace& before, const Params& params,
                       const AlgorithmRun& previous, std::size_t unchanged,
                       std::size_t unchanged_tail, RunControl* control) const override;
    AlgorithmRun prefix(const Trace& trace, const Params& params, const AlgorithmRun& full,
                        std::size_t count, std::optional<Tick> released_by) const override;
    LimiterState state_at(const Trace& trace, const Params& params, KeyId key, Tick at,
                          const AlgorithmRun* run) const override;
    Explanation explain(const Trace& trace, const Params& params, std::size_t index,
                        const AlgorithmRun* run) const override;
    std::unique_ptr<Limiter> limiter(const Trace& trace, const Params& params) const override;

private:
    static constexpr std::size_t kCheckpointEvery = 4096;              // requests
    static constexpr std::size_t kCheckpointKeys = kCheckpointedKeys;  // more: none, see KeyIndex
    /// Burst trackers holding more entries than this are not saved (rerun resumes earlier).
    static constexpr std::size_t kMaxSavedEntries = 1024;

    /// What the run loop carries from request to request besides the limiter states.
    struct Progress {
        explicit Progress(Tick window)
            : arrivals(window), one_shaper(window), many_shapers(window) {}
        std::size_t held() const {
            return arrivals.held() + one_shaper.held() + many_shapers.held();
        }
        /// The worst burst found so far; nothing for several shapers' merged units.
        std::optional<Burst> best(bool single_key) const;
        void set_best(const Burst& best);
        /// Whether the burst tracker holds the same window as `other`'s (one key for shapers).
        bool same_window(const Progress& other) const;
        bool delay_below(const Progress& other) const;

        Totals totals;
        ArrivalBurst arrivals;
        SegmentBurst one_shaper;
        ManyShaperBurst many_shapers;
        std::int64_t worst_delay = 0;  // over worst_delay_scale ticks
        std::int64_t worst_delay_scale = 1;
        /// Shapers' units after this tick are left out of the burst (see prefix()).
        Tick released_by = kReleasedEver;
    };
    static constexpr Tick kReleasedEver = std::numeric_limits<Tick>::max();
    /// What a run that took a checkpoint over from the run before an edit knows better than
    /// that run did: the counts changed by the edit, and a worst burst or delay found before the
    /// checkpoint that may beat the one saved there. Applied when the checkpoint is read.
    struct Adjustment {
        std::int64_t accepted = 0;
        std::int64_t rejected = 0;
        std::int64_t accepted_cost = 0;
        std::int64_t rejected_cost = 0;
        std::optional<Burst> best;     ///< wins unless the saved burst costs more
        std::int64_t worst_delay = 0;  ///< at least this, over worst_delay_scale ticks
        std::int64_t worst_delay_scale = 1;
        void apply(Progress& progress) const;
        /// This adjustment followed by `later`.
        Adjustment then(const Adjustment& later) const;
    };
    /// Checkpoint c: every key's state before request positions[c], and the loop's progress
    /// there when it was small enough to keep. positions[0] is 0, and positions increase; most
    /// are multiples of kCheckpointEvery, but those taken over from a run before an edit are
    /// shifted by the requests the edit added or removed. The states and progress are shared
    /// with the runs before and after an edit, which adjust the progress instead of copying it.
    struct Checkpoints final : RunCheckpoints {
        std::vector<std::size_t> positions;
        std::vector<std::shared_ptr<const std::vector<State>>> states;
        std::vector<std::shared_ptr<const Progress>> progress;  ///< null: not kept
        std::vector<Adjustment> adjustments;
        bool single_key = true;

        bool has_progress(std::size_t c) const { return progress[c] != nullptr; }
        /// The progress at checkpoint c as this run has it (has_progress(c) must hold).
        Progress progress_at(std::size_t c) const {
            Progress out = *progress[c];
            adjustments[c].apply(out);
            return out;
        }
        void save(std::size_t position, std::shared_ptr<const std::vector<State>> at,
                  std::shared_ptr<const Progress> kept, const Adjustment& adjustment) {
            positions.push_back(position);
            states.push_back(std::move(at));
            progress.push_back(std::move(kept));
            adjustments.push_back(adjustment);
        }
    };
    /// The checkpoints `run` saved, if this algorithm made it and it kept some.
    static const Checkpoints* saved_by(const AlgorithmRun& run) {
        return run.id == P::kId && run.checkpoints ? run.checkpoints->template as<Checkpoints>()
                                                   : nullptr;
    }
    /// How an edited trace lines up with the trace of the run before the edit: its requests
    /// from `settled` on are the old trace's from `settled - shift` on.
    struct Shift {
        std::size_t settled;
        std::ptrdiff_t shift;
    };

    struct Stretch {
        const RequestColumn& requests;
        const std::vector<Tick>& durations;  ///< Trace::durations
        const std::vector<Config>& configs;
        bool rejections_count;
        bool single_key;
    };
    /// Decides requests [positions[from], end) resuming from checkpoint `from` of `previous`
    /// (from the start without one), taking the decisions before it from `previous`. Given
    /// `shift`, `previous` ran over the trace before an edit: once this run reaches one of
    /// its checkpoints past the edit in the same state, the rest is taken from it as well.
    static AlgorithmRun decide_from(const Trace& trace, const Params& params,
                                    const RunOptions& options, const AlgorithmRun* previous,
                                    std::size_t from, std::size_t end, const Shift* shift,
                                    Tick released_by = kReleasedEver);
    // The pieces of decide_from, one job each.
    /// Every key's state at checkpoint `from` of `saved`, or initial ones without it.
    static std::vector<State> starting_states(const Trace& trace,
                                              const std::vector<Config>& configs,
                                              const Checkpoints* saved, std::size_t from);
    /// An empty run; when decisions are kept and resuming, `decisions` holds those of
    /// `previous` before `begin` (its chunks shared).
    static AlgorithmRun starting_output(const RunOptions& options, const AlgorithmRun* previous,
                                        std::size_t begin, DecisionColumns::Builder& decisions);
    /// The checkpoints the run will save: those of `saved` before `from`, when resuming.
    static std::shared_ptr<Checkpoints> starting_checkpoints(const Checkpoints* saved,
                                                             std::size_t from, bool keep,
                                                             bool single_key);
    /// Decides [first, last) with the run loop made for the run's flags, writing the decisions
    /// to `decisions` when given.
    static void decide_range(const Stretch& stretch, bool scattered, bool one_key,
                             std::size_t first, std::size_t last, std::vector<State>& states,
                             Progress& progress, Totals& totals,
                             DecisionColumns::Builder* decisions);
    /// Adds a stretch to the control's count, and stops the run if asked to.
    static void report(const RunOptions& options, std::size_t decided) {
        if (options.control == nullptr)
            return;
        options.control->decided.fetch_add(decided, std::memory_order_relaxed);
        if (options.control->stop.load(std::memory_order_relaxed))
            throw SimulationCancelled();
    }
    /// The totals, worst burst and longest delay of a run decided to its end.
    static void finish(const Totals& totals, Progress& progress, bool single_key,
                       AlgorithmRun& out);
    /// Whether every request accepted before `position` in `full` was let through by `tick`.
    static bool released_before(const Trace& trace, const AlgorithmRun& full, std::size_t position,
                                Tick tick);
    /// prefix() from the decisions `full` kept, without deciding again: what a run without
    /// checkpoints to resume from (many keys) would otherwise decide from the first request.
    /// It starts from the last of the run's PrefixMarks that it can. basic_algorithm_prefix.h.
    static AlgorithmRun prefix_from_decisions(const Trace& trace, const Params& params,
                                              const AlgorithmRun& full, std::size_t count,
                                              Tick released_by);
    struct PrefixMarks;
    /// The marks of `full`, made on the first call (nothing when it has no PrefixCache).
    static const PrefixMarks* prefix_marks(const Trace& trace, const Params& params,
                                           const AlgorithmRun& full,
                                           const std::vector<Config>& configs);
    /// Feeds the decisions `full` kept for requests [first, last) to `progress` (its totals and
    /// trackers) as a run deciding them would; `latest` becomes the latest release among them
    /// and it.
    static void feed_decisions(const Trace& trace, const AlgorithmRun& full,
                               const std::vector<Config>& configs, bool single_key,
                               std::size_t first, std::size_t last, Progress& progress,
                               Rational& latest);
    /// Whether a run, with `states` and `progress` at some request, decides every later request
    /// as the old run did from its checkpoint with `old` and `old_states`, and its later worst
    /// burst and delay can be told from the old run's.
    static bool converges(const std::vector<State>& states, const Progress& progress,
                          const Progress& old, const std::vector<State>& old_states,
                          bool single_key);
    static bool same_states(const std::vector<State>& a, const std::vector<State>& b);
    /// Completes `out`, decided up to the request where it converged with checkpoint c of
    /// `previous`: the later decisions, the totals, worst burst and delay, and the later
    /// checkpoints.
    static void adopt_later(const AlgorithmRun& previous, std::size_t c, const Shift& shift,
                            const Progress& progress, AlgorithmRun& out,
                            DecisionColumns::Builder* decisions, Checkpoints* checkpoints);
    /// rerun() of a trace of more keys than keep checkpoints: each key is decided on its own,
    /// so only the requests of the keys an edit touched can come out differently. Replays those
    /// keys alone through the trace, and takes every other decision from `previous`; nothing
    /// when that does not apply (an edit of many requests or keys). basic_algorithm_keyed.h.
    static std::optional<AlgorithmRun> rerun_touched_keys(const Trace& trace, const Trace& before,
                                                          const Params& params,
                                                          const AlgorithmRun& previous,
                                                          std::size_t unchanged,
                                                          std::size_t unchanged_tail);
    /// The last checkpoint at or before request `index`.
    static std::size_t at_or_before(const Checkpoints& saved, std::size_t index);
    /// What deciding a stretch of requests reads.
    /// Decides requests [first, last), at most kCheckpointEvery of them: the run loop. kKeep: write
    /// the outcomes to outcomes[i - first] and the durations to `decisions`; kScattered: prefetch
    /// key states ahead; kOneKey: every request has the same key and configuration, so its state
    /// can live in registers for the whole stretch. Each combination is a function of its own with
    /// everything it calls inlined: inside decide_from, which is large, the compiler would leave
    /// the policy's decide() a call.
    template <bool kKeep, bool kScattered, bool kOneKey>
    [[gnu::noinline, gnu::flatten]] static void decide_stretch(const Stretch& stretch,
                                                               std::size_t first, std::size_t last,
                                                               std::vector<State>& states,
                                                               Progress& progress, Totals& sums,
                                                               AlgorithmRun::Outcome* outcomes,
                                                               DecisionColumns::Builder* decisions);
    /// A shaper's accepted request: the units it lets through, fed to the burst tracker and the
    /// worst delay.
    static UnitSegment track_release(const Config& config, const State& state, const Request& r,
                                     bool single_key, Progress& progress) {
        const UnitSegment units = P::released_units(config, state, r.cost);
        track_units(units, r, single_key, progress);
        return units;
    }
    /// track_release() of the units `units` that accepted request `r` is let through as.
    static void track_units(const UnitSegment& units, const Request& r, bool single_key,
                            Progress& progress) {
        UnitSegment tracked = units;
        if (progress.released_by != kReleasedEver) [[unlikely]] {
            // Only the units let through by then; the first comes no earlier than r.tick.
            const Int128 by = static_cast<Int128>(progress.released_by) * units.scale;
            tracked.count = static_cast<std::int64_t>(
                units.first > by
                    ? 0
                    : std::min<Int128>(units.count, (by - units.first) / units.step + 1));
        }
        if (tracked.count > 0) {
            if (single_key)
                progress.one_shaper.add(tracked);
            else
                progress.many_shapers.add(tracked);
        }
        const std::int64_t delay = units.last() - r.tick * units.scale;
        if (static_cast<Int128>(delay) * progress.worst_delay_scale >
            static_cast<Int128>(progress.worst_delay) * units.scale) {
            progress.worst_delay = delay;
            progress.worst_delay_scale = units.scale;
        }
    }
    /// Writes the rejection of request `i` into `out`, with when a retry could pass.
    static void keep_rejection(const Config& config, const State& state, const Request& r,
                               std::size_t i, AlgorithmRun::Outcome& outcome,
                               DecisionColumns::Builder& decisions) {
        const std::optional<Rational> retry = P::retry_after(config, state, r.tick, r.cost);
        outcome = retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever;
        if (retry && *retry != Rational())
            decisions.set_duration(i, *retry);
    }
    /// The latest checkpoint of `run` at or before request `index` that can be resumed from;
    /// 0 (the start) when there is none.
    static std::size_t resumable(const AlgorithmRun& run, std::size_t index);
    /// Whether requests [0, end) share one key: at once when the key table has one key, else a
    /// pass over them.
    static bool is_single_key(const Trace& trace, std::size_t end) {
        const RequestColumn& requests = trace.requests;
        return trace.keys.size() == 1 ||
               std::all_of(requests.begin(), requests.begin() + static_cast<std::ptrdiff_t>(end),
                           [&](const Request& r) { return r.key == requests.front().key; });
    }

    /// The state of `key` after requests [0, end) of the trace.
    static State replay(const Trace& trace, const Params& params, const Config& config, KeyId key,
                        std::size_t end, const AlgorithmRun* run);

    /// Every key's configuration, indexed by key id; just one when all keys share it.
    static std::vector<Config> configure_keys(const Trace& trace, const Params& params);

    /// With many keys, the states spread over more memory than the caches hold and each request
    /// would wait for its key's state to arrive: ask for it a few requests ahead in the stretch
    /// being decided, and for what the state points to once the state itself has arrived.
    static constexpr std::size_t kScatteredKeys = 4096;
    static bool scattered_keys(const Trace& trace) { return trace.keys.size() > kScatteredKeys; }
    static constexpr std::size_t kPrefetchAhead = 8;  // requests
    static void prefetch_ahead(std::span<const Request> stretch, const std::vector<State>& states,
                               std::size_t k) {
        if (k + 2 * kPrefetchAhead < stretch.size())
            __builtin_prefetch(&states[stretch[k + 2 * kPrefetchAhead].key]);
        if constexpr (requires(const State& s) { P::prefetch(s); }) {
            if (k + kPrefetchAhead < stretch.size())
                P::prefetch(states[stretch[k + kPrefetchAhead].key]);
        }
    }
};

template <class P>
std::vector<typename P::Config> BasicAlgorithm<P>::configure_keys(const Trace& trace,
                                                                  const Params& params) {
    if (params.keys.empty())
        return {P::configure(params.base)};  // one for all keys
    // Configured once per tier, not once per key: a million keys share a handful of tiers.
    const Config base = P::configure(params.base);
    std::unordered_map<const Limits*, Config> tiers;
    std::vector<Config> configs;
    configs.reserve(trace.keys.size());
    for (const std::string& key : trace.keys) {
        const Limits& limits = params.for_key(key);
        if (&limits == &params.base) {
            configs.push_back(base);
            continue;
        }
        auto it = tiers.find(&limits);
        if (it == tiers.end()) {
            it = tiers.emplace(&limits, P::configure(limits)).first;
        }
        configs.push_back(it->second);
    }
    return configs;
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::run(const Trace& trace, const Params& params,
                                    const RunOptions& options) const {
    return decide_from(trace, params, options, nullptr, 0, trace.requests.size(), nullptr);
}

template <class P>
std::size_t BasicAlgorithm<P>::at_or_before(const Checkpoints& saved, std::size_t index) {
    const auto after = std::upper_bound(saved.positions.begin(), saved.positions.end(), index);
    return after == saved.positions.begin()
               ? 0
               : static_cast<std::size_t>(after - saved.positions.begin()) - 1;
}

template <class P>
std::size_t BasicAlgorithm<P>::resumable(const AlgorithmRun& run, std::size_t index) {
    const Checkpoints* checkpoints = saved_by(run);
    if (checkpoints == nullptr)
        return 0;
    const Checkpoints& saved = *checkpoints;
    std::size_t from = at_or_before(saved, index);
    while (from > 0 && !saved.has_progress(from))
        --from;
    return from;
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::rerun(const Trace& trace, const Trace& before, const Params& params,
                                      const AlgorithmRun& previous, std::size_t unchanged,
                                      std::size_t unchanged_tail, RunControl* control) const {
    if (auto run = rerun_touched_keys(trace, before, params, previous, unchanged, unchanged_tail))
        return std::move(*run);
    RunOptions options;
    options.control = control;
    // A checkpoint at or before the first changed request saw only unchanged requests.
    const std::size_t from = resumable(previous, unchanged);
    if (from == 0 || saved_by(previous)->single_key != is_single_key(trace, trace.requests.size()))
        return run(trace, params, options);
    const std::size_t size = trace.requests.size();
    const Shift shift{
        size - unchanged_tail,
        static_cast<std::ptrdiff_t>(size) - static_cast<std::ptrdiff_t>(previous.decisions.size())};
    return decide_from(trace, params, options, &previous, from, size, &shift);
}

template <class P>
std::vector<typename P::State> BasicAlgorithm<P>::starting_states(
    const Trace& trace, const std::vector<Config>& configs, const Checkpoints* saved,
    std::size_t from) {
    if (saved != nullptr)
        return *saved->states[from];
    std::vector<State> states;
    states.reserve(trace.keys.size());
    if (scattered_keys(trace))
        advise_huge_pages(states.data(), states.capacity() * sizeof(State));
    for (std::size_t k = 0; k < trace.keys.size(); ++k)
        states.push_back(P::initial(configs[configs.size() == 1 ? 0 : k]));
    return states;
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::starting_output(const RunOptions& options,
                                                const AlgorithmRun* previous, std::size_t begin,
                                                DecisionColumns::Builder& decisions) {
    AlgorithmRun out;
    out.id = std::string(P::kId);
    out.releases = P::kShapes;
    if (options.keep_decisions && previous != nullptr)
        decisions.append(previous->decisions, 0, begin);  // shared, chunk by chunk
    return out;
}

template <class P>
std::shared_ptr<typename BasicAlgorithm<P>::Checkpoints> BasicAlgorithm<P>::starting_checkpoints(
    const Checkpoints* saved, std::size_t from, bool keep, bool single_key) {
    auto checkpoints = std::make_shared<Checkpoints>();
    checkpoints->single_key = single_key;
    if (saved != nullptr && keep) {
        const auto upto = static_cast<std::ptrdiff_t>(from);
        // Shared, not copied: a checkpoint's states and progress never change once saved.
        checkpoints->positions.assign(saved->positions.begin(), saved->positions.begin() + upto);
        checkpoints->states.assign(saved->states.begin(), saved->states.begin() + upto);
        checkpoints->progress.assign(saved->progress.begin(), saved->progress.begin() + upto);
        checkpoints->adjustments.assign(saved->adjustments.begin(),
                                        saved->adjustments.begin() + upto);
    }
    return checkpoints;
}

}  // namespace ratelab::detail

// The run loop: deciding from a checkpoint, a stretch of requests at a time.
#include "basic_algorithm_run.h"  // IWYU pragma: keep
// After an edit: how a run sees that it decides alike again, and takes the rest over.
#include "basic_algorithm_resume.h"  // IWYU pragma: keep
// After an edit of a trace of many keys: deciding again only the keys it touched.
#include "basic_algorithm_keyed.h"  // IWYU pragma: keep
// The figures of the first requests, up to the clock: prefix().
#include "basic_algorithm_prefix.h"  // IWYU pragma: keep
// A limiter's state at a tick, and why one request was decided as it was.
#include "basic_algorithm_explain.h"  // IWYU pragma: keep
// Deciding one request at a time: limiter().
#include "basic_algorithm_limiter.h"  // IWYU pragma: keep
// The registry entry of a policy: make_info<P>().
#include "basic_algorithm_info.h"  // IWYU pragma: keep
