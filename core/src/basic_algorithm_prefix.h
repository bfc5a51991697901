#pragma once
// Part of basic_algorithm.h, which includes it at its end: the totals, worst burst and longest
// delay of the first requests of a run, with a shaper's units cut at the clock (prefix()).
//
// A run that kept checkpoints resumes from the last one before the requests asked for, and
// decides a few thousand requests. A run over many keys keeps none, but it kept every decision:
// the figures of any prefix are counted from those, without deciding anything again. A shaper's
// units are rebuilt from the delay each accepted request kept (units_after()).

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "basic_algorithm.h"
#include "basic_algorithm_keyed.h"

namespace ratelab::detail {

template <class P>
AlgorithmRun BasicAlgorithm<P>::prefix(const Trace& trace, const Params& params,
                                       const AlgorithmRun& full, std::size_t count,
                                       std::optional<Tick> released_by) const {
    count = std::min(count, trace.requests.size());
    if (saved_by(full) == nullptr && full.has_decisions() &&
        full.decisions.size() == trace.requests.size())
        return prefix_from_decisions(trace, params, full, count,
                                     released_by.value_or(kReleasedEver));
    RunOptions summary;
    summary.keep_decisions = false;
    std::size_t from = resumable(full, count);
    if (!P::kShapes || !released_by)
        return decide_from(trace, params, summary, from == 0 ? nullptr : &full, from, count,
                           nullptr);
    // A checkpoint's burst tracker holds every unit of the requests before it: resume from one
    // whose requests have all been let through, so that none of it is still queued.
    while (from > 0) {
        const Checkpoints& saved = *saved_by(full);
        if (saved.has_progress(from) &&
            released_before(trace, full, saved.positions[from], *released_by))
            break;
        --from;
    }
    return decide_from(trace, params, summary, from == 0 ? nullptr : &full, from, count, nullptr,
                       *released_by);
}

template <class P>
bool BasicAlgorithm<P>::released_before(const Trace& trace, const AlgorithmRun& full,
                                        std::size_t position, Tick tick) {
    // Each key's queue lets its requests through in order: its last accepted one is its latest.
    std::vector<bool> seen(trace.keys.size(), false);
    std::size_t unseen = trace.keys.size();
    const Rational by(tick);
    for (std::size_t i = position; i > 0 && unseen > 0; --i) {
        const Request& r = trace.requests[i - 1];
        if (seen[r.key] || !full.accepted(i - 1))
            continue;
        if (full.release(trace, i - 1) > by)
            return false;
        seen[r.key] = true;
        --unseen;
    }
    return true;
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::prefix_from_decisions(const Trace& trace, const Params& params,
                                                      const AlgorithmRun& full, std::size_t count,
                                                      Tick released_by) {
    AlgorithmRun out;
    out.id = std::string(P::kId);
    out.releases = P::kShapes;
    // The trackers a run over requests [0, count) would choose, fed as it feeds them.
    Progress progress(params.base.window);
    progress.released_by = released_by;
    const bool single_key = is_single_key(trace, count);
    std::vector<Config> configs;
    if constexpr (P::kShapes)
        configs = configure_keys(trace, params);
    std::array<ArrivalBurst::Arrival, P::kShapes ? 1 : kCheckpointEvery> arrivals;
    std::size_t taken = 0;
    Totals totals;
    std::int64_t all_cost = 0;
    auto request = trace.requests.begin();
    for (std::size_t i = 0; i < count;) {
        const DecisionColumns::ChunkView chunk = full.decisions.chunk(full.decisions.chunk_of(i));
        const std::size_t end = std::min(count, chunk.start + chunk.size);
        for (; i < end; ++i, ++request) {
            const Request& r = *request;
            all_cost += r.cost;
            if constexpr (P::kShapes) {
                if (!single_key)
                    progress.many_shapers.advance_to(r.tick);
            }
            if (chunk.outcomes[i - chunk.start] != AlgorithmRun::kAccepted)
                continue;
            ++totals.accepted;
            totals.accepted_cost += r.cost;
            if constexpr (P::kShapes) {
                const Config& config = configs[configs.size() == 1 ? 0 : r.key];
                track_units(units_after<P>(config, r.tick, r.cost, full.delay(i)), r, single_key,
                            progress);
            } else {
                arrivals[taken++] = ArrivalBurst::Arrival{r.tick, r.cost};
                if (taken == arrivals.size()) {
                    progress.arrivals.add(arrivals.data(), taken);
                    taken = 0;
                }
            }
        }
    }
    if constexpr (!P::kShapes)
        progress.arrivals.add(arrivals.data(), taken);
    totals.rejected = static_cast<std::int64_t>(count) - totals.accepted;
    totals.rejected_cost = all_cost - totals.accepted_cost;
    finish(totals, progress, single_key, out);
    return out;
}

}  // namespace ratelab::detail
