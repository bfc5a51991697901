#pragma once

#include <QPointF>
#include <cstddef>

#include "ratelab/model.h"

namespace ratelab::ui {

struct TimelineScene;

/// What is under a point of the timeline.
struct TimelineHit {
    enum class Kind {
        kNothing,
        kRuler,
        kTraceEmpty,    ///< the trace row, no request under the point: a click adds one
        kTraceRequest,  ///< a request in the trace row
        kLaneDecision,  ///< a decision in a lane
        kLaneEmpty,
        kLaneName,  ///< a lane's name in the gutter
    };
    Kind kind = Kind::kNothing;
    int lane = -1;
    std::size_t index = 0;  ///< request index, for kTraceRequest and kLaneDecision
    Tick tick = 0;          ///< the tick under the point (clamped at 0)
};

TimelineHit hitTest(const TimelineScene& scene, QPointF pos);

}  // namespace ratelab::ui
