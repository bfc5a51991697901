// The retries of clients that answer back, over the lanes: a small mark at each retry's tick,
// under the row of decisions, joined by a thin arc to the attempt before it.
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "timeline/lane_retries.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

namespace marks = timeline_palette;

/// Orders retries and ticks by tick, for the searches of a lane's retries.
struct Compare {
    bool operator()(const LaneRetries::Retry& retry, Tick tick) const { return retry.tick < tick; }
    bool operator()(Tick tick, const LaneRetries::Retry& retry) const { return tick < retry.tick; }
};

double retrySize(const TimelineScene& scene) {
    return std::max(4.0, scene.marker * 0.55);
}

}  // namespace

std::vector<RetryMark> retryMarks(const TimelineScene& scene, std::size_t lane_index) {
    if (!scene.retries || !scene.detailed || lane_index >= scene.retries->lanes.size() ||
        lane_index >= scene.layout.lanes.size())
        return {};
    const std::vector<LaneRetries::Retry>& retries = scene.retries->lanes[lane_index];
    // Under the decisions (of the intent's key's sub-row, with split lanes), clear of the
    // worst span's bracket and figure along the top.
    const auto below = [&](const QRectF& row) {
        return std::min(row.bottom() - 3.0 - retrySize(scene) / 2.0,
                        row.center().y() + scene.marker * 0.95);
    };
    const auto first_tick = static_cast<Tick>(std::floor(scene.axis->firstTime()));
    const auto last_tick = static_cast<Tick>(std::ceil(scene.axis->lastTime()));
    // Retries on one tick (clients told the same Retry-After) side by side within its cell.
    const double cell = scene.centreX(1) - scene.centreX(0);
    const auto at = [&](std::size_t index) {
        const Tick tick = retries[index].tick;
        const auto [from, to] = std::equal_range(retries.begin(), retries.end(), tick, Compare{});
        const auto count = static_cast<double>(to - from);
        const auto slot =
            static_cast<double>(retries.begin() + static_cast<std::ptrdiff_t>(index) - from);
        const double step = std::min(retrySize(scene) + 1.5, cell * 0.9 / count);
        return QPointF(scene.centreX(tick) + (slot - (count - 1.0) / 2.0) * step,
                       below(scene.laneRow(lane_index, retries[index].intent)));
    };
    std::vector<RetryMark> shown;
    // In tick order: the first retry at or after the view's first tick, up to its last, and
    // only those the clock has reached.
    auto begin = std::lower_bound(retries.begin(), retries.end(), first_tick, Compare{});
    for (auto it = begin; it != retries.end() && it->tick <= last_tick; ++it) {
        if (it->tick > scene.frame->now)
            break;
        if (scene.split() && scene.splitRowOf(it->intent) < 0)
            continue;  // its key has no sub-row
        const auto index = static_cast<std::size_t>(it - retries.begin());
        const QPointF from = it->previous == LaneRetries::kFromIntent
                                 ? scene.lanePoint(lane_index, it->intent)
                                 : at(it->previous);
        shown.push_back(RetryMark{index, at(index), from, it->decision.accepted,
                                  scene.laneRow(lane_index, it->intent).bottom()});
    }
    return shown;
}

std::optional<std::size_t> retryNear(const TimelineScene& scene, std::size_t lane, QPointF pos) {
    // A mark is small: a pixel or two around it still counts, the nearest one wins.
    const double reach = retrySize(scene) / 2.0 + 2.0;
    std::optional<std::size_t> nearest;
    double best = reach;
    for (const RetryMark& mark : retryMarks(scene, lane)) {
        const double distance =
            std::max(std::abs(mark.at.x() - pos.x()), std::abs(mark.at.y() - pos.y()));
        if (distance <= best) {
            best = distance;
            nearest = mark.index;
        }
    }
    return nearest;
}

void paintTimelineRetries(QPainter& painter, const TimelineScene& scene) {
    if (!scene.retries || !scene.detailed)
        return;
    const double size = retrySize(scene);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    QColor arc = scene.palette.color(QPalette::Text);
    arc.setAlpha(110);
    for (std::size_t lane = 0; lane < scene.layout.lanes.size(); ++lane) {
        const std::vector<RetryMark> retries = retryMarks(scene, lane);
        // The arcs first, under every mark; each sags under the ticks it spans.
        painter.setPen(QPen(arc, 1.0));
        painter.setBrush(Qt::NoBrush);
        for (const RetryMark& mark : retries) {
            QPainterPath path(mark.from);
            const double lift =
                std::min(scene.marker * 1.2, 4.0 + std::abs(mark.at.x() - mark.from.x()) / 3.0);
            // The curve's lowest point is half way between the ends' middle and the control
            // point: kept a pixel above the lane's bottom.
            const double ends = (mark.from.y() + mark.at.y()) / 2.0;
            const double deepest = 2.0 * (mark.bottom - 1.0) - ends;
            const QPointF control((mark.from.x() + mark.at.x()) / 2.0,
                                  std::min(std::max(mark.from.y(), mark.at.y()) + lift, deepest));
            path.quadTo(control, mark.at);
            painter.drawPath(path);
        }
        for (const RetryMark& mark : retries) {
            if (mark.accepted)
                marks::drawAccepted(painter, mark.at, size);
            else
                marks::drawRejected(painter, mark.at, size);
        }
    }
    painter.restore();
}

}  // namespace ratelab::ui
