#include "ratelab/key_figures.h"

#include <algorithm>
#include <limits>
#include <span>
#include <string>
#include <type_traits>

#include "burst.h"
#include "keyed_burst.h"
#include "ratelab/registry.h"
#include "share_out.h"

namespace ratelab {
namespace {

/// Whether `a` is over its limit by more than `b` is: a.cost / a.limit > b.cost / b.limit.
bool relatively_worse(const KeyFigures& a, const KeyFigures& b) {
    return static_cast<Int128>(a.worst_burst.cost) * b.limit >
           static_cast<Int128>(b.worst_burst.cost) * a.limit;
}

/// Finds the lane's worst key and whether any is over its limit, the keys sorted by name.
void judge(LaneKeys& lane) {
    lane.worst.reset();
    lane.over_limit = false;
    for (std::size_t i = 0; i < lane.keys.size(); ++i) {
        const KeyFigures& key = lane.keys[i];
        lane.over_limit = lane.over_limit || key.over_limit();
        if (key.worst_burst.cost > 0 &&
            (!lane.worst || relatively_worse(key, lane.keys[*lane.worst]))) {
            lane.worst = i;
        }
    }
}

void sort_and_judge(const Trace& trace, LaneKeys& lane) {
    std::sort(lane.keys.begin(), lane.keys.end(), [&](const KeyFigures& a, const KeyFigures& b) {
        return trace.key_name(a.key) < trace.key_name(b.key);
    });
    judge(lane);
}

/// What one pass over a lane's decisions gathers for one key.
template <class Tracker>
struct KeyTally {
    explicit KeyTally(Tick window) : burst(window) {}
    std::int64_t requests = 0;
    Totals totals;
    Tracker burst;
};

/// The ids of the keys in `counted` (non-zero for a key with requests), sorted by name.
std::vector<KeyId> by_name(const Trace& trace, const std::vector<std::int64_t>& counted) {
    std::vector<KeyId> keys;
    for (KeyId key = 0; key < counted.size(); ++key) {
        if (counted[key] > 0)
            keys.push_back(key);
    }
    std::sort(keys.begin(), keys.end(),
              [&](KeyId a, KeyId b) { return trace.key_name(a) < trace.key_name(b); });
    return keys;
}

/// Every key's figures over requests [0, count) from the lane's decisions, in one pass in trace
/// order: the requests and decisions are read where they lie, and each key's totals and burst
/// tracker sit together in a table indexed by key. An accepted request goes to its key's tracker
/// as `unit(tracker, totals, request, read(index))`: `read` fetches what else of the run it needs.
/// Given `only` (request indexes, ascending), just those requests are read, by index, and the
/// figures are those of their keys.
template <class Tracker, class Read, class Unit>
LaneKeys tally_in_order(const Trace& trace, const AlgorithmRun& run, const Params& params,
                        std::size_t count, const Read& read, const Unit& unit,
                        const std::vector<std::uint32_t>* only) {
    std::vector<KeyTally<Tracker>> tallies;
    tallies.reserve(trace.keys.size());
    std::vector<Limits> limits;
    limits.reserve(trace.keys.size());
    for (KeyId key = 0; key < trace.keys.size(); ++key) {
        limits.push_back(params.for_key(trace.key_name(key)));
        tallies.emplace_back(limits.back().window);
    }
    const auto visit = [&](const Request& r, std::size_t index, AlgorithmRun::Outcome outcome) {
        KeyTally<Tracker>& key = tallies[r.key];
        ++key.requests;
        if (outcome == AlgorithmRun::kAccepted) {
            ++key.totals.accepted;
            key.totals.accepted_cost += r.cost;
            unit(key.burst, key.totals, r, read(index));
        } else {
            ++key.totals.rejected;
            key.totals.rejected_cost += r.cost;
        }
    };
    const DecisionColumns& decisions = run.decisions;
    if (only != nullptr) {
        for (const std::uint32_t index : *only) {
            if (index >= count)
                break;
            visit(trace.requests[index], index, decisions.outcome(index));
        }
    } else {
        auto request = trace.requests.begin();
        for (std::size_t c = 0; c < decisions.chunk_count(); ++c) {
            const DecisionColumns::ChunkView chunk = decisions.chunk(c);
            if (chunk.start >= count)
                break;
            const std::size_t size = std::min(chunk.size, count - chunk.start);
            for (std::size_t k = 0; k < size; ++k, ++request)
                visit(*request, chunk.start + k, chunk.outcomes[k]);
        }
    }
    std::vector<std::int64_t> counted(tallies.size());
    for (KeyId key = 0; key < tallies.size(); ++key)
        counted[key] = tallies[key].requests;
    LaneKeys out;
    for (const KeyId key : by_name(trace, counted)) {
        KeyTally<Tracker>& tallied = tallies[key];
        out.keys.push_back(KeyFigures{key, limits[key].limit, limits[key].window, tallied.requests,
                                      tallied.totals, tallied.burst.result()});
    }
    judge(out);
    return out;
}

/// tally_in_order() read key by key from `index`. A key's requests lie apart in the trace, but
/// reading them is a tight loop of loads that do not wait on each other, a few thousand at a
/// time; then one tracker, restarted for each key, counts them from the cache. (In trace order,
/// each request waits for its key's entry in a table too large for the cache, then for its
/// tracker's slots: with many keys, two misses in a row per request.)
template <class Tracker, class Read, class Unit>
LaneKeys tally_by_key(const Trace& trace, const AlgorithmRun& run, const Params& params,
                      std::size_t count, const Read& read, const Unit& unit, const KeyIndex& index,
                      const std::vector<char>* keys) {
    constexpr std::size_t kBatch = 4096;  // requests read before they are counted
    const std::size_t key_count = trace.keys.size();
    // Each key's requests before `count`, and its place among the keys that have some, by name.
    std::vector<std::uint32_t> counted(key_count);
    for (KeyId key = 0; key < key_count; ++key) {
        if (keys != nullptr && (*keys)[key] == 0)
            continue;
        const std::span<const std::uint32_t> positions = index.of(key);
        counted[key] = static_cast<std::uint32_t>(
            std::lower_bound(positions.begin(), positions.end(), count) - positions.begin());
    }
    std::vector<std::uint32_t> place(key_count);
    std::size_t placed = 0;
    for (const KeyId key : index.by_name()) {
        if (counted[key] > 0)
            place[key] = static_cast<std::uint32_t>(placed++);
    }
    LaneKeys out;
    out.keys.resize(placed);

    struct Taken {
        Request request;
        AlgorithmRun::Outcome outcome;
        std::invoke_result_t<Read, std::size_t> extra;  // read() of an accepted request
    };
    std::vector<Taken> reads;
    reads.reserve(2 * kBatch);
    std::vector<KeyId> read_keys;  // whose requests `reads` holds, in order
    Tracker burst(params.base.window);
    const auto count_reads = [&] {
        const Taken* taken = reads.data();
        for (const KeyId key : read_keys) {
            const Limits& limits = params.for_key(trace.key_name(key));
            KeyFigures& figures = out.keys[place[key]];
            figures = KeyFigures{key, limits.limit, limits.window, counted[key], Totals{}, Burst{}};
            burst.restart(limits.window);
            for (const Taken* end = taken + counted[key]; taken != end; ++taken) {
                const Request& r = taken->request;
                if (taken->outcome == AlgorithmRun::kAccepted) {
                    ++figures.totals.accepted;
                    figures.totals.accepted_cost += r.cost;
                    unit(burst, figures.totals, r, taken->extra);
                } else {
                    ++figures.totals.rejected;
                    figures.totals.rejected_cost += r.cost;
                }
            }
            figures.worst_burst = burst.result();
        }
        reads.clear();
        read_keys.clear();
    };
    const DecisionColumns& decisions = run.decisions;
    for (KeyId key = 0; key < key_count; ++key) {
        if (counted[key] == 0)
            continue;
        for (const std::uint32_t i : index.of(key).first(counted[key])) {
            const AlgorithmRun::Outcome outcome = decisions.outcome(i);
            reads.push_back(
                Taken{trace.requests[i], outcome,
                      outcome == AlgorithmRun::kAccepted ? read(i) : decltype(read(i)){}});
        }
        read_keys.push_back(key);
        if (reads.size() >= kBatch)
            count_reads();
    }
    count_reads();
    judge(out);
    return out;
}

/// The figures over requests [0, count) of every key, or of those `keys` marks (indexed by key,
/// non-zero for a key to count): key by key when the run holds an index of its trace's keys,
/// else in trace order, reading only the marked keys' requests.
template <class Tracker, class Read, class Unit>
LaneKeys tally(const Trace& trace, const AlgorithmRun& run, const Params& params, std::size_t count,
               const Read& read, const Unit& unit, const std::vector<char>* keys) {
    if (run.key_index && run.key_index->fits(trace))
        return tally_by_key<Tracker>(trace, run, params, count, read, unit, *run.key_index, keys);
    if (keys == nullptr)
        return tally_in_order<Tracker>(trace, run, params, count, read, unit, nullptr);
    std::vector<std::uint32_t> theirs;
    std::uint32_t at = 0;
    for (const Request& r : trace.requests) {
        if (at == count)
            break;
        if ((*keys)[r.key] != 0)
            theirs.push_back(at);
        ++at;
    }
    return tally_in_order<Tracker>(trace, run, params, count, read, unit, &theirs);
}

/// What an arrival's tracker needs besides the request: nothing.
struct Nothing {};

/// Every key's figures over requests [0, count) of a lane that lets requests through when
/// they arrive: its worst burst over the accepted arrivals. `keys`: as tally().
LaneKeys tally_arrivals(const Trace& trace, const AlgorithmRun& run, const Params& params,
                        std::size_t count, const std::vector<char>* keys = nullptr) {
    return tally<detail::ArrivalBurst>(
        trace, run, params, count, [](std::size_t) { return Nothing{}; },
        [](detail::ArrivalBurst& burst, Totals&, const Request& r, Nothing) {
            const detail::ArrivalBurst::Arrival arrival{r.tick, r.cost};
            burst.add(&arrival, 1);
        },
        keys);
}

/// Every key's figures over requests [0, count) of a shaper: its worst burst over the units it
/// lets through (those by `released_by` when given), and its longest delay.
LaneKeys tally_releases(const Trace& trace, const AlgorithmRun& run, const AlgorithmInfo& info,
                        const Params& params, std::size_t count, std::optional<Tick> released_by,
                        const std::vector<char>* keys = nullptr) {
    // A shaper lets a request's units through one every `spacing` ticks, the last at its
    // release (ShaperLaw): in 1/den ticks, they start at release - (cost - 1) * num. The spacing
    // is the key's own, from its tier.
    std::vector<Rational> spacings;
    spacings.reserve(trace.keys.size());
    for (KeyId key = 0; key < trace.keys.size(); ++key)
        spacings.push_back(info.shaper_law(params.for_key(trace.key_name(key))).spacing);
    return tally<detail::SegmentBurst>(
        trace, run, params, count, [&run](std::size_t index) { return run.delay(index); },
        [&](detail::SegmentBurst& burst, Totals& totals, const Request& r, const Rational& delay) {
            const Rational& spacing = spacings[r.key];
            const std::int64_t step = spacing.num();
            const std::int64_t scale = spacing.den();
            totals.max_delay = std::max(totals.max_delay, delay);
            // Releases fall on the 1/den grid of the spacing (a queue starts a unit at an
            // arrival or one spacing after the unit before).
            const Rational last_scaled = (Rational(r.tick) + delay) * Rational(scale);
            if (!last_scaled.is_integer())
                throw SimulationError(run.id + ": a release off its spacing's grid");
            const std::int64_t last = last_scaled.num();
            detail::UnitSegment units{last - (static_cast<std::int64_t>(r.cost) - 1) * step, r.cost,
                                      step, scale};
            if (released_by) {
                const Int128 by = static_cast<Int128>(*released_by) * scale;
                units.count = units.first > by ? 0
                                               : static_cast<std::int64_t>(std::min<Int128>(
                                                     units.count, (by - units.first) / step + 1));
            }
            if (units.count > 0)
                burst.add(units);
        },
        keys);
}

/// key_figures() of a lane that kept its decisions over `scope`: of every key, or of those
/// `keys` marks (as tally()).
LaneKeys count_keys(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                    const std::vector<char>* keys) {
    const Trace& trace = *result.trace;
    const AlgorithmRun& run = result.runs[lane];
    const Params& params = result.lane_params[lane];
    const std::size_t count =
        std::min(scope.count.value_or(trace.requests.size()), trace.requests.size());
    if (!run.releases)
        return tally_arrivals(trace, run, params, count, keys);
    return tally_releases(trace, run, *Registry::instance().find(run.id), params, count,
                          scope.released_by, keys);
}

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
            sort_and_judge(trace, out);
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

/// The keys the edit that made `result` from `before` touched: those of the requests it
/// removed or added. Nothing when the figures of other keys may have changed too (a different
/// key table, lanes or parameters) or when the edit touched too many to be worth it.
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
    std::vector<char> touched(trace.keys.size(), 0);
    for (std::size_t i = first; i < trace.requests.size() - tail; ++i)
        touched[trace.requests[i].key] = 1;
    for (std::size_t i = first; i < old.requests.size() - tail; ++i)
        touched[old.requests[i].key] = 1;
    return touched;
}

/// `before` with the figures of the `touched` keys replaced by `fresh` (theirs, counted again):
/// both sorted by name, and so is the result. `rank`, when not empty, gives each key's place in
/// the order of names, which spares comparing the names themselves.
LaneKeys patched(const Trace& trace, const LaneKeys& before, const LaneKeys& fresh,
                 const std::vector<char>& touched, const std::vector<std::uint32_t>& rank) {
    const auto earlier = [&](KeyId a, KeyId b) {
        return rank.empty() ? trace.key_name(a) < trace.key_name(b) : rank[a] < rank[b];
    };
    LaneKeys out;
    out.keys.reserve(before.keys.size() + fresh.keys.size());
    auto next = fresh.keys.begin();
    for (const KeyFigures& key : before.keys) {
        if (touched[key.key] != 0)
            continue;
        while (next != fresh.keys.end() && earlier(next->key, key.key))
            out.keys.push_back(*next++);
        out.keys.push_back(key);
    }
    out.keys.insert(out.keys.end(), next, fresh.keys.end());
    judge(out);
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
