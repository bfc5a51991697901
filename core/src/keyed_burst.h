#pragma once
// After an edit of a few keys of a trace of many: the worst burst over every key's accepted
// arrivals together, counted again only around the arrivals the edit changed where that is
// enough to know it.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "merged_burst.h"
#include "ratelab/algorithm.h"
#include "ratelab/decision_columns.h"
#include "ratelab/model.h"

namespace ratelab::detail {

/// The first and the last tick of what an edit changed: the arrivals it accepted or no longer
/// accepts, or the units a shaper lets through.
struct ChangedTicks {
    Tick first = std::numeric_limits<Tick>::max();
    Tick last = std::numeric_limits<Tick>::min();
    bool any() const { return first <= last; }
    void note(Tick tick) {
        first = std::min(first, tick);
        last = std::max(last, tick);
    }
};

/// The worst `window`-tick burst over the requests `decisions` accepts in `trace` (what
/// ArrivalBurst gives when fed every accepted arrival), where `old` is that burst before an edit
/// that changed only the arrivals `changed` spans.
///
/// A window is counted where it ends, at an accepted arrival, and the first to reach the worst
/// cost wins. Only windows ending in [changed.first, changed.last + W) hold a changed arrival:
/// those are counted again from the requests around them, and every other window is as it was,
/// so the old worst stands for them when it ended outside that span. When it may have ended
/// inside (its window meets the span), the span grows to take it in; then unless a window in the
/// span is at least as bad as the old worst, the worst may lie anywhere, and every window is
/// counted again. So is it when the span covers a large part of the trace. `counted_all`, when
/// given, tells which it was.
Burst arrival_burst_after_edit(const Trace& trace, const DecisionColumns& decisions, Tick window,
                               const Burst& old, const ChangedTicks& changed,
                               bool* counted_all = nullptr);

/// Calls `visit(i, request)` for each request among [first, last) that `decisions` accepts.
template <class Visit>
void for_each_accepted(const Trace& trace, const DecisionColumns& decisions, std::size_t first,
                       std::size_t last, Visit&& visit) {
    auto request = trace.requests.begin() + static_cast<std::ptrdiff_t>(first);
    while (first < last) {
        const DecisionColumns::ChunkView chunk = decisions.chunk(decisions.chunk_of(first));
        const std::size_t end = std::min(last, chunk.start + chunk.size);
        for (; first < end; ++first, ++request) {
            if (chunk.outcomes[first - chunk.start] == AlgorithmRun::kAccepted)
                visit(first, *request);
        }
    }
}

/// The first request at or after `tick`.
std::size_t first_at(const Trace& trace, Tick tick);

/// The worst `window`-tick burst over the units that shapers, one per key, let through the
/// requests `decisions` accepts in `trace` (what ManyShaperBurst gives when fed them as a run
/// does), where `old` is that burst before an edit that changed only the units `changed` spans,
/// no request is let through later than `longest_delay` ticks after it arrives, and
/// `units_of(i, request)` gives the units of accepted request i.
///
/// A span is counted from a unit, and the earliest of the worst wins. Only spans starting in
/// [changed.first - W, changed.last] can hold a changed unit: those are counted again from the
/// requests whose units can fall in them, and every other span is as it was. When the old worst
/// started outside, it stands unless a span inside is worse or as bad and earlier. When it
/// started inside, a span inside as bad settles it; otherwise every span is counted again, as
/// when the requests to look at are a large part of the trace.
template <class UnitsOf>
Burst unit_burst_after_edit(const Trace& trace, const DecisionColumns& decisions, Tick window,
                            const Burst& old, const ChangedTicks& changed, Tick longest_delay,
                            UnitsOf&& units_of, bool* counted_all = nullptr) {
    if (counted_all != nullptr)
        *counted_all = false;
    if (!changed.any())
        return old;
    const auto count = [&](std::size_t first, std::size_t last) {
        ManyShaperBurst burst(window);
        for_each_accepted(trace, decisions, first, last, [&](std::size_t i, const Request& r) {
            burst.advance_to(r.tick);
            burst.add(units_of(i, r));
        });
        return burst.result();
    };
    const std::size_t size = trace.requests.size();
    // Spans starting in [from, to) are counted again: every unit in [from, to + W) is needed,
    // so every request arriving from `longest_delay` before that.
    const Tick from = changed.first - window;
    const Tick to = changed.last + 1;
    const std::size_t first = first_at(trace, from - longest_delay);
    const std::size_t last = first_at(trace, to + window);
    if ((last - first) * 4 <= size) {
        // Spans starting outside [from, to) are seen in part if at all: they never count more
        // than they hold, and none of them held more than the old worst, or as much earlier.
        const Burst inside = count(first, last);
        const bool old_inside =
            old.cost > 0 && old.start >= Rational(from) && old.start < Rational(to);
        if (!old_inside) {
            return inside.cost > old.cost || (inside.cost == old.cost && inside.start < old.start)
                       ? inside
                       : old;
        }
        if (inside.cost > old.cost || (inside.cost == old.cost && inside.start < Rational(to)))
            return inside;
    }
    if (counted_all != nullptr)
        *counted_all = true;
    return count(0, size);
}

}  // namespace ratelab::detail
