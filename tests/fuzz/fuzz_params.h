#pragma once
// Turns fuzz bytes into simulator input that validation must accept: parameters and a trace
// anywhere inside the bounds of ratelab/limits.h, with a bias towards small values (where the
// algorithms differ) and towards the bounds themselves (where arithmetic could overflow).

#include <cstddef>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "ratelab/model.h"

namespace ratelab::fuzz {

/// Keys the decoded traces use unless told otherwise; "" is the default key. More than four,
/// so that some traces have more keys than runs keep checkpoints for, and an edit re-decides
/// only the keys it touched.
inline const std::vector<std::string> kKeyNames = {"", "alice", "bob", "carol", "dave", "erin"};

/// A whole number in [1, max]: mostly small, sometimes at or just below `max`.
std::int64_t consume_bounded(FuzzedDataProvider& data, std::int64_t max);
Rational consume_rational(FuzzedDataProvider& data);
Limits consume_limits(FuzzedDataProvider& data);
/// Base limits, optional per-key tiers for some of `names` (at most 8), and rejections_count.
Params consume_params(FuzzedDataProvider& data, const std::vector<std::string>& names = kKeyNames);
/// How many cost units one fuzzed trace may hold in all. The leaky bucket's burst over several
/// keys and the shaper's chart series take time in proportion to the cost units let through
/// (see the hardening notes in README.md), so an unbounded total would make the fuzzer spend
/// its time on slow inputs instead of on new ones. One request of the largest cost still fits.
inline constexpr std::int64_t kMaxFuzzTotalCost = 1'100'000;

/// Up to `max_requests` requests in tick order over some of `names`, costing at most
/// kMaxFuzzTotalCost units together. `window` shapes the gaps.
Trace consume_trace(FuzzedDataProvider& data, std::size_t max_requests, Tick window,
                    const std::vector<std::string>& names = kKeyNames);
/// The total cost of `trace`'s requests.
std::int64_t total_cost(const Trace& trace);

}  // namespace ratelab::fuzz
