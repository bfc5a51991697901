#pragma once
// Part of basic_algorithm.h, which includes it at its end: after an edit of a trace of many
// keys, deciding again only the requests of the keys the edit touched.
//
// A run over more than kCheckpointKeys keys keeps no checkpoints (every key's state at each of
// them would cost more memory than the decisions), so rerun() could only start again from the
// first request. But a key's decisions depend on its own requests alone: an edit that adds,
// moves or removes requests of a few keys leaves every other key's decisions as they were.
// What is counted over every key together, the worst burst and a shaper's longest delay, is
// counted again around what changed (keyed_burst.h).

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "basic_algorithm.h"
#include "edited_keys.h"
#include "keyed_burst.h"

namespace ratelab::detail {

/// The units a shaper let an accepted request through as, from the delay its run kept: how
/// many, how far apart and on what scale a policy's released_units() tells with any state.
template <class P>
UnitSegment units_after(const typename P::Config& config, Tick tick, std::int64_t cost,
                        const Rational& delay) {
    UnitSegment units = P::released_units(config, P::initial(config), cost);
    const std::int64_t last = tick * units.scale + delay.num() * (units.scale / delay.den());
    units.first = last - (units.count - 1) * units.step;
    return units;
}

template <class P>
std::optional<AlgorithmRun> BasicAlgorithm<P>::rerun_touched_keys(
    const Trace& trace, const Trace& before, const Params& params, const AlgorithmRun& previous,
    std::size_t unchanged, std::size_t unchanged_tail) {
    // Past this, deciding the trace again is about as quick and far simpler.
    constexpr std::size_t kMostReplaced = 4096;  // requests on either side of the edit
    const std::size_t size = trace.requests.size();
    const std::size_t old_size = before.requests.size();
    if (trace.keys.size() <= kCheckpointKeys || before.keys.size() != trace.keys.size() ||
        previous.id != P::kId || !previous.has_decisions() ||
        previous.decisions.size() != old_size || unchanged + unchanged_tail > size ||
        unchanged + unchanged_tail > old_size) {
        return std::nullopt;
    }
    const std::size_t changed_end = size - unchanged_tail;          // in `trace`
    const std::size_t old_changed_end = old_size - unchanged_tail;  // in `before`
    if (changed_end - unchanged > kMostReplaced || old_changed_end - unchanged > kMostReplaced)
        return std::nullopt;

    // The keys whose requests the edit changed, each with its state as it is replayed through
    // the trace (a slot of `states`). The other keys with requests in the changed stretch only
    // moved there (a request of another key moved past them): their decisions are taken over,
    // each of its own slot of `moved_from`, which lists where their requests were, in order.
    constexpr std::int32_t kUntouched = -1;
    const auto moved_slot = [](std::int32_t slot) { return static_cast<std::size_t>(-2 - slot); };
    const std::vector<char> changed_keys =
        keys_changed_by(trace, before, unchanged, changed_end, old_changed_end);
    std::vector<std::int32_t> slot_of(trace.keys.size(), kUntouched);
    std::vector<KeyId> touched;
    std::vector<std::vector<std::uint32_t>> moved_from;
    for (std::size_t i = unchanged; i < changed_end; ++i) {
        const KeyId key = trace.requests[i].key;
        if (slot_of[key] == kUntouched && changed_keys[key] != 0) {
            slot_of[key] = static_cast<std::int32_t>(touched.size());
            touched.push_back(key);
        }
    }
    for (std::size_t j = unchanged; j < old_changed_end; ++j) {
        const KeyId key = before.requests[j].key;
        if (slot_of[key] == kUntouched && changed_keys[key] != 0) {
            slot_of[key] = static_cast<std::int32_t>(touched.size());
            touched.push_back(key);
        } else if (changed_keys[key] == 0) {
            if (slot_of[key] == kUntouched) {
                slot_of[key] = -2 - static_cast<std::int32_t>(moved_from.size());
                moved_from.emplace_back();
            }
            moved_from[moved_slot(slot_of[key])].push_back(static_cast<std::uint32_t>(j));
        }
    }
    std::vector<std::size_t> moved_next(moved_from.size(), 0);
    // Replaying the touched keys reads their requests alone (from the index) or skips the
    // others in one pass over the trace: either is quicker than deciding every key again,
    // which a run over many keys does from its first request, unless they made most of them.
    if (previous.key_index && previous.key_index->fits(before)) {
        std::size_t theirs = 0;
        for (const KeyId key : touched)
            theirs += previous.key_index->of(key).size();
        if (theirs > old_size / 2)
            return std::nullopt;
    }
    const std::vector<Config> configs = configure_keys(trace, params);
    const auto config_of = [&](KeyId key) -> const Config& {
        return configs[configs.size() == 1 ? 0 : key];
    };
    std::vector<State> states;
    for (const KeyId key : touched)
        states.push_back(P::initial(config_of(key)));

    Totals totals = previous.totals;
    // Where the accepted arrivals, or a shaper's units, changed; and a shaper's longest
    // delays among those the edit took away and those it added.
    ChangedTicks changed;
    Rational longest_removed;
    Rational longest_added;
    const auto count = [&](AlgorithmRun::Outcome outcome, const Rational& wait, const Request& r,
                           int sign) {
        const std::int64_t cost = r.cost;
        if (outcome == AlgorithmRun::kAccepted) {
            if constexpr (P::kShapes) {
                const UnitSegment units = units_after<P>(config_of(r.key), r.tick, cost, wait);
                changed.note(units.first / units.scale);
                changed.note((units.last() + units.scale - 1) / units.scale);
                Rational& longest = sign < 0 ? longest_removed : longest_added;
                longest = std::max(longest, wait);
            } else {
                changed.note(r.tick);
            }
            totals.accepted += sign;
            totals.accepted_cost += sign * cost;
        } else {
            totals.rejected += sign;
            totals.rejected_cost += sign * cost;
        }
    };
    for (std::size_t j = unchanged; j < old_changed_end; ++j) {
        if (changed_keys[before.requests[j].key] != 0) {
            count(previous.decisions.outcome(j), previous.decisions.duration(j), before.requests[j],
                  -1);
        }
    }

    // The touched keys' requests in trace order. Before the edit their decisions are the old
    // ones and only their states are wanted; from the edit on they are decided again, and
    // those that differ from the old run's are written in place of its.
    DecisionColumns::Builder decisions;
    decisions.append(previous.decisions, 0, unchanged);  // shared, chunk by chunk
    std::size_t taken_to = old_changed_end;              // the old decisions appended up to here
    std::size_t decided = 0;
    const auto decide = [&](std::size_t i, const Request& r) {
        const Config& config = config_of(r.key);
        State& state = states[static_cast<std::size_t>(slot_of[r.key])];
        const bool accepted = decide_request<P>(config, state, r.tick, r.cost, trace.duration(i),
                                                params.rejections_count);
        if (i < unchanged)
            return;
        ++decided;
        AlgorithmRun::Outcome outcome = AlgorithmRun::kAccepted;
        Rational wait;  // a rejection's retry-after, or a shaper's delay
        if constexpr (P::kShapes) {
            if (accepted) {
                const UnitSegment units = P::released_units(config, state, r.cost);
                wait = Rational(units.last() - r.tick * units.scale, units.scale);
            }
        }
        if (!accepted) {
            const std::optional<Rational> retry = P::retry_after(config, state, r.tick, r.cost);
            outcome = retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever;
            wait = retry.value_or(Rational());
        }
        if (i >= changed_end) {
            const std::size_t j = i - changed_end + old_changed_end;  // the same, before
            const Rational old_wait = previous.decisions.duration(j);
            if (previous.decisions.outcome(j) == outcome && old_wait == wait)
                return;
            count(previous.decisions.outcome(j), old_wait, r, -1);
            decisions.append(previous.decisions, taken_to, j);
            taken_to = j + 1;
        }
        count(outcome, wait, r, 1);
        decisions.push(outcome, wait);
    };
    // Request i of the changed stretch, of a key that only moved: its decision as it was.
    const auto take_over = [&](std::int32_t slot) {
        const std::size_t moved = moved_slot(slot);
        const std::uint32_t j = moved_from[moved][moved_next[moved]++];
        decisions.push(previous.decisions.outcome(j), previous.decisions.duration(j));
    };
    // The changed stretch in order: the touched keys' requests decided, the others taken over.
    const auto in_stretch = [&](std::size_t i) {
        const Request& r = trace.requests[i];
        if (slot_of[r.key] >= 0)
            decide(i, r);
        else
            take_over(slot_of[r.key]);
    };
    if (previous.key_index && previous.key_index->fits(before)) {
        // Where the touched keys' requests were before the edit, moved to where they are now,
        // and those the edit put in.
        bool put_in = false;
        const auto decide_put_in = [&] {
            for (std::size_t i = unchanged; i < changed_end && !put_in; ++i)
                in_stretch(i);
            put_in = true;
        };
        for (const std::uint32_t j : previous.key_index->of(touched)) {
            if (j < unchanged) {
                decide(j, trace.requests[j]);
                continue;
            }
            decide_put_in();
            if (j >= old_changed_end) {
                const std::size_t i = j - old_changed_end + changed_end;
                decide(i, trace.requests[i]);
            }
        }
        decide_put_in();
    } else {
        auto request = trace.requests.begin();
        for (std::size_t i = 0; i < size; ++i, ++request) {
            if (i >= unchanged && i < changed_end)
                in_stretch(i);
            else if (slot_of[request->key] >= 0)
                decide(i, *request);
        }
    }
    decisions.append(previous.decisions, taken_to, old_size);

    AlgorithmRun out;
    out.id = std::string(P::kId);
    out.releases = P::kShapes;
    out.decisions = decisions.finish();
    out.totals = totals;
    out.requests_decided = decided;
    const Tick window = params.base.window;
    if constexpr (P::kShapes) {
        // The longest delay stands unless the edit took it away; then every delay is read.
        const Rational old_longest = previous.totals.max_delay;
        Rational longest = std::max(old_longest, longest_added);
        if (longest_removed > Rational() && longest_removed >= old_longest) {
            longest = Rational();
            for_each_accepted(trace, out.decisions, 0, size, [&](std::size_t i, const Request&) {
                longest = std::max(longest, out.decisions.duration(i));
            });
        }
        out.totals.max_delay = longest;
        // The worst burst over the units every key's queue lets through together.
        out.worst_burst = unit_burst_after_edit(
            trace, out.decisions, window, previous.worst_burst, changed,
            std::max(old_longest, longest).ceil(), [&](std::size_t i, const Request& r) {
                return units_after<P>(config_of(r.key), r.tick, r.cost, out.decisions.duration(i));
            });
    } else {
        // The worst burst over every key's accepted arrivals together.
        out.worst_burst =
            arrival_burst_after_edit(trace, out.decisions, window, previous.worst_burst, changed);
    }
    return out;
}

}  // namespace ratelab::detail
