#include "timeline/timeline_hit_test.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

// Whether request `index` is drawn in sub-row `key_row` (-1: not split, every request is).
bool inKeyRow(const TimelineScene& scene, std::size_t index, int key_row) {
    return key_row < 0 || scene.splitRowOf(index) == key_row;
}

// The request drawn nearest to `pos` in `row`, if one is close enough to count as a hit. With
// split lanes, `row` is sub-row `key_row` and only its key's requests are in it.
std::optional<std::size_t> requestNear(const TimelineScene& scene, const QRectF& row, QPointF pos,
                                       int key_row = -1) {
    const Trace& trace = scene.trace();
    if (!scene.detailed) {
        // Zoomed out there are no individual markers: the first request on the tick stands in.
        const TickRange group = requestsOnTick(trace, scene.tickAt(pos.x()));
        for (std::size_t i = group.first; i < group.last; ++i) {
            if (inKeyRow(scene, i, key_row))
                return i;
        }
        return std::nullopt;
    }
    const double reach_x = std::max(scene.marker / 2.0 + 2.0, 4.0);
    const double reach_y = std::max(scene.stack.spacing / 2.0, scene.marker / 2.0) + 1.0;
    const Tick from = std::max<Tick>(0, scene.tickAt(pos.x() - reach_x));
    const Tick to = scene.tickAt(pos.x() + reach_x);
    std::optional<std::size_t> best;
    double best_distance = std::numeric_limits<double>::max();
    for (Tick tick = from; tick <= to; ++tick) {
        const TickRange group = requestsOnTick(trace, tick);
        std::size_t count = 0;
        for (std::size_t i = group.first; i < group.last; ++i)
            count += inKeyRow(scene, i, key_row) ? 1 : 0;
        // A pile is one mark as tall as most of the row; its first request stands for it.
        const double reach = count >= TimelineScene::kPileFrom ? row.height() / 2.0 - 4.0 : reach_y;
        std::size_t slot = 0;
        for (std::size_t i = group.first; i < group.last; ++i) {
            if (!inKeyRow(scene, i, key_row))
                continue;
            const QPointF centre(scene.centreX(tick), scene.slotY(row, slot++, count));
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

// The sub-row of lane `lane` under `y` with split lanes, or -1; and the row to look in.
std::pair<int, QRectF> laneRowAt(const TimelineScene& scene, std::size_t lane, double y) {
    const QRectF& whole = scene.layout.lanes[lane];
    if (!scene.split())
        return {-1, whole};
    const auto rows = static_cast<double>(scene.splitCount());
    const int row = std::clamp(static_cast<int>((y - whole.top()) / whole.height() * rows), 0,
                               static_cast<int>(scene.splitCount()) - 1);
    return {row, scene.subRow(lane, static_cast<std::size_t>(row))};
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
    } else if (layout.notes.contains(pos)) {
        const auto note = noteAt(scene, pos);
        hit.kind = note ? TimelineHit::Kind::kNote : TimelineHit::Kind::kNotesEmpty;
        hit.index = note.value_or(0);
    } else if (layout.trace.contains(pos)) {
        const auto index = requestNear(scene.split() ? scene.traceRow() : scene, layout.trace, pos);
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
        const auto [key_row, row] = laneRowAt(scene, static_cast<std::size_t>(lane), pos.y());
        if (key_row >= 0)
            hit.key = (*scene.split_keys)[static_cast<std::size_t>(key_row)];
        const auto index = requestNear(scene, row, pos, key_row);
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
        const auto [key_row, row] = lane < 0
                                        ? std::pair(-1, layout.trace)
                                        : laneRowAt(scene, static_cast<std::size_t>(lane), pos.y());
        const std::optional<std::size_t> near = lane < 0 ? requestNear(scene.traceRow(), row, pos)
                                                         : requestNear(scene, row, pos, key_row);
        if (!near) {
            return std::nullopt;
        }
        const TickRange group = requestsOnTick(scene.trace(), scene.trace().requests[*near].tick);
        std::size_t count = 0;
        for (std::size_t i = group.first; i < group.last; ++i)
            count += inKeyRow(scene, i, key_row) ? 1 : 0;
        if (count < TimelineScene::kPileFrom) {
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
