#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

void paintClockHandle(QPainter& painter, const TimelineScene& scene) {
    const Tick now = scene.frame->now;
    const QRectF& ruler = scene.layout.ruler;
    const double x = scene.centreX(now);
    if (!scene.layout.inPlot(x)) {
        return;
    }
    QFont bold = scene.font;
    bold.setBold(true);
    painter.setFont(bold);
    const QString text = QString::number(now);
    const double width = std::max(scene.textWidth(bold, text) + 10.0, 22.0);
    // The handle slides inside the plot so its number stays readable at either edge.
    const double plot_right = scene.layout.plot_left + scene.layout.plot_width;
    const double left = std::clamp(x - width / 2.0, scene.layout.plot_left, plot_right - width);
    const QRectF handle(left, ruler.top() + 3.0, width, ruler.height() - 9.0);
    QPainterPath path;
    path.addRoundedRect(handle, 4.0, 4.0);
    // A small notch points down at the current tick's column.
    path.moveTo(x - 4.0, handle.bottom());
    path.lineTo(x, ruler.bottom());
    path.lineTo(x + 4.0, handle.bottom());
    path.closeSubpath();
    painter.setPen(Qt::NoPen);
    painter.setBrush(timeline_palette::kCursor);
    painter.drawPath(path.simplified());
    painter.setPen(Qt::white);
    painter.drawText(handle, Qt::AlignCenter, text);
}

}  // namespace

void paintTimelineRuler(QPainter& painter, const TimelineScene& scene) {
    const QRectF& ruler = scene.layout.ruler;
    const double ppt = scene.axis->pixelsPerTick();
    const double widest = scene.textWidth(
        scene.font, QString::number(static_cast<std::int64_t>(std::ceil(scene.axis->lastTime()))));
    const std::int64_t step = TimeAxis::labelStep(ppt, widest + 14.0);
    const auto first_tick = static_cast<Tick>(std::floor(scene.axis->firstTime()));
    const auto last_tick = static_cast<Tick>(std::ceil(scene.axis->lastTime()));
    const QColor text = scene.palette.color(QPalette::WindowText);
    QColor minor = scene.palette.color(QPalette::Mid);

    painter.setFont(scene.font);
    if (ppt >= 4.0) {
        painter.setPen(QPen(minor, 1.0));
        for (Tick t = std::max<Tick>(first_tick, 0); t <= last_tick; ++t) {
            const double x = scene.x(static_cast<double>(t));
            painter.drawLine(QPointF(x, ruler.bottom() - 4.0), QPointF(x, ruler.bottom()));
        }
    }
    const Tick first_label = std::max<Tick>(0, (first_tick / step) * step);
    const double plot_right = scene.layout.plot_left + scene.layout.plot_width;
    double previous_right = -1e300;
    for (Tick t = first_label; t <= last_tick; t += step) {
        const double centre = scene.centreX(t);
        painter.setPen(QPen(minor, 1.0));
        const double edge = scene.x(static_cast<double>(t));
        painter.drawLine(QPointF(edge, ruler.bottom() - 8.0), QPointF(edge, ruler.bottom()));
        painter.setPen(text);
        // With one label per tick, the number sits in its cell; otherwise on the tick's edge.
        const double label_x = step == 1 ? centre : edge;
        const QString label = QString::number(t);
        const double half = scene.textWidth(scene.font, label) / 2.0 + 1.0;
        // Labels at the edges slide inside the plot, unless that would make them collide.
        const double middle = std::clamp(label_x, scene.layout.plot_left + half, plot_right - half);
        if (label_x > plot_right || middle - half < previous_right + 4.0) {
            continue;
        }
        previous_right = middle + half;
        // As wide as the label: a fixed box cut long numbers (10^12) to their middle digits.
        painter.drawText(
            QRectF(middle - half - 1.0, ruler.top() + 2.0, 2.0 * half + 2.0, ruler.height() - 10.0),
            Qt::AlignCenter, label);
    }
    painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0));
    painter.drawLine(ruler.bottomLeft(), ruler.bottomRight());
    if (scene.frame && scene.frame->result) {
        paintClockHandle(painter, scene);
    }
}

}  // namespace ratelab::ui
