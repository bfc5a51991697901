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
#include <memory>
#include <mutex>
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

/// Places in a run without checkpoints where prefix() can start: every kEvery requests, the
/// loop's progress there (its totals and burst trackers, when small enough to keep) and the
/// latest release among the requests before it. What a checkpoint holds, without the limiter
/// states, which prefix() does not need: it reads the decisions.
template <class P>
struct BasicAlgorithm<P>::PrefixMarks final : RunCheckpoints {
    static constexpr std::size_t kEvery = 4 * kCheckpointEvery;
    std::vector<std::size_t> positions;
    std::vector<std::shared_ptr<const Progress>> progress;  ///< null: not kept
    std::vector<Rational> latest_release;  ///< a shaper's; the start for the others
    bool single_key = false;
};

template <class P>
void BasicAlgorithm<P>::feed_decisions(const Trace& trace, const AlgorithmRun& full,
                                       const std::vector<Config>& configs, bool single_key,
                                       std::size_t first, std::size_t last, Progress& progress,
                                       Rational& latest) {
    Totals& totals = progress.totals;
    std::array<ArrivalBurst::Arrival, P::kShapes ? 1 : kCheckpointEvery> arrivals;
    std::size_t taken = 0;
    auto request = trace.requests.begin() + static_cast<std::ptrdiff_t>(first);
    for (std::size_t i = first; i < last;) {
        const DecisionColumns::ChunkView chunk = full.decisions.chunk(full.decisions.chunk_of(i));
        const std::size_t end = std::min(last, chunk.start + chunk.size);
        for (; i < end; ++i, ++request) {
            const Request& r = *request;
            if constexpr (P::kShapes) {
                if (!single_key)
                    progress.many_shapers.advance_to(r.tick);
            }
            if (chunk.outcomes[i - chunk.start] != AlgorithmRun::kAccepted) {
                ++totals.rejected;
                totals.rejected_cost += r.cost;
                continue;
            }
            ++totals.accepted;
            totals.accepted_cost += r.cost;
            if constexpr (P::kShapes) {
                const Config& config = configs[configs.size() == 1 ? 0 : r.key];
                const UnitSegment units = units_after<P>(config, r.tick, r.cost, full.delay(i));
                track_units(units, r, single_key, progress);
                const Rational release(units.last(), units.scale);
                if (release > latest)
                    latest = release;
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
}

template <class P>
auto BasicAlgorithm<P>::prefix_marks(const Trace& trace, const Params& params,
                                     const AlgorithmRun& full, const std::vector<Config>& configs)
    -> const PrefixMarks* {
    if (!full.prefix_cache)
        return nullptr;
    const std::lock_guard lock(full.prefix_cache->mutex);
    if (!full.prefix_cache->marks) {
        auto marks = std::make_shared<PrefixMarks>();
        const std::size_t size = trace.requests.size();
        marks->single_key = is_single_key(trace, size);
        Progress progress(params.base.window);
        Rational latest;
        for (std::size_t first = 0; first < size;) {
            const std::size_t last = std::min(size, first + PrefixMarks::kEvery);
            feed_decisions(trace, full, configs, marks->single_key, first, last, progress, latest);
            marks->positions.push_back(last);
            marks->progress.push_back(progress.held() <= kMaxSavedEntries
                                          ? std::make_shared<const Progress>(progress)
                                          : nullptr);
            marks->latest_release.push_back(latest);
            first = last;
        }
        full.prefix_cache->marks = std::move(marks);
    }
    return full.prefix_cache->marks->template as<PrefixMarks>();
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::prefix_from_decisions(const Trace& trace, const Params& params,
                                                      const AlgorithmRun& full, std::size_t count,
                                                      Tick released_by) {
    AlgorithmRun out;
    out.id = std::string(P::kId);
    out.releases = P::kShapes;
    // The trackers a run over requests [0, count) would choose, fed as it feeds them.
    const bool single_key = is_single_key(trace, count);
    std::vector<Config> configs;
    if constexpr (P::kShapes)
        configs = configure_keys(trace, params);
    Progress progress(params.base.window);
    std::size_t from = 0;
    // From the last mark before `count` that holds its progress, and, for a shaper, after which
    // nothing is still queued at the clock: its tracker holds every unit of the requests before.
    const PrefixMarks* marks =
        count > PrefixMarks::kEvery ? prefix_marks(trace, params, full, configs) : nullptr;
    if (marks != nullptr && marks->single_key == single_key) {
        auto m = static_cast<std::size_t>(
            std::upper_bound(marks->positions.begin(), marks->positions.end(), count) -
            marks->positions.begin());
        const Rational by(released_by);
        while (m > 0 && (!marks->progress[m - 1] || marks->latest_release[m - 1] > by))
            --m;
        if (m > 0) {
            progress = *marks->progress[m - 1];
            from = marks->positions[m - 1];
        }
    }
    progress.released_by = released_by;
    Rational latest;
    feed_decisions(trace, full, configs, single_key, from, count, progress, latest);
    finish(progress.totals, progress, single_key, out);
    return out;
}

}  // namespace ratelab::detail
