#pragma once

#include <QPointF>
#include <cstddef>
#include <optional>
#include <utility>

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
        kLaneRetry,     ///< a retry's mark in a lane (`index` into the lane's LaneRetries)
        kLaneEmpty,
        kLaneName,    ///< a lane's name in the gutter
        kNote,        ///< a note's label in the notes strip (`index` its first note)
        kNotesEmpty,  ///< the notes strip, no note under the point
    };
    Kind kind = Kind::kNothing;
    int lane = -1;
    std::size_t index = 0;  ///< request index (kTraceRequest, kLaneDecision) or retry index
    Tick tick = 0;          ///< the tick under the point (clamped at 0)
    /// With split lanes, the key whose sub-row of `lane` is under the point.
    std::optional<KeyId> key;
};

TimelineHit hitTest(const TimelineScene& scene, QPointF pos);

/// The requests [first, second) that the one mark under `pos`, in the trace row or a lane,
/// stands for, when it stands for several: the column of a zoomed-out timeline, or a pile of
/// TimelineScene::kPileFrom or more requests on one tick.
std::optional<std::pair<std::size_t, std::size_t>> summarizedAt(const TimelineScene& scene,
                                                                QPointF pos);

}  // namespace ratelab::ui
