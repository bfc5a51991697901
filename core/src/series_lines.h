#pragma once
// The lines compute_series() builds its series from: step series added and subtracted, a
// shaper's released units, and a bucket's level.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/series.h"

namespace ratelab::detail {

/// Requests between two looks at RunControl::stop: a few milliseconds of work.
inline constexpr std::size_t kStopStride = 1 << 16;

/// Throws SimulationCancelled when `control` says stop; called every kStopStride requests.
inline void stop_if_asked(const RunControl* control, std::size_t index) {
    if (control != nullptr && index % kStopStride == 0 &&
        control->stop.load(std::memory_order_relaxed))
        throw SimulationCancelled();
}

/// Adds `amount` at `tick`, no earlier than the last change, to the running total `total`.
void add_to_total(StepSeries& total, Tick tick, std::int64_t amount);

/// a(t) - b(t - shift) at each tick t: with b = a and shift = W, the total of the trailing
/// window (t - W, t]; with shift = 0, what has arrived and not yet left.
StepSeries difference(const StepSeries& a, const StepSeries& b, Tick shift);

/// Adds, for one accepted request of a shaper released at `release` with units `drain` apart,
/// how many of its `cost` units leave at each tick (at most kMaxReleaseSteps entries).
void add_unit_releases(std::vector<std::pair<Tick, std::int64_t>>& out, const Rational& release,
                       std::int64_t cost, const Rational& drain);

/// The running total of released units, from (tick, units) entries in any order.
StepSeries released_total(std::vector<std::pair<Tick, std::int64_t>> events);

/// The level of a bucket of `capacity` that refills at `slope` per tick and drops by the cost
/// of each request of `key` that `run` accepted, from `from` on.
LevelSeries bucket_level(const Trace& trace, const AlgorithmRun& run, KeyId key,
                         std::int64_t capacity, const Rational& slope, Tick from,
                         const RunControl* control);

}  // namespace ratelab::detail
