#include "ratelab/key_figures.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "edited_keys.h"
#include "key_tally.h"
#include "keyed_burst.h"
#include "share_out.h"

namespace ratelab {

using detail::count_keys;
using detail::judge;

namespace {

/// How many requests the keys `keys` marks made: what counting them again reads.
std::size_t requests_of(const SimulationResult& result, const std::vector<char>& keys) {
    const KeyIndex* index = result.runs.empty() ? nullptr : result.runs.front().key_index.get();
    if (index == nullptr || !index->fits(*result.trace))
        return result.trace->requests.size();  // found by reading the trace
    std::size_t requests = 0;
    for (KeyId key = 0; key < keys.size(); ++key)
        requests += keys[key] != 0 ? index->of(key).size() : 0;
    return requests;
}

}  // namespace

std::optional<KeyId> only_key(const Trace& trace) {
    if (trace.requests.empty())
        return std::nullopt;
    if (trace.keys.size() == 1)
        return KeyId{0};
    const KeyId key = trace.requests.front().key;
    if (std::any_of(trace.requests.begin(), trace.requests.end(),
                    [key](const Request& r) { return r.key != key; })) {
        return std::nullopt;
    }
    return key;
}

bool key_figures_need_decisions(const Trace& trace, const Params& params) {
    if (trace.requests.empty())
        return false;
    const auto key = only_key(trace);
    return !key || params.for_key(trace.key_name(*key)).window != params.base.window;
}

bool key_figures_need_decisions(const SimulationResult& result) {
    if (result.trace->requests.empty())
        return false;
    return !result.sole_key ||
           result.params.for_key(result.trace->key_name(*result.sole_key)).window !=
               result.params.base.window;
}

bool has_key_figures(const SimulationResult& result, std::size_t lane) {
    return lane < result.runs.size() &&
           (result.runs[lane].has_decisions() || !key_figures_need_decisions(result));
}

LaneKeys key_figures(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                     const AlgorithmRun* prefix_run) {
    if (!has_key_figures(result, lane))
        throw SimulationError("lane " + std::to_string(lane) +
                              " kept no decisions to count its keys from");
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    const Params& params = result.lane_params[lane];
    const std::size_t count =
        std::min(scope.count.value_or(trace.requests.size()), trace.requests.size());
    LaneKeys out;
    if (count == 0)
        return out;
    if (!key_figures_need_decisions(result)) {
        // One key, counted over the trace's W: the lane's own figures are the key's.
        const bool whole = count == trace.requests.size() && !scope.released_by;
        const AlgorithmRun* figures = prefix_run != nullptr ? prefix_run : whole ? &run : nullptr;
        if (figures != nullptr) {
            const KeyId key = trace.requests.front().key;
            const Limits& limits = params.for_key(trace.key_name(key));
            out.keys.push_back(KeyFigures{key, limits.limit, limits.window,
                                          static_cast<std::int64_t>(count), figures->totals,
                                          figures->worst_burst});
            judge(out);
            return out;
        }
    }
    if (!run.has_decisions())
        throw SimulationError("lane " + std::to_string(lane) +
                              ": a part of a run without decisions needs its own run");
    return count_keys(result, lane, scope, nullptr);
}

std::vector<std::optional<LaneKeys>> every_lane_key_figures(const SimulationResult& result,
                                                            const KeyScope& scope,
                                                            const SimulationResult* prefix) {
    std::vector<std::optional<LaneKeys>> lanes(result.runs.size());
    const std::size_t requests = result.trace->requests.size();
    const std::size_t count = std::min(scope.count.value_or(requests), requests);
    if (key_figures_need_decisions(result) && count > 0 && detail::can_count_every_lane(result)) {
        // Key by key: each key's requests read once for every lane, the keys shared out.
        auto counted =
            detail::count_every_lane(result, scope, nullptr, detail::threads_for(count, 0, count));
        for (std::size_t lane = 0; lane < lanes.size(); ++lane)
            lanes[lane] = std::move(counted[lane]);
        return lanes;
    }
    detail::share_out(
        lanes.size(), detail::threads_for(count, 0, lanes.size()), [&](std::size_t lane) {
            if (has_key_figures(result, lane)) {
                lanes[lane] = key_figures(result, lane, scope,
                                          prefix != nullptr ? &prefix->runs[lane] : nullptr);
            }
        });
    return lanes;
}

namespace {

/// The keys the edit that made `result` from `before` touched: those whose requests it
/// changed (keys_changed_by()). Nothing when the figures of other keys may have changed too (a
/// different key table, lanes or parameters) or when the edit touched too many to be worth it.
std::optional<std::vector<char>> touched_keys(const SimulationResult& result,
                                              const SimulationResult& before) {
    constexpr std::size_t kMostReplaced = 4096;  // requests on either side of the edit
    const Trace& trace = *result.trace;
    const Trace& old = *before.trace;
    if (result.edited_from.lock() != before.trace || result.lanes != before.lanes ||
        result.lane_params != before.lane_params || trace.keys != old.keys)
        return std::nullopt;
    const std::size_t first = result.edit.first;
    const std::size_t tail = result.edit.tail;
    if (first + tail > trace.requests.size() || first + tail > old.requests.size() ||
        trace.requests.size() - tail - first > kMostReplaced ||
        old.requests.size() - tail - first > kMostReplaced)
        return std::nullopt;
    // A key whose requests there only moved (another's request moved past them) keeps its
    // figures.
    return detail::keys_changed_by(trace, old, first, trace.requests.size() - tail,
                                   old.requests.size() - tail);
}

/// Where each of `fresh`'s keys sits in `before` (both sorted by name, `earlier` their order),
/// when `before` holds every one of them and no other `touched` key: the edit neither gave a key
/// its first request nor took a key's last. Nothing otherwise.
template <class Earlier>
std::optional<std::vector<std::size_t>> same_places(const LaneKeys& before, const LaneKeys& fresh,
                                                    const std::vector<char>& touched,
                                                    const Earlier& earlier) {
    const auto place = [&](KeyId key) -> std::optional<std::size_t> {
        const auto it = std::lower_bound(
            before.keys.begin(), before.keys.end(), key,
            [&](const KeyFigures& figures, KeyId k) { return earlier(figures.key, k); });
        if (it == before.keys.end() || it->key != key)
            return std::nullopt;
        return static_cast<std::size_t>(it - before.keys.begin());
    };
    std::vector<std::size_t> places;
    places.reserve(fresh.keys.size());
    for (const KeyFigures& key : fresh.keys) {
        const auto at = place(key.key);
        if (!at)
            return std::nullopt;  // the key's first request
        places.push_back(*at);
    }
    // Every fresh key was in `before`; no touched key there may be missing from them.
    std::size_t touched_before = 0;
    for (KeyId key = 0; key < touched.size(); ++key)
        touched_before += touched[key] != 0 && place(key) ? 1 : 0;
    if (touched_before != places.size())
        return std::nullopt;  // a key's last request
    return places;
}

/// `before` with the figures of the `touched` keys replaced by `fresh` (theirs, counted again):
/// both sorted by name, and so is the result. `rank`, when not empty, gives each key's place in
/// the order of names, which spares comparing the names themselves. When the edit left the same
/// keys with requests, the result shares all of `before`'s chunks but those of the touched keys.
LaneKeys patched(const Trace& trace, const LaneKeys& before, const LaneKeys& fresh,
                 const std::vector<char>& touched, const std::vector<std::uint32_t>& rank) {
    const auto earlier = [&](KeyId a, KeyId b) {
        return rank.empty() ? trace.key_name(a) < trace.key_name(b) : rank[a] < rank[b];
    };
    LaneKeys out;
    std::vector<std::size_t> fresh_at;      // where the fresh figures went
    std::optional<std::size_t> kept_worst;  // where the worst key before went, if untouched
    if (auto places = same_places(before, fresh, touched, earlier)) {
        out.keys = before.keys;
        for (std::size_t i = 0; i < places->size(); ++i)
            out.keys.edit((*places)[i]) = fresh.keys[i];
        fresh_at = std::move(*places);
        if (before.worst && touched[before.keys[*before.worst].key] == 0)
            kept_worst = before.worst;
    } else {
        std::vector<KeyFigures> merged;
        merged.reserve(before.keys.size() + fresh.keys.size());
        fresh_at.reserve(fresh.keys.size());
        auto next = fresh.keys.begin();
        for (std::size_t i = 0; i < before.keys.size(); ++i) {
            const KeyFigures& key = before.keys[i];
            if (touched[key.key] != 0)
                continue;
            for (; next != fresh.keys.end() && earlier(next->key, key.key); ++next) {
                fresh_at.push_back(merged.size());
                merged.push_back(*next);
            }
            if (i == before.worst)
                kept_worst = merged.size();
            merged.push_back(key);
        }
        for (; next != fresh.keys.end(); ++next) {
            fresh_at.push_back(merged.size());
            merged.push_back(*next);
        }
        out.keys = SharedColumn<KeyFigures>(std::move(merged));
    }
    if (before.worst && !kept_worst) {
        judge(out);  // the worst key was touched: any other may be the worst now
        return out;
    }
    // The untouched keys' worst is the worst before (the first by name among equals), so the
    // worst now is it or a fresh one; and some key is over its limit exactly when the worst is.
    out.worst = kept_worst;
    for (const std::size_t at : fresh_at) {
        const KeyFigures& key = out.keys[at];
        if (key.worst_burst.cost == 0)
            continue;
        if (!out.worst || detail::relatively_worse(key, out.keys[*out.worst]) ||
            (at < *out.worst && !detail::relatively_worse(out.keys[*out.worst], key))) {
            out.worst = at;
        }
    }
    out.over_limit = std::any_of(fresh_at.begin(), fresh_at.end(),
                                 [&](std::size_t at) { return out.keys[at].over_limit(); }) ||
                     (kept_worst && out.keys[*kept_worst].over_limit());
    return out;
}

/// Every lane's figures over `scope` from `before_keys`, its figures over another scope or
/// before an edit, where only the `touched` keys' figures can differ: those are counted again.
std::vector<std::optional<LaneKeys>> patched_lanes(
    const SimulationResult& result, const KeyScope& scope,
    const std::vector<std::optional<LaneKeys>>& before_keys, const std::vector<char>& touched) {
    std::vector<std::optional<LaneKeys>> lanes(result.runs.size());
    std::vector<std::uint32_t> rank;
    const KeyIndex* index = result.runs.empty() ? nullptr : result.runs.front().key_index.get();
    if (index != nullptr && index->fits(*result.trace)) {
        rank.resize(result.trace->keys.size());
        std::uint32_t place = 0;
        for (const KeyId key : index->by_name())
            rank[key] = place++;
    }
    detail::share_out(
        lanes.size(), detail::threads_for(requests_of(result, touched), 0, lanes.size()),
        [&](std::size_t lane) {
            if (!before_keys[lane] || !result.runs[lane].has_decisions()) {
                if (has_key_figures(result, lane))
                    lanes[lane] = key_figures(result, lane, scope);
                return;
            }
            lanes[lane] = patched(*result.trace, *before_keys[lane],
                                  count_keys(result, lane, scope, &touched), touched, rank);
        });
    return lanes;
}

}  // namespace

std::vector<std::optional<LaneKeys>> every_lane_key_figures_after_edit(
    const SimulationResult& result, const SimulationResult& before,
    const std::vector<std::optional<LaneKeys>>& before_keys) {
    const auto touched =
        key_figures_need_decisions(result) && before_keys.size() == result.runs.size()
            ? touched_keys(result, before)
            : std::nullopt;
    if (!touched)
        return every_lane_key_figures(result);
    // Each key is decided on its own: only the touched keys' requests were decided again.
    return patched_lanes(result, {}, before_keys, *touched);
}

std::vector<std::optional<LaneKeys>> every_lane_key_figures_moved(
    const SimulationResult& result, const KeyScope& from,
    const std::vector<std::optional<LaneKeys>>& from_keys, const KeyScope& scope) {
    const Trace& trace = *result.trace;
    const std::size_t size = trace.requests.size();
    if (!key_figures_need_decisions(result) || from_keys.size() != result.runs.size())
        return every_lane_key_figures(result, scope);
    const std::size_t count_from = std::min(from.count.value_or(size), size);
    const std::size_t count = std::min(scope.count.value_or(size), size);
    // The requests in one scope and not the other; and when the clocks differ, those whose
    // units a shaper may let through between them: no unit leaves later than the longest delay
    // after its request.
    std::size_t first = std::min(count_from, count);
    const std::size_t last = std::max(count_from, count);
    if (from.released_by != scope.released_by) {
        constexpr Tick kEver = std::numeric_limits<Tick>::max();
        const Tick earlier =
            std::min(from.released_by.value_or(kEver), scope.released_by.value_or(kEver));
        for (const AlgorithmRun& run : result.runs) {
            if (run.releases)
                first =
                    std::min(first, detail::first_at(trace, earlier - run.totals.max_delay.ceil()));
        }
    }
    // Past an eighth of the trace, counting every key is about as quick.
    constexpr std::size_t kMostShare = 8;
    if ((last - first) * kMostShare > size)
        return every_lane_key_figures(result, scope);
    std::vector<char> touched(trace.keys.size(), 0);
    for (std::size_t i = first; i < last;) {
        const std::span<const Request> piece = trace.requests.contiguous(i, last);
        for (const Request& r : piece)
            touched[r.key] = 1;
        i += piece.size();
    }
    return patched_lanes(result, scope, from_keys, touched);
}

std::vector<char> key_mask(std::size_t key_count, const std::vector<KeyId>& keys) {
    std::vector<char> mask(key_count, 0);
    for (const KeyId key : keys) {
        if (key < key_count)
            mask[key] = 1;
    }
    return mask;
}

LaneKeys only_keys(const LaneKeys& lane, const std::vector<char>& shown) {
    LaneKeys out;
    for (const KeyFigures& key : lane.keys) {
        if (key.key < shown.size() && shown[key.key] != 0)
            out.keys.push_back(key);
    }
    judge(out);
    return out;
}

Totals sum_totals(const LaneKeys& lane) {
    Totals sum;
    for (const KeyFigures& key : lane.keys) {
        sum.accepted += key.totals.accepted;
        sum.rejected += key.totals.rejected;
        sum.accepted_cost += key.totals.accepted_cost;
        sum.rejected_cost += key.totals.rejected_cost;
        sum.max_delay = std::max(sum.max_delay, key.totals.max_delay);
    }
    return sum;
}

JudgedBurst judged_burst(const SimulationResult& result, std::size_t lane, const LaneKeys* keys,
                         const AlgorithmRun& shown) {
    const Trace& trace = *result.trace;
    const Params& params = result.lane_params.at(lane);
    if (keys != nullptr) {
        if (const KeyFigures* worst = keys->worst_key())
            return JudgedBurst{worst->worst_burst, worst->limit, worst->window, worst->key};
        if (keys->keys.size() == 1) {  // one key, nothing accepted yet
            const KeyFigures& only = keys->keys.front();
            return JudgedBurst{only.worst_burst, only.limit, only.window, only.key};
        }
    }
    if (const auto key = result.sole_key) {
        const Limits& limits = params.for_key(trace.key_name(*key));
        if (limits.window == params.base.window)
            return JudgedBurst{shown.worst_burst, limits.limit, limits.window, key};
    } else if (trace.requests.empty()) {
        return JudgedBurst{shown.worst_burst, params.base.limit, params.base.window, {}};
    }
    return JudgedBurst{shown.worst_burst, 0, params.base.window, {}};
}

}  // namespace ratelab
