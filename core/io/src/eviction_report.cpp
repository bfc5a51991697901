#include "eviction_report.h"

namespace ratelab::io::detail {

nlohmann::ordered_json eviction_json(const EvictionResult& eviction, std::size_t lane) {
    using Json = nlohmann::ordered_json;
    const EvictionLane& figures = eviction.lanes.at(lane);
    Json held = Json::array();
    for (const auto& [tick, keys] : eviction.schedule.held)
        held.push_back(Json::array({tick, keys}));
    Json out;
    out["policy"] = to_string(eviction.eviction);
    out["keys_held"] = {{"peak", eviction.schedule.peak_held}, {"over_time", std::move(held)}};
    out["evictions"] = figures.evictions;
    out["early_evictions"] = figures.early_evictions;
    out["first_early"] = figures.first_early ? Json{{"key", figures.first_early->first},
                                                    {"tick", figures.first_early->second}}
                                             : Json(nullptr);
    out["changed"] = figures.changed.size();
    out["extra_accepted"] = figures.extra_accepted;
    out["extra_rejected"] = figures.extra_rejected;
    out["other_changes"] = figures.other_changes;
    out["changed_requests"] = figures.changed;
    return out;
}

}  // namespace ratelab::io::detail
