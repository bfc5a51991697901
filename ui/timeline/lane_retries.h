#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ratelab/clients.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

/// The retries that clients answering back make on each lane (the Clients tab's run), kept for
/// the result they were computed for: the timeline draws them as small marks, each joined by a
/// thin arc to the attempt before it, while that result is on show.
struct LaneRetries {
    /// Marks where an arc starts at the intent's own request rather than at an earlier retry.
    static constexpr std::size_t kFromIntent = static_cast<std::size_t>(-1);

    struct Retry {
        Tick tick = 0;
        std::size_t intent = 0;    ///< the request of the trace it retries
        std::int64_t attempt = 2;  ///< counted from 1, so 2 or more
        Decision decision;         ///< what the lane answered this attempt
        /// The intent's attempt before this one: an index into the same lane's retries, or
        /// kFromIntent for the first retry.
        std::size_t previous = kFromIntent;
    };

    std::weak_ptr<const SimulationResult> result;
    /// By the result's lane index, in decision order (so in tick order); empty for a lane
    /// the run left out.
    std::vector<std::vector<Retry>> lanes;

    /// The retries of `runs`, which are the runs of lanes `lane_indices` of `result`.
    static std::shared_ptr<const LaneRetries> of(
        const std::shared_ptr<const SimulationResult>& result,
        const std::vector<std::size_t>& lane_indices, const std::vector<ClientRun>& runs);
    /// Whether these retries belong to `shown`.
    bool belongsTo(const SimulationResult* shown) const {
        const auto mine = result.lock();
        return mine && mine.get() == shown;
    }
};

}  // namespace ratelab::ui
