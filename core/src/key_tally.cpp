// Every key's figures in one lane, counted from the lane's decisions: in trace order, or key by
// key from the run's key index.
#include "key_tally.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <string>

#include "burst.h"
#include "lane_rule.h"
#include "share_out.h"

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

/// The keys counted key by key, and where their figures go.
struct Counted {
    std::vector<KeyId> ids;               ///< the keys with requests to count, by id
    std::vector<std::uint32_t> requests;  ///< how many each has before the count's end
    std::vector<std::uint32_t> place;     ///< where each one's figures go: by name
};

/// The keys `keys` marks (every key when nothing) with requests before `count`, placed in order
/// of their names. Only the marked keys are looked at: after an edit, a few of many, and what is
/// kept of them is as long as they are few.
Counted counted_keys(const Trace& trace, std::size_t count, const KeyIndex& index,
                     const std::vector<char>* keys) {
    Counted out;
    const std::size_t key_count = trace.keys.size();
    for (KeyId key = 0; key < key_count; ++key) {
        if (keys != nullptr && (*keys)[key] == 0)
            continue;
        const auto before = static_cast<std::uint32_t>(index.of(key).count_before(count));
        if (before > 0) {
            out.ids.push_back(key);
            out.requests.push_back(before);
        }
    }
    out.place.resize(out.ids.size());
    if (keys == nullptr) {
        constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::uint32_t> entry_of(key_count, kNone);
        for (std::size_t at = 0; at < out.ids.size(); ++at)
            entry_of[out.ids[at]] = static_cast<std::uint32_t>(at);
        std::uint32_t placed = 0;
        for (const KeyId key : index.by_name()) {
            if (entry_of[key] != kNone)
                out.place[entry_of[key]] = placed++;
        }
    } else {
        std::vector<std::uint32_t> named(out.ids.size());
        std::iota(named.begin(), named.end(), std::uint32_t{0});
        std::sort(named.begin(), named.end(), [&](std::uint32_t a, std::uint32_t b) {
            return trace.key_name(out.ids[a]) < trace.key_name(out.ids[b]);
        });
        for (std::size_t at = 0; at < named.size(); ++at)
            out.place[named[at]] = static_cast<std::uint32_t>(at);
    }
    return out;
}

/// Requests read for counting, key after key: for each lane in turn, its decisions of them are
/// read and counted. A key's requests may run on into the next batch.
struct Batch {
    /// Requests [from, to) of the key at entry `entry`, at batch places [begin, end).
    struct Part {
        std::uint32_t entry;
        std::uint32_t from;
        std::uint32_t to;
        std::size_t begin;
        std::size_t end;
    };
    std::vector<Part> parts;
    std::vector<std::uint32_t> positions;  ///< the requests' indexes in the trace
    std::vector<Request> requests;
    std::vector<AlgorithmRun::Outcome> outcomes;  ///< one lane's, in turn
    std::vector<Rational> delays;                 ///< a shaper's, of its accepted requests
};

/// The loads of a batch do not wait on each other; those this far on are fetched while these
/// are read.
constexpr std::size_t kPrefetchAhead = 16;

/// Reads the requests at the batch's positions.
void read_requests(const Trace& trace, Batch& batch) {
    const std::vector<std::uint32_t>& at = batch.positions;
    batch.requests.resize(at.size());
    for (std::size_t k = 0; k < at.size(); ++k) {
        if (k + kPrefetchAhead < at.size())
            __builtin_prefetch(&trace.requests[at[k + kPrefetchAhead]]);
        batch.requests[k] = trace.requests[at[k]];
    }
}

/// Reads one lane's decisions of the batch's requests, and a shaper's delays of those accepted.
void read_decisions(const AlgorithmRun& run, Batch& batch) {
    const DecisionColumns& decisions = run.decisions;
    const std::vector<std::uint32_t>& at = batch.positions;
    batch.outcomes.resize(at.size());
    batch.delays.resize(run.releases ? at.size() : 0);
    for (std::size_t k = 0; k < at.size(); ++k) {
        if (k + kPrefetchAhead < at.size())
            decisions.prefetch(at[k + kPrefetchAhead]);
        const AlgorithmRun::Outcome outcome = decisions.outcome(at[k]);
        batch.outcomes[k] = outcome;
        if (run.releases && outcome == AlgorithmRun::kAccepted)
            batch.delays[k] = run.delay(at[k]);
    }
}

/// A lane's trackers on one thread, one of each kind, restarted for each key.
struct Trackers {
    ArrivalBurst arrivals{1};
    SegmentBurst units{1};
};

/// Counts one lane's decisions of the batch into its figures in `out`.
void count_batch(const Trace& trace, const LaneRule& rule, const Counted& counted,
                 const Batch& batch, Trackers& trackers, SharedColumn<KeyFigures>& out,
                 std::vector<ArrivalBurst::Arrival>& arrivals) {
    const bool releases = rule.run->releases;
    for (const Batch::Part& part : batch.parts) {
        const KeyId key = counted.ids[part.entry];
        // Each part's figures are this thread's alone: the parts of one key are counted on one
        // thread, and the column was filled afresh, so no other column shares its chunks.
        KeyFigures& figures = out.edit(counted.place[part.entry]);
        if (part.from == 0) {
            const Limits& limits = rule.params->for_key(trace.key_name(key));
            figures = KeyFigures{
                key, limits.limit, limits.window, counted.requests[part.entry], Totals{}, Burst{}};
            if (releases)
                trackers.units.restart(limits.window);
            else
                trackers.arrivals.restart(limits.window);
        }
        // Counted in a local and stored once a part: the figures of keys counted on the other
        // thread may share a cache line with these.
        Totals totals = figures.totals;
        arrivals.clear();
        for (std::size_t k = part.begin; k < part.end; ++k) {
            const Request& r = batch.requests[k];
            if (batch.outcomes[k] != AlgorithmRun::kAccepted) {
                ++totals.rejected;
                totals.rejected_cost += r.cost;
                continue;
            }
            ++totals.accepted;
            totals.accepted_cost += r.cost;
            if (releases)
                count_release(rule, trackers.units, totals, r, batch.delays[k]);
            else
                arrivals.push_back(ArrivalBurst::Arrival{r.tick, r.cost});
        }
        figures.totals = totals;
        // A part's arrivals go to the tracker in one call: its loop keeps its state in
        // registers.
        if (!arrivals.empty())
            trackers.arrivals.add(arrivals.data(), arrivals.size());
        if (part.to == counted.requests[part.entry]) {
            figures.worst_burst = releases ? trackers.units.result() : trackers.arrivals.result();
        }
    }
}

/// The figures of the lanes `rules` names over requests [0, count) of every key, or of those
/// `keys` marks (indexed by key, non-zero for a key to count), counted key by key from `index`. A
/// key's requests lie apart in the trace, but reading them is a tight loop of loads that do not
/// wait on each other, a few thousand at a time, read once for every lane; then each lane's
/// decisions of them are read the same way, and one tracker, restarted for each key, counts them
/// from the cache. (In trace order, each request waits for its key's entry in a table too large for
/// the cache, then for its tracker's slots: with many keys, two misses in a row per request.) Over
/// `threads` threads by ranges of keys with about as many requests each.
std::vector<LaneKeys> tally_by_key(const Trace& trace, const std::vector<LaneRule>& rules,
                                   std::size_t count, const KeyIndex& index,
                                   const std::vector<char>* keys, unsigned threads) {
    constexpr std::size_t kBatch = 4096;  // requests read before they are counted
    const Counted counted = counted_keys(trace, count, index, keys);
    std::vector<LaneKeys> out(rules.size());
    for (LaneKeys& lane : out)
        lane.keys = SharedColumn<KeyFigures>::filled(counted.ids.size());
    // Where each range of keys begins, and the end.
    std::vector<std::size_t> ranges{0};
    if (threads > 1) {
        const std::uint64_t total =
            std::accumulate(counted.requests.begin(), counted.requests.end(), std::uint64_t{0});
        const std::uint64_t pieces = 4 * std::uint64_t{threads};
        std::uint64_t so_far = 0;
        for (std::size_t entry = 0; entry < counted.ids.size(); ++entry) {
            so_far += counted.requests[entry];
            if (so_far * pieces >= total * ranges.size() && entry + 1 < counted.ids.size())
                ranges.push_back(entry + 1);
        }
    }
    ranges.push_back(counted.ids.size());
    detail::share_out(ranges.size() - 1, threads, [&](std::size_t range) {
        Batch batch;
        std::vector<Trackers> trackers(rules.size());
        std::vector<ArrivalBurst::Arrival> arrivals;
        std::size_t entry = ranges[range];
        std::uint32_t from = 0;  // of the key at `entry`, the first request not yet read
        while (entry < ranges[range + 1]) {
            batch.parts.clear();
            batch.positions.clear();
            while (entry < ranges[range + 1] && batch.positions.size() < kBatch) {
                const std::uint32_t theirs = counted.requests[entry];
                const auto to = static_cast<std::uint32_t>(
                    std::min<std::size_t>(theirs, from + kBatch - batch.positions.size()));
                const std::size_t begin = batch.positions.size();
                index.of(counted.ids[entry]).append(from, to, batch.positions);
                batch.parts.push_back(Batch::Part{static_cast<std::uint32_t>(entry), from, to,
                                                  begin, batch.positions.size()});
                from = to;
                if (to == theirs) {
                    ++entry;
                    from = 0;
                }
            }
            read_requests(trace, batch);
            for (std::size_t lane = 0; lane < rules.size(); ++lane) {
                read_decisions(*rules[lane].run, batch);
                count_batch(trace, rules[lane], counted, batch, trackers[lane], out[lane].keys,
                            arrivals);
            }
        }
    });
    for (LaneKeys& lane : out)
        judge(lane);
    return out;
}

/// What an arrival's tracker needs besides the request: nothing.
struct Nothing {};

/// tally_in_order() of a lane that lets requests through when they arrive: its worst burst
/// over the accepted arrivals.
LaneKeys tally_arrivals(const Trace& trace, const AlgorithmRun& run, const Params& params,
                        std::size_t count, const std::vector<std::uint32_t>* only) {
    return tally_in_order<detail::ArrivalBurst>(
        trace, run, params, count, [](std::size_t) { return Nothing{}; },
        [](detail::ArrivalBurst& burst, Totals&, const Request& r, Nothing) {
            count_arrival(burst, r);
        },
        only);
}

/// tally_in_order() of a shaper: its worst burst over the units it lets through (those by the
/// rule's clock when given), and its longest delay.
LaneKeys tally_releases(const Trace& trace, const LaneRule& rule, std::size_t count,
                        const std::vector<std::uint32_t>* only) {
    const AlgorithmRun& run = *rule.run;
    return tally_in_order<detail::SegmentBurst>(
        trace, run, *rule.params, count, [&run](std::size_t index) { return run.delay(index); },
        [&rule](detail::SegmentBurst& burst, Totals& totals, const Request& r,
                const Rational& delay) { count_release(rule, burst, totals, r, delay); },
        only);
}

/// Whether the runs of `result` hold an index of its trace's keys.
const KeyIndex* index_of(const SimulationResult& result) {
    const KeyIndex* index = result.runs.empty() ? nullptr : result.runs.front().key_index.get();
    return index != nullptr && index->fits(*result.trace) ? index : nullptr;
}

}  // namespace

LaneKeys count_keys(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                    const std::vector<char>* keys) {
    const Trace& trace = *result.trace;
    const std::size_t count =
        std::min(scope.count.value_or(trace.requests.size()), trace.requests.size());
    const std::vector<LaneRule> rules{rule_of(result, lane, scope, keys)};
    if (const KeyIndex* index = index_of(result))
        return std::move(tally_by_key(trace, rules, count, *index, keys, 1).front());
    // In trace order: of the marked keys, only their requests are read.
    std::vector<std::uint32_t> theirs;
    if (keys != nullptr) {
        std::uint32_t at = 0;
        for (const Request& r : trace.requests) {
            if (at == count)
                break;
            if ((*keys)[r.key] != 0)
                theirs.push_back(at);
            ++at;
        }
    }
    const std::vector<std::uint32_t>* only = keys != nullptr ? &theirs : nullptr;
    const LaneRule& rule = rules.front();
    return rule.run->releases ? tally_releases(trace, rule, count, only)
                              : tally_arrivals(trace, *rule.run, *rule.params, count, only);
}

bool can_count_every_lane(const SimulationResult& result) {
    return index_of(result) != nullptr &&
           std::all_of(result.runs.begin(), result.runs.end(),
                       [](const AlgorithmRun& run) { return run.has_decisions(); });
}

std::vector<LaneKeys> count_every_lane(const SimulationResult& result, const KeyScope& scope,
                                       const std::vector<char>* keys, unsigned threads) {
    const Trace& trace = *result.trace;
    const std::size_t count =
        std::min(scope.count.value_or(trace.requests.size()), trace.requests.size());
    std::vector<LaneRule> rules;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane)
        rules.push_back(rule_of(result, lane, scope, keys));
    return tally_by_key(trace, rules, count, *index_of(result), keys, threads);
}

}  // namespace ratelab::detail
