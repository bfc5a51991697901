#include "timeline/timeline_hit_test.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

// The request drawn nearest to `pos` in `row`, if one is close enough to count as a hit.
std::optional<std::size_t> requestNear(const TimelineScene& scene, const QRectF& row, QPointF pos) {
    const Trace& trace = scene.trace();
    if (!scene.detailed) {
        // Zoomed out there are no individual markers: the first request on the tick stands in.
        const TickRange group = requestsOnTick(trace, scene.tickAt(pos.x()));
        return group.first < group.last ? std::optional(group.first) : std::nullopt;
    }
    const double reach_x = std::max(scene.marker / 2.0 + 2.0, 4.0);
    const double reach_y = std::max(scene.stack.spacing / 2.0, scene.marker / 2.0) + 1.0;
    const Tick from = std::max<Tick>(0, scene.tickAt(pos.x() - reach_x));
    const Tick to = scene.tickAt(pos.x() + reach_x);
    std::optional<std::size_t> best;
    double best_distance = std::numeric_limits<double>::max();
    for (Tick tick = from; tick <= to; ++tick) {
        const TickRange group = requestsOnTick(trace, tick);
        const std::size_t count = group.last - group.first;
        // A pile is one mark as tall as most of the row; its first request stands for it.
        const double reach = count >= TimelineScene::kPileFrom ? row.height() / 2.0 - 4.0 : reach_y;
        for (std::size_t i = group.first; i < group.last; ++i) {
            const QPointF centre(scene.centreX(tick), scene.slotY(row, i - group.first, count));
            const double dx = std::abs(centre.x() - pos.x());
            const double dy = std::abs(centre.y() - pos.y());
            if (dx <= reach_x && dy <= reach && dx + dy < best_distance) {
                best_distance = dx + dy;
                best = i;
            }
        }
    }
    return best;
}

}  // namespace

TimelineHit hitTest(const TimelineScene& scene, QPointF pos) {
    TimelineHit hit;
    const TimelineLayout& layout = scene.layout;
    if (!scene.frame || !scene.frame->result) {
        return hit;
    }
    hit.tick = std::max<Tick>(0, scene.tickAt(pos.x()));
    const bool in_plot = layout.inPlot(pos.x());
    const int lane = layout.laneAt(pos.y());
    if (!in_plot) {
        if (lane >= 0) {
            hit.kind = TimelineHit::Kind::kLaneName;
            hit.lane = lane;
        }
        return hit;
    }
    if (layout.ruler.contains(pos)) {
        hit.kind = TimelineHit::Kind::kRuler;
    } else if (layout.trace.contains(pos)) {
        const auto index = requestNear(scene, layout.trace, pos);
        hit.kind = index ? TimelineHit::Kind::kTraceRequest : TimelineHit::Kind::kTraceEmpty;
        hit.index = index.value_or(0);
    } else if (lane >= 0) {
        hit.lane = lane;
        // A retry's mark lies under the row of decisions, drawn over the lane: it comes first.
        if (const auto retry = retryNear(scene, static_cast<std::size_t>(lane), pos)) {
            hit.kind = TimelineHit::Kind::kLaneRetry;
            hit.index = *retry;
            return hit;
        }
        const auto index = requestNear(scene, layout.lanes[static_cast<std::size_t>(lane)], pos);
        hit.kind = index ? TimelineHit::Kind::kLaneDecision : TimelineHit::Kind::kLaneEmpty;
        hit.index = index.value_or(0);
    }
    return hit;
}

std::optional<std::pair<std::size_t, std::size_t>> summarizedAt(const TimelineScene& scene,
                                                                QPointF pos) {
    const TimelineLayout& layout = scene.layout;
    if (!scene.frame || !scene.frame->result || !layout.inPlot(pos.x()) ||
        pos.y() < layout.trace.top() || pos.y() >= layout.bottom()) {
        return std::nullopt;
    }
    if (scene.detailed) {
        const int lane = layout.laneAt(pos.y());
        const QRectF& row = lane < 0 ? layout.trace : layout.lanes[static_cast<std::size_t>(lane)];
        const std::optional<std::size_t> near = requestNear(scene, row, pos);
        if (!near) {
            return std::nullopt;
        }
        const TickRange group = requestsOnTick(scene.trace(), scene.trace().requests[*near].tick);
        if (group.last - group.first < TimelineScene::kPileFrom) {
            return std::nullopt;
        }
        return std::pair(group.first, group.last);
    }
    const auto column =
        static_cast<std::size_t>((pos.x() - layout.plot_left) / TimelineScene::kColumnWidth);
    const std::vector<std::size_t>& bounds = scene.summaryColumns();
    if (column + 1 >= bounds.size() || bounds[column] == bounds[column + 1]) {
        return std::nullopt;
    }
    return std::pair(bounds[column], bounds[column + 1]);
}

}  // namespace ratelab::ui
