#pragma once
// The report's part for idle keys dropped (--evict): kept apart from report.cpp, which adds it
// to each lane.

#include <cstddef>

#include <nlohmann/json.hpp>

#include "ratelab/eviction.h"

namespace ratelab::io::detail {

/// {"policy", "keys_held": {"peak", "over_time": [[tick, keys], ...]}, "evictions",
/// "early_evictions", "first_early": {"key", "tick"} or null, "changed", "extra_accepted",
/// "extra_rejected", "other_changes", "changed_requests": [indexes]} for lane `lane`.
nlohmann::ordered_json eviction_json(const EvictionResult& eviction, std::size_t lane);

}  // namespace ratelab::io::detail
