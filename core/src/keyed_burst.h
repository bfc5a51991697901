#pragma once
// After an edit of a few keys of a trace of many: the worst burst over every key's accepted
// arrivals together, counted again only around the arrivals the edit changed where that is
// enough to know it.

#include <algorithm>
#include <cstdint>
#include <limits>

#include "ratelab/algorithm.h"
#include "ratelab/decision_columns.h"
#include "ratelab/model.h"

namespace ratelab::detail {

/// The ticks of the arrivals an edit accepted or no longer accepts: the first and the last.
struct ChangedArrivals {
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
                               const Burst& old, const ChangedArrivals& changed,
                               bool* counted_all = nullptr);

}  // namespace ratelab::detail
