#pragma once
// Slow, obviously correct re-computations the fuzzers compare the core's fast answers with.

#include <cstdint>
#include <optional>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"

namespace ratelab::fuzz {

/// The parameters each algorithm derives from one key's limits, with the documented defaults.
struct EffectiveLimits {
    std::int64_t capacity;       // token_bucket C
    Rational refill_rate;        // token_bucket, tokens per tick
    std::int64_t queue_size;     // leaky_bucket Q
    Rational drain_interval;     // leaky_bucket D, ticks per unit
    std::int64_t burst;          // gcra B
    Rational emission_interval;  // gcra T, ticks per unit
};
EffectiveLimits effective(const Limits& limits);

/// GCRA with burst B and interval T decides like a token bucket with C = B and rate 1/T.
bool gcra_mirrors_bucket(const Limits& limits);

/// Largest accepted cost in any span [s, s + window), by brute force over arrivals.
std::int64_t arrival_burst(const Trace& trace, const AlgorithmRun& run, Tick window);

/// The leaky bucket's released units (start times), or nothing if there are more than `max`.
std::optional<std::vector<Rational>> released_units(const Trace& trace, const AlgorithmRun& run,
                                                    const Params& params, std::int64_t max);
/// Most units in any span [s, s + window), by brute force; `units` sorted.
std::int64_t unit_burst(const std::vector<Rational>& units, Tick window);

/// ceil(a / b) for positive exact values, in 128 bits.
Int128 ceil_ratio(Int128 num, Int128 den);

}  // namespace ratelab::fuzz
