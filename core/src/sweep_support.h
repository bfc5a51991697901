#pragma once
// What sweep() and sweep_fits() share: the checked points, which runs they can share, and the
// threads that share the work out.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "ratelab/sweep.h"

#include "share_out.h"

namespace ratelab::detail {

/// A sweep's lanes and points, checked.
struct SweepPlan {
    std::vector<Lane> lanes;
    std::vector<std::string> labels;  ///< one per lane, numbered where two would read the same
    std::size_t points = 0;
    std::vector<Params> point_params;  ///< sweep_point_params() of each point, valid
    /// For each point and lane (point * lanes + lane), the point whose run the lane shares: the
    /// same point unless an axis that does not move the lane stands away from its first value.
    std::vector<std::size_t> shared;
};

/// Throws SimulationError for an invalid trace or point, an axis without values or naming no
/// lane's algorithm, or more than kMaxSweepPoints points.
SweepPlan plan_sweep(const Trace& trace, const Params& params, const std::vector<SweepAxis>& axes);

/// The threads for `tasks` when `asked` (0: one per core).
unsigned sweep_threads(unsigned asked, std::size_t tasks);

}  // namespace ratelab::detail
