#include "timeline/lane_retries.h"

#include <unordered_map>

namespace ratelab::ui {

std::shared_ptr<const LaneRetries> LaneRetries::of(
    const std::shared_ptr<const SimulationResult>& result,
    const std::vector<std::size_t>& lane_indices, const std::vector<ClientRun>& runs) {
    auto retries = std::make_shared<LaneRetries>();
    retries->result = result;
    retries->lanes.resize(result ? result->runs.size() : 0);
    for (std::size_t r = 0; r < runs.size() && r < lane_indices.size(); ++r) {
        if (lane_indices[r] >= retries->lanes.size())
            continue;
        std::vector<Retry>& lane = retries->lanes[lane_indices[r]];
        std::unordered_map<std::size_t, std::size_t> last;  // intent -> its latest retry
        for (const Attempt& attempt : runs[r].attempts) {
            if (attempt.attempt < 2)
                continue;
            const auto before = last.find(attempt.intent);
            lane.push_back(Retry{attempt.tick, attempt.intent, attempt.attempt, attempt.decision,
                                 before == last.end() ? kFromIntent : before->second});
            last[attempt.intent] = lane.size() - 1;
        }
    }
    return retries;
}

}  // namespace ratelab::ui
