#include <QPainter>
#include <cmath>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

/// Window edges closer than this are not drawn: zoomed out they would fill the plot with a
/// grid that reads as noise, and thinned to every k-th they would no longer be window edges.
constexpr double kMinBoundarySpacing = 8.0;  // pixels

void paintWindowBoundaries(QPainter& painter, const TimelineScene& scene) {
    const Tick window = scene.frame->result->params.base.window;
    if (static_cast<double>(window) * scene.axis->pixelsPerTick() < kMinBoundarySpacing) {
        return;
    }
    const auto first =
        static_cast<std::int64_t>(std::ceil(scene.axis->firstTime() / static_cast<double>(window)));
    QPen pen(scene.palette.color(QPalette::Mid), 1.0, Qt::DashLine);
    painter.setPen(pen);
    const double top = scene.layout.ruler.center().y();
    for (std::int64_t k = first;; ++k) {
        const double x = scene.x(static_cast<double>(k * window));
        if (x > scene.layout.plot_left + scene.layout.plot_width) {
            break;
        }
        painter.drawLine(QPointF(x, top), QPointF(x, scene.layout.bottom()));
    }
}

}  // namespace

void paintTimelineBackground(QPainter& painter, const TimelineScene& scene) {
    const TimelineLayout& layout = scene.layout;
    const QPalette& palette = scene.palette;
    painter.fillRect(layout.ruler, palette.color(QPalette::Window));
    painter.fillRect(layout.notes, palette.color(QPalette::Base));
    painter.fillRect(layout.trace, palette.color(QPalette::Base));
    for (std::size_t i = 0; i < layout.lanes.size(); ++i) {
        painter.fillRect(layout.lanes[i],
                         palette.color(i % 2 == 0 ? QPalette::AlternateBase : QPalette::Base));
        if (static_cast<int>(i) == scene.highlighted_lane) {
            painter.fillRect(layout.lanes[i], timeline_palette::laneHighlight(palette));
        }
    }
    if (!scene.frame || !scene.frame->result) {
        return;
    }
    // The current tick's cell, and a light veil over the future whose decisions are not shown.
    const Tick now = scene.frame->now;
    const double plot_right = layout.plot_left + layout.plot_width;
    const double now_left = std::max(layout.plot_left, scene.x(static_cast<double>(now)));
    const double now_right = std::min(plot_right, scene.x(static_cast<double>(now + 1)));
    const QRectF rows(layout.plot_left, layout.trace.top(), layout.plot_width,
                      layout.bottom() - layout.trace.top());
    if (now_right > now_left) {
        QColor cursor = timeline_palette::kCursor;
        cursor.setAlpha(34);
        painter.fillRect(QRectF(now_left, rows.top(), now_right - now_left, rows.height()), cursor);
    }
    if (now_right < plot_right) {
        const double left = std::max(now_right, layout.plot_left);
        const QRectF future(left, layout.lanes.empty() ? rows.top() : layout.lanes.front().top(),
                            plot_right - left, rows.bottom() - layout.lanes.front().top());
        painter.fillRect(future, QColor(128, 128, 128, 22));
    }
    paintWindowBoundaries(painter, scene);
    painter.setPen(QPen(palette.color(QPalette::Midlight), 1.0));
    painter.drawLine(layout.trace.topLeft(), layout.trace.topRight());
    for (const QRectF& lane : layout.lanes) {
        painter.drawLine(lane.topLeft(), lane.topRight());
    }
    if (scene.split()) {
        // Split by key: a dotted line between one key's sub-row and the next.
        painter.setPen(QPen(palette.color(QPalette::Midlight), 1.0, Qt::DotLine));
        for (std::size_t lane = 0; lane < layout.lanes.size(); ++lane) {
            for (std::size_t row = 1; row < scene.splitCount(); ++row) {
                const double y = scene.subRow(lane, row).top();
                painter.drawLine(QPointF(layout.plot_left, y), QPointF(layout.ruler.width(), y));
            }
        }
        painter.setPen(QPen(palette.color(QPalette::Midlight), 1.0));
    }
    painter.drawLine(QPointF(0, layout.bottom()), QPointF(layout.ruler.width(), layout.bottom()));
}

}  // namespace ratelab::ui
