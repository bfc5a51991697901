// Every key's figures in one lane, counted from the lane's decisions: in trace order, or key by
// key from the run's key index.
#include "key_tally.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include "burst.h"
#include "ratelab/registry.h"

namespace ratelab::detail {
bool relatively_worse(const KeyFigures& a, const KeyFigures& b) {
    return static_cast<Int128>(a.worst_burst.cost) * b.limit >
           static_cast<Int128>(b.worst_burst.cost) * a.limit;
}

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

namespace {

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
    // The keys to count that have requests before `count`, in order of id, with how many
    // each has. Only the marked keys are looked at: after an edit, a few of many, and what is
    // kept of them is as long as they are few.
    std::vector<KeyId> ids;
    std::vector<std::uint32_t> counted;  // per entry of `ids`
    for (KeyId key = 0; key < key_count; ++key) {
        if (keys != nullptr && (*keys)[key] == 0)
            continue;
        const std::span<const std::uint32_t> positions = index.of(key);
        const auto before = static_cast<std::uint32_t>(
            std::lower_bound(positions.begin(), positions.end(), count) - positions.begin());
        if (before > 0) {
            ids.push_back(key);
            counted.push_back(before);
        }
    }
    // Where each one's figures go: in order of the keys' names.
    std::vector<std::uint32_t> place(ids.size());
    if (keys == nullptr) {
        constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::uint32_t> entry_of(key_count, kNone);
        for (std::size_t at = 0; at < ids.size(); ++at)
            entry_of[ids[at]] = static_cast<std::uint32_t>(at);
        std::uint32_t placed = 0;
        for (const KeyId key : index.by_name()) {
            if (entry_of[key] != kNone)
                place[entry_of[key]] = placed++;
        }
    } else {
        std::vector<std::uint32_t> named(ids.size());
        std::iota(named.begin(), named.end(), std::uint32_t{0});
        std::sort(named.begin(), named.end(), [&](std::uint32_t a, std::uint32_t b) {
            return trace.key_name(ids[a]) < trace.key_name(ids[b]);
        });
        for (std::size_t at = 0; at < named.size(); ++at)
            place[named[at]] = static_cast<std::uint32_t>(at);
    }
    LaneKeys out;
    out.keys = SharedColumn<KeyFigures>::filled(ids.size());

    struct Taken {
        Request request;
        AlgorithmRun::Outcome outcome;
        std::invoke_result_t<Read, std::size_t> extra;  // read() of an accepted request
    };
    std::vector<Taken> reads;
    reads.reserve(2 * kBatch);
    std::vector<std::uint32_t> read_entries;  // whose requests `reads` holds, in order
    Tracker burst(params.base.window);
    const auto count_reads = [&] {
        const Taken* taken = reads.data();
        for (const std::uint32_t entry : read_entries) {
            const KeyId key = ids[entry];
            const Limits& limits = params.for_key(trace.key_name(key));
            KeyFigures& figures = out.keys.edit(place[entry]);
            figures =
                KeyFigures{key, limits.limit, limits.window, counted[entry], Totals{}, Burst{}};
            burst.restart(limits.window);
            for (const Taken* end = taken + counted[entry]; taken != end; ++taken) {
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
        read_entries.clear();
    };
    const DecisionColumns& decisions = run.decisions;
    // The keys' positions lie one after another in the index: those kPrefetchAhead further on
    // (mostly the next ones read) are fetched while these are.
    constexpr std::size_t kPrefetchAhead = 16;
    const std::uint32_t* const positions_end =
        key_count == 0 ? nullptr
                       : std::to_address(index.of(static_cast<KeyId>(key_count - 1)).end());
    for (std::uint32_t entry = 0; entry < ids.size(); ++entry) {
        for (const std::uint32_t& i : index.of(ids[entry]).first(counted[entry])) {
            if (&i + kPrefetchAhead < positions_end) {
                const std::uint32_t ahead = (&i)[kPrefetchAhead];
                decisions.prefetch(ahead);
                __builtin_prefetch(&trace.requests[ahead]);
            }
            const AlgorithmRun::Outcome outcome = decisions.outcome(i);
            reads.push_back(
                Taken{trace.requests[i], outcome,
                      outcome == AlgorithmRun::kAccepted ? read(i) : decltype(read(i)){}});
        }
        read_entries.push_back(entry);
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
    // is the key's own, from its tier: with no tiers, the base one for every key; else worked
    // out per key, and only for the keys counted (after an edit, a few of many).
    const Rational base_spacing = info.shaper_law(params.base).spacing;
    std::vector<Rational> spacings;  // by key, when there are tiers
    if (!params.keys.empty()) {
        spacings.resize(trace.keys.size());
        for (KeyId key = 0; key < trace.keys.size(); ++key) {
            if (keys != nullptr && (*keys)[key] == 0)
                continue;
            const Limits& limits = params.for_key(trace.key_name(key));
            spacings[key] =
                &limits == &params.base ? base_spacing : info.shaper_law(limits).spacing;
        }
    }
    return tally<detail::SegmentBurst>(
        trace, run, params, count, [&run](std::size_t index) { return run.delay(index); },
        [&](detail::SegmentBurst& burst, Totals& totals, const Request& r, const Rational& delay) {
            const Rational& spacing = spacings.empty() ? base_spacing : spacings[r.key];
            const std::int64_t step = spacing.num();
            const std::int64_t scale = spacing.den();
            totals.max_delay = std::max(totals.max_delay, delay);
            // Releases fall on the 1/den grid of the spacing (a queue starts a unit at an
            // arrival or one spacing after the unit before): the delay, in lowest terms, is on it
            // when its denominator divides the grid's. In integers, as this runs per request.
            if (scale % delay.den() != 0)
                throw SimulationError(run.id + ": a release off its spacing's grid");
            const Int128 last_scaled = static_cast<Int128>(r.tick) * scale +
                                       static_cast<Int128>(delay.num()) * (scale / delay.den());
            if (last_scaled > std::numeric_limits<std::int64_t>::max())
                throw SimulationError(run.id + ": a release too late to count");
            const auto last = static_cast<std::int64_t>(last_scaled);
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

}  // namespace

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

}  // namespace ratelab::detail
