#pragma once
// Where to take the clock when teaching from a trace: the next or previous rejection, and the
// worst burst, found in a simulation's decisions.

#include <cstddef>
#include <optional>

#include "ratelab/algorithm.h"
#include "ratelab/simulation.h"

namespace ratelab {

/// The first tick after `now` at which some lane of `result` rejects a request, or nothing when
/// no lane rejects anything later. Lanes that kept no decisions are passed over.
std::optional<Tick> next_rejection(const SimulationResult& result, Tick now);
/// The last tick before `now` at which some lane rejects a request, or nothing.
std::optional<Tick> previous_rejection(const SimulationResult& result, Tick now);

/// The largest worst burst among the lanes, and where it ends.
struct BurstPlace {
    std::size_t lane = 0;  ///< the first lane of equals
    Burst burst;           ///< as the lane's run measured it: cost, and the span's start
    Tick window = 0;       ///< W of the span, [burst.start, burst.start + window)
    /// The tick a clock shows the whole burst at: the last accepted arrival inside the span (a
    /// shaper's release, rounded up to a tick).
    Tick last = 0;
};
/// Where the worst burst of any lane is, or nothing when no lane accepted anything (or none
/// kept decisions).
std::optional<BurstPlace> worst_burst_place(const SimulationResult& result);

}  // namespace ratelab
