#pragma once
// The core's promises, checked on one simulation. Every broken promise aborts with a message.

#include <cstddef>
#include <memory>

#include "ratelab/model.h"

namespace ratelab::fuzz {

struct InvariantOptions {
    /// Up to this many requests, the expensive cross-checks run too: brute-force worst bursts,
    /// explain() for every request, and retry-after replays.
    std::size_t thorough_up_to = 256;
    /// Up to this many accepted cost units, the leaky bucket's worst burst is brute-forced.
    std::int64_t unit_brute_force_up_to = 4000;
};

/// Simulates `trace` under `params` (which validation must accept) and checks every invariant.
void check_simulation(const std::shared_ptr<const Trace>& trace, const Params& params,
                      const InvariantOptions& options = {});

}  // namespace ratelab::fuzz
