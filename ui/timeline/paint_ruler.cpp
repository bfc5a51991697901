#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_text.h"

namespace ratelab::ui {

namespace {

QFont handleFont(const TimelineScene& scene) {
    QFont bold = scene.font;
    bold.setBold(true);
    return bold;
}

void paintClockHandle(QPainter& painter, const TimelineScene& scene, const QRectF& handle) {
    const double x = scene.centreX(scene.frame->now);
    QPainterPath path;
    path.addRoundedRect(handle, 4.0, 4.0);
    // A small notch points down at the current tick's column.
    path.moveTo(x - 4.0, handle.bottom());
    path.lineTo(x, scene.layout.ruler.bottom());
    path.lineTo(x + 4.0, handle.bottom());
    path.closeSubpath();
    painter.setPen(Qt::NoPen);
    painter.setBrush(timeline_palette::kCursor);
    painter.drawPath(path.simplified());
    painter.setFont(handleFont(scene));
    painter.setPen(Qt::white);
    painter.drawText(handle, Qt::AlignCenter, QString::number(scene.frame->now));
}

std::int64_t labelStep(const TimelineScene& scene) {
    const double widest = scene.textWidth(
        scene.font, QString::number(static_cast<std::int64_t>(std::ceil(scene.axis->lastTime()))));
    return TimeAxis::labelStep(scene.axis->pixelsPerTick(), widest + 14.0);
}

}  // namespace

std::optional<QRectF> clockHandleBox(const TimelineScene& scene) {
    if (!scene.frame || !scene.frame->result) {
        return std::nullopt;
    }
    const double x = scene.centreX(scene.frame->now);
    if (!scene.layout.inPlot(x)) {
        return std::nullopt;
    }
    const QString text = QString::number(scene.frame->now);
    const double width = std::max(scene.textWidth(handleFont(scene), text) + 10.0, 22.0);
    // The handle slides inside the plot so its number stays readable at either edge.
    const double plot_right = scene.layout.plot_left + scene.layout.plot_width;
    const double left = std::clamp(x - width / 2.0, scene.layout.plot_left, plot_right - width);
    const QRectF& ruler = scene.layout.ruler;
    return QRectF(left, ruler.top() + 3.0, width, ruler.height() - 9.0);
}

std::vector<RulerLabel> rulerLabels(const TimelineScene& scene) {
    std::vector<RulerLabel> labels;
    const QRectF& ruler = scene.layout.ruler;
    const std::int64_t step = labelStep(scene);
    const auto first_tick = static_cast<Tick>(std::floor(scene.axis->firstTime()));
    const auto last_tick = static_cast<Tick>(std::ceil(scene.axis->lastTime()));
    const Tick first_label = std::max<Tick>(0, (first_tick / step) * step);
    const double plot_right = scene.layout.plot_left + scene.layout.plot_width;
    // The handle's number says where the clock is: labels it would cover, even in part, give way.
    const std::optional<QRectF> handle = clockHandleBox(scene);
    double previous_right = -1e300;
    for (Tick t = first_label; t <= last_tick; t += step) {
        // With one label per tick, the number sits in its cell; otherwise on the tick's edge.
        const double label_x = step == 1 ? scene.centreX(t) : scene.x(static_cast<double>(t));
        const QString text = QString::number(t);
        const double half = scene.textWidth(scene.font, text) / 2.0 + 1.0;
        // Labels at the edges slide inside the plot, unless that would make them collide.
        const double middle = std::clamp(label_x, scene.layout.plot_left + half, plot_right - half);
        if (label_x > plot_right || middle - half < previous_right + 4.0) {
            continue;
        }
        // As wide as the label: a fixed box cut long numbers (10^12) to their middle digits.
        const QRectF box(middle - half - 1.0, ruler.top() + 2.0, 2.0 * half + 2.0,
                         ruler.height() - 10.0);
        if (handle && box.adjusted(-3.0, 0.0, 3.0, 0.0).intersects(*handle)) {
            continue;
        }
        previous_right = middle + half;
        labels.push_back(RulerLabel{t, text, box});
    }
    return labels;
}

void paintTimelineRuler(QPainter& painter, const TimelineScene& scene) {
    const QRectF& ruler = scene.layout.ruler;
    const double ppt = scene.axis->pixelsPerTick();
    const std::int64_t step = labelStep(scene);
    const auto first_tick = static_cast<Tick>(std::floor(scene.axis->firstTime()));
    const auto last_tick = static_cast<Tick>(std::ceil(scene.axis->lastTime()));
    const QColor minor = scene.palette.color(QPalette::Mid);

    painter.setPen(QPen(minor, 1.0));
    if (ppt >= 4.0) {
        for (Tick t = std::max<Tick>(first_tick, 0); t <= last_tick; ++t) {
            const double x = scene.x(static_cast<double>(t));
            painter.drawLine(QPointF(x, ruler.bottom() - 4.0), QPointF(x, ruler.bottom()));
        }
    }
    for (Tick t = std::max<Tick>(0, (first_tick / step) * step); t <= last_tick; t += step) {
        const double edge = scene.x(static_cast<double>(t));
        painter.drawLine(QPointF(edge, ruler.bottom() - 8.0), QPointF(edge, ruler.bottom()));
    }
    painter.setFont(scene.font);
    painter.setPen(scene.palette.color(QPalette::WindowText));
    for (const RulerLabel& label : rulerLabels(scene)) {
        painter.drawText(label.box, Qt::AlignCenter, label.text);
    }
    painter.setPen(QPen(minor, 1.0));
    painter.drawLine(ruler.bottomLeft(), ruler.bottomRight());
    if (const std::optional<QRectF> handle = clockHandleBox(scene)) {
        paintClockHandle(painter, scene, *handle);
    }
}

}  // namespace ratelab::ui
