#pragma once
// Part of basic_algorithm.h, which includes it at its end: the run loop. decide_from() decides
// a run from a checkpoint (or the start), a stretch of at most kCheckpointEvery requests at a
// time, with the loop decide_stretch() made for the run's flags; finish() completes its totals.

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "basic_algorithm.h"
#include "branch_free.h"

namespace ratelab::detail {

template <class P>
void BasicAlgorithm<P>::decide_range(const Stretch& stretch, bool scattered, bool one_key,
                                     std::size_t first, std::size_t last,
                                     std::vector<State>& states, Progress& progress, Totals& totals,
                                     DecisionColumns::Builder* decisions) {
    // The flags are fixed for a whole run: one loop per combination, with no tests inside.
    const auto with = [&]<bool kKeep, bool kScattered, bool kOneKey>(
                          std::size_t from, std::size_t to, AlgorithmRun::Outcome* outcomes) {
        decide_stretch<kKeep, kScattered, kOneKey>(stretch, from, to, states, progress, totals,
                                                   outcomes, decisions);
    };
    const auto keeping = [&]<bool kKeep>(std::size_t from, std::size_t to,
                                         AlgorithmRun::Outcome* outcomes) {
        if (one_key)
            with.template operator()<kKeep, false, true>(from, to, outcomes);
        else if (scattered)
            with.template operator()<kKeep, true, false>(from, to, outcomes);
        else
            with.template operator()<kKeep, false, false>(from, to, outcomes);
    };
    if (decisions == nullptr) {
        keeping.template operator()<false>(first, last, nullptr);
        return;
    }
    // Written chunk by chunk: a stretch that crosses into the next chunk is decided in two.
    while (first < last) {
        const std::size_t count = std::min(last - first, decisions->room());
        AlgorithmRun::Outcome* outcomes = decisions->extend(count);
        keeping.template operator()<true>(first, first + count, outcomes);
        first += count;
    }
}

template <class P>
void BasicAlgorithm<P>::finish(const Totals& totals, Progress& progress, bool single_key,
                               AlgorithmRun& out) {
    out.totals = totals;
    if constexpr (P::kShapes) {
        out.worst_burst =
            single_key ? progress.one_shaper.result() : progress.many_shapers.result();
        out.totals.max_delay = Rational(progress.worst_delay, progress.worst_delay_scale);
    } else {
        out.worst_burst = progress.arrivals.result();
    }
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::decide_from(const Trace& trace, const Params& params,
                                            const RunOptions& options, const AlgorithmRun* previous,
                                            std::size_t from, std::size_t end, const Shift* shift,
                                            Tick released_by) {
    const std::vector<Config> configs = configure_keys(trace, params);
    const Checkpoints* saved = previous != nullptr ? saved_by(*previous) : nullptr;
    const std::size_t begin = saved != nullptr ? saved->positions[from] : 0;
    std::vector<State> states = starting_states(trace, configs, saved, from);
    Progress progress(params.base.window);
    if (saved != nullptr)
        progress = saved->progress_at(from);
    progress.released_by = released_by;
    DecisionColumns::Builder decisions;
    DecisionColumns::Builder* const kept = options.keep_decisions ? &decisions : nullptr;
    AlgorithmRun out =
        starting_output(options, saved != nullptr ? previous : nullptr, begin, decisions);
    // Resuming, the trackers saved in `progress` are those the whole run chose.
    const bool single_key = saved != nullptr ? saved->single_key : is_single_key(trace, end);
    const bool keep_checkpoints =
        options.keep_decisions && trace.keys.size() <= kCheckpointKeys && end > kCheckpointEvery;
    const std::shared_ptr<Checkpoints> checkpoints =
        starting_checkpoints(saved, from, keep_checkpoints, single_key);
    const bool scattered = scattered_keys(trace);
    const bool one_key = single_key && configs.size() == 1 && !scattered;
    Totals totals = progress.totals;  // written back wherever progress is saved or read
    const Stretch stretch{trace.requests, trace.durations, configs, params.rejections_count,
                          single_key};

    // After an edit, the old run's checkpoints past the changed requests are places where this
    // run may find itself in the same state as the old one: from there on it decides alike.
    // `probe` is the next such checkpoint; probes_end when there is none left (or none at all).
    const bool probing = saved != nullptr && shift != nullptr && !(P::kShapes && !single_key);
    const std::size_t probes_end = probing ? saved->positions.size() : 0;
    const auto probe_at = [&](std::size_t c) {
        return static_cast<std::size_t>(static_cast<std::ptrdiff_t>(saved->positions[c]) +
                                        shift->shift);
    };
    const auto usable = [&](std::size_t c) {
        return probe_at(c) >= std::max(begin + 1, shift->settled) && saved->has_progress(c);
    };
    std::size_t probe = probing ? from + 1 : probes_end;
    while (probe < probes_end && !usable(probe))
        ++probe;

    std::size_t decided = 0;
    for (std::size_t first = begin; first < end;) {
        progress.totals = totals;
        if (probe < probes_end && probe_at(probe) == first) {
            if (converges(states, progress, saved->progress_at(probe), *saved->states[probe],
                          single_key)) {
                adopt_later(*previous, probe, *shift, progress, out, kept,
                            keep_checkpoints ? checkpoints.get() : nullptr);
                if (kept != nullptr)
                    out.decisions = decisions.finish();
                if (keep_checkpoints)
                    out.checkpoints = checkpoints;
                out.requests_decided = decided;
                return out;  // the rest, totals and bursts included, are the old run's
            }
            do {
                ++probe;
            } while (probe < probes_end && !usable(probe));
        }
        if (keep_checkpoints && (first == begin || first % kCheckpointEvery == 0)) {
            checkpoints->save(first, std::make_shared<const std::vector<State>>(states),
                              progress.held() <= kMaxSavedEntries
                                  ? std::make_shared<const Progress>(progress)
                                  : nullptr,
                              Adjustment{});
        }
        std::size_t last = std::min(end, (first / kCheckpointEvery + 1) * kCheckpointEvery);
        if (probe < probes_end)
            last = std::min(last, probe_at(probe));
        decide_range(stretch, scattered, one_key, first, last, states, progress, totals, kept);
        decided += last - first;
        report(options, last - first);
        first = last;
    }
    if (keep_checkpoints)
        out.checkpoints = checkpoints;
    out.requests_decided = decided;
    if (kept != nullptr)
        out.decisions = decisions.finish();
    finish(totals, progress, single_key, out);
    return out;
}

template <class P>
template <bool kKeep, bool kScattered, bool kOneKey>
void BasicAlgorithm<P>::decide_stretch(const Stretch& stretch, std::size_t first, std::size_t last,
                                       std::vector<State>& states, Progress& progress, Totals& sums,
                                       AlgorithmRun::Outcome* outcomes,
                                       DecisionColumns::Builder* decisions) {
    if (first >= last)
        return;
    const RequestColumn& requests = stretch.requests;
    // Read through a local pointer: stores into the burst trackers' buffers or the outcome
    // columns could otherwise alias the column's, and make the loop load it again each time.
    // The stretch lies in one chunk of the column, or is copied together when it spans two.
    std::span<const Request> together = requests.contiguous(first, last);
    std::vector<Request> joined;
    if (together.size() < last - first) {
        joined.assign(requests.begin() + static_cast<std::ptrdiff_t>(first),
                      requests.begin() + static_cast<std::ptrdiff_t>(last));
        together = joined;
    }
    const Request* const request_at = together.data();  // request_at[0] is request `first`
    const KeyId only_key = request_at[0].key;
    State one_state = kOneKey ? std::move(states[only_key]) : State{};
    const Config one_config = stretch.configs.front();
    const bool rejections_count = stretch.rejections_count;
    const bool single_key = stretch.single_key;
    // Accepts and rejections are often as likely as each other: counted without a branch, and
    // the rejections from those at the end.
    std::int64_t accepted_count = 0;
    std::int64_t accepted_cost = 0;
    std::int64_t all_cost = 0;
    // A stretch's accepted arrivals, for the burst tracker (shapers track their units instead).
    std::array<ArrivalBurst::Arrival, P::kShapes ? 1 : kCheckpointEvery> accepted_arrivals;
    std::size_t accepted_so_far = 0;
    assert(last - first <= kCheckpointEvery);
    for (std::size_t i = first; i < last; ++i) {
        if constexpr (kScattered)
            prefetch_ahead(together, states, i - first);
        const Request& r = request_at[i - first];
        const Config& config =
            kOneKey ? one_config : stretch.configs[stretch.configs.size() == 1 ? 0 : r.key];
        State& state = kOneKey ? one_state : states[r.key];
        if constexpr (P::kShapes) {
            if (!single_key)
                progress.many_shapers.advance_to(r.tick);
        }
        // Only a policy that holds reads the request's duration.
        Tick duration = 0;
        if constexpr (Holds<P>)
            duration = stretch.durations.empty() ? 0 : stretch.durations[i];
        const bool accepted =
            decide_request<P>(config, state, r.tick, r.cost, duration, rejections_count);
        const std::int64_t cost = r.cost;
        accepted_count += accepted;
        accepted_cost += only_if(accepted, cost);
        all_cost += cost;
        if constexpr (P::kShapes) {
            if (accepted) {
                const UnitSegment units = track_release(config, state, r, single_key, progress);
                if constexpr (kKeep) {
                    const std::int64_t delay = units.last() - r.tick * units.scale;
                    if (delay != 0)
                        decisions->set_duration(i, Rational(delay, units.scale));
                }
            }
        } else {
            accepted_arrivals[accepted_so_far] = ArrivalBurst::Arrival{r.tick, cost};
            accepted_so_far += accepted;
        }
        if constexpr (kKeep) {
            if (accepted)
                outcomes[i - first] = AlgorithmRun::kAccepted;
            else
                keep_rejection(config, state, r, i, outcomes[i - first], *decisions);
        }
    }
    if constexpr (!P::kShapes)
        progress.arrivals.add(accepted_arrivals.data(), accepted_so_far);
    const auto count = static_cast<std::int64_t>(last - first);
    sums.accepted += accepted_count;
    sums.accepted_cost += accepted_cost;
    sums.rejected += count - accepted_count;
    sums.rejected_cost += all_cost - accepted_cost;
    if constexpr (kOneKey)
        states[only_key] = std::move(one_state);
}

}  // namespace ratelab::detail
