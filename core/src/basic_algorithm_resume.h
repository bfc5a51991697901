#pragma once
// Part of basic_algorithm.h, which includes it at its end: after an edit, how a run sees that
// it is back in the state the run before the edit had at one of its checkpoints, and how it then
// takes the rest of its result over from that run.

#include <algorithm>
#include <optional>
#include <vector>

#include "basic_algorithm.h"

namespace ratelab::detail {

template <class P>
std::optional<Burst> BasicAlgorithm<P>::Progress::best(bool single_key) const {
    if constexpr (P::kShapes) {
        if (!single_key)
            return std::nullopt;  // the merged tracker's pending units are not compared
        return one_shaper.best();
    } else {
        return arrivals.best();
    }
}

template <class P>
void BasicAlgorithm<P>::Progress::set_best(const Burst& best) {
    if constexpr (P::kShapes) {
        one_shaper.set_best(best);
    } else {
        arrivals.set_best(best);
    }
}

template <class P>
bool BasicAlgorithm<P>::Progress::same_window(const Progress& other) const {
    if constexpr (P::kShapes)
        return one_shaper.same_window(other.one_shaper);
    else
        return arrivals.same_window(other.arrivals);
}

template <class P>
bool BasicAlgorithm<P>::Progress::delay_below(const Progress& other) const {
    return static_cast<Int128>(worst_delay) * other.worst_delay_scale <
           static_cast<Int128>(other.worst_delay) * worst_delay_scale;
}

template <class P>
bool BasicAlgorithm<P>::same_states(const std::vector<State>& a, const std::vector<State>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if constexpr (requires(const State& s) { P::same(s, s); }) {
            if (!P::same(a[k], b[k]))
                return false;
        } else if (!(a[k] == b[k])) {
            return false;
        }
    }
    return true;
}

template <class P>
bool BasicAlgorithm<P>::converges(const std::vector<State>& states, const Progress& progress,
                                  const Progress& old, const std::vector<State>& old_states,
                                  bool single_key) {
    // Later bursts and delays are the old run's, which are known only where they beat what the
    // old run had found by here; so what this run has found by here must be at least as much.
    const std::optional<Burst> best = progress.best(single_key);
    if (!best || best->cost < old.best(single_key)->cost)
        return false;
    if (P::kShapes && progress.delay_below(old))
        return false;
    return progress.same_window(old) && same_states(states, old_states);
}

template <class P>
void BasicAlgorithm<P>::adopt_later(const AlgorithmRun& previous, std::size_t c, const Shift& shift,
                                    const Progress& progress, AlgorithmRun& out,
                                    DecisionColumns::Builder* decisions, Checkpoints* checkpoints) {
    const Checkpoints& saved = *saved_by(previous);
    const Progress old = saved.progress_at(c);
    const std::size_t old_at = saved.positions[c];
    if (decisions != nullptr) {
        // This run's decisions up to the convergence point, then the old run's: their chunks
        // are shared, not copied.
        decisions->append(previous.decisions, old_at, previous.decisions.size());
    }
    // Counts: this run's so far, plus what the old run counted after this point.
    const Totals here = progress.totals;
    Adjustment adjustment;
    adjustment.accepted = here.accepted - old.totals.accepted;
    adjustment.rejected = here.rejected - old.totals.rejected;
    adjustment.accepted_cost = here.accepted_cost - old.totals.accepted_cost;
    adjustment.rejected_cost = here.rejected_cost - old.totals.rejected_cost;
    // A burst or delay the old run found later is this run's too where it beats this run's.
    adjustment.best = *progress.best(true);
    adjustment.worst_delay = progress.worst_delay;
    adjustment.worst_delay_scale = progress.worst_delay_scale;
    out.totals = here;
    out.totals.accepted = previous.totals.accepted + adjustment.accepted;
    out.totals.rejected = previous.totals.rejected + adjustment.rejected;
    out.totals.accepted_cost = previous.totals.accepted_cost + adjustment.accepted_cost;
    out.totals.rejected_cost = previous.totals.rejected_cost + adjustment.rejected_cost;
    out.worst_burst =
        previous.worst_burst.cost > adjustment.best->cost ? previous.worst_burst : *adjustment.best;
    if constexpr (P::kShapes) {
        const Rational delay(progress.worst_delay, progress.worst_delay_scale);
        out.totals.max_delay = std::max(delay, previous.totals.max_delay);
    }
    if (checkpoints == nullptr)
        return;
    for (std::size_t k = c; k < saved.positions.size(); ++k) {
        // The old run's states and progress, shared; what this run knows better goes with them.
        checkpoints->save(
            static_cast<std::size_t>(static_cast<std::ptrdiff_t>(saved.positions[k]) + shift.shift),
            saved.states[k], saved.progress[k], saved.adjustments[k].then(adjustment));
    }
}

template <class P>
void BasicAlgorithm<P>::Adjustment::apply(Progress& progress) const {
    progress.totals.accepted += accepted;
    progress.totals.rejected += rejected;
    progress.totals.accepted_cost += accepted_cost;
    progress.totals.rejected_cost += rejected_cost;
    if (best) {
        const std::optional<Burst> found = progress.best(true);
        if (!found || found->cost <= best->cost)
            progress.set_best(*best);
    }
    if (static_cast<Int128>(progress.worst_delay) * worst_delay_scale <
        static_cast<Int128>(worst_delay) * progress.worst_delay_scale) {
        progress.worst_delay = worst_delay;
        progress.worst_delay_scale = worst_delay_scale;
    }
}

template <class P>
typename BasicAlgorithm<P>::Adjustment BasicAlgorithm<P>::Adjustment::then(
    const Adjustment& later) const {
    Adjustment both = later;
    both.accepted += accepted;
    both.rejected += rejected;
    both.accepted_cost += accepted_cost;
    both.rejected_cost += rejected_cost;
    // Applying this one, then `later`: this one's burst survives only where it costs more.
    if (best && (!later.best || best->cost > later.best->cost))
        both.best = best;
    if (static_cast<Int128>(worst_delay) * later.worst_delay_scale >
        static_cast<Int128>(later.worst_delay) * worst_delay_scale) {
        both.worst_delay = worst_delay;
        both.worst_delay_scale = worst_delay_scale;
    }
    return both;
}

}  // namespace ratelab::detail
