#include "keyed_burst.h"

#include <array>
#include <cstddef>

#include "burst.h"

namespace ratelab::detail {

namespace {

/// Feeds the accepted arrivals among requests [first, last) to `burst`, a batch at a time.
void add_accepted(const Trace& trace, const DecisionColumns& decisions, std::size_t first,
                  std::size_t last, ArrivalBurst& burst) {
    std::array<ArrivalBurst::Arrival, 4096> arrivals{};
    auto request = trace.requests.begin() + static_cast<std::ptrdiff_t>(first);
    while (first < last) {
        const std::size_t c = decisions.chunk_of(first);
        const DecisionColumns::ChunkView chunk = decisions.chunk(c);
        const std::size_t end = std::min(last, chunk.start + chunk.size);
        while (first < end) {
            const std::size_t batch_end = std::min(end, first + arrivals.size());
            std::size_t taken = 0;
            for (; first < batch_end; ++first, ++request) {
                arrivals[taken] = ArrivalBurst::Arrival{request->tick, request->cost};
                taken += chunk.outcomes[first - chunk.start] == AlgorithmRun::kAccepted ? 1 : 0;
            }
            burst.add(arrivals.data(), taken);
        }
    }
}

}  // namespace

std::size_t first_at(const Trace& trace, Tick tick) {
    const auto at = std::lower_bound(trace.requests.begin(), trace.requests.end(), tick,
                                     [](const Request& r, Tick t) { return r.tick < t; });
    return static_cast<std::size_t>(at - trace.requests.begin());
}

Burst arrival_burst_after_edit(const Trace& trace, const DecisionColumns& decisions, Tick window,
                               const Burst& old, const ChangedTicks& changed, bool* counted_all) {
    const std::size_t size = trace.requests.size();
    if (counted_all != nullptr)
        *counted_all = false;
    if (!changed.any())
        return old;
    // Windows ending in [from, to) are counted again.
    Tick from = changed.first;
    Tick to = changed.last + window;
    const Tick old_start = old.start.floor();  // a tick: the first arrival in its window
    const bool old_may_be_inside = old.cost > 0 && old_start < to && old_start + window > from;
    if (old_may_be_inside) {
        from = std::min(from, old_start);
        to = std::max(to, old_start + window);
    }
    const std::size_t first = first_at(trace, from - window + 1);
    const std::size_t counted = first_at(trace, from);
    const std::size_t last = first_at(trace, to);
    // Past a quarter of the trace, counting it all is about as quick.
    if ((last - first) * 4 <= size) {
        ArrivalBurst around(window);
        add_accepted(trace, decisions, first, counted, around);
        around.set_best(Burst{});  // windows ending before `from` are only partly in view
        add_accepted(trace, decisions, counted, last, around);
        const Burst inside = around.result();
        if (!old_may_be_inside) {
            // Ties go to the window that ended first: the old one when it came before.
            const bool old_first = old_start + window <= from;
            return inside.cost > old.cost || (inside.cost == old.cost && !old_first) ? inside : old;
        }
        if (inside.cost >= old.cost)
            return inside;
    }
    if (counted_all != nullptr)
        *counted_all = true;
    ArrivalBurst everything(window);
    add_accepted(trace, decisions, 0, size, everything);
    return everything.result();
}

}  // namespace ratelab::detail
