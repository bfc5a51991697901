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

/// Keys the decoded traces use unless told otherwise; "" is the default key.
inline const std::vector<std::string> kKeyNames = {"", "alice", "bob", "carol"};

/// A whole number in [1, max]: mostly small, sometimes at or just below `max`.
std::int64_t consume_bounded(FuzzedDataProvider& data, std::int64_t max);
Rational consume_rational(FuzzedDataProvider& data);
Limits consume_limits(FuzzedDataProvider& data);
/// Base limits, optional per-key tiers for some of `names` (at most 8), and rejections_count.
Params consume_params(FuzzedDataProvider& data,
                      const std::vector<std::string>& names = kKeyNames);
/// Up to `max_requests` requests in tick order over some of `names`. `window` shapes the gaps.
Trace consume_trace(FuzzedDataProvider& data, std::size_t max_requests, Tick window,
                    const std::vector<std::string>& names = kKeyNames);

}  // namespace ratelab::fuzz
