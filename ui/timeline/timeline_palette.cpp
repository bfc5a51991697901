#include "timeline/timeline_palette.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace ratelab::ui::timeline_palette {

void drawAccepted(QPainter& painter, QPointF centre, double size) {
    const double r = size / 2.0;
    painter.setPen(QPen(kAccepted.darker(130), 1.0));
    painter.setBrush(kAccepted);
    painter.drawEllipse(centre, r, r);
}

void drawRejected(QPainter& painter, QPointF centre, double size) {
    const double r = size / 2.0 * 0.85;
    QPen pen(kRejected, std::max(1.5, size / 4.5), Qt::SolidLine, Qt::RoundCap);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawLine(centre + QPointF(-r, -r), centre + QPointF(r, r));
    painter.drawLine(centre + QPointF(-r, r), centre + QPointF(r, -r));
}

void drawPending(QPainter& painter, QPointF centre, double size) {
    const double r = size / 2.0 - 0.5;
    painter.setPen(QPen(kPending, std::max(1.0, size / 8.0)));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(centre, r, r);
}

void drawRelease(QPainter& painter, QPointF centre, double size) {
    const double r = size / 2.0;
    QPainterPath diamond;
    diamond.moveTo(centre + QPointF(0, -r));
    diamond.lineTo(centre + QPointF(r, 0));
    diamond.lineTo(centre + QPointF(0, r));
    diamond.lineTo(centre + QPointF(-r, 0));
    diamond.closeSubpath();
    painter.setPen(QPen(kDelay.darker(140), 1.0));
    painter.setBrush(kDelay);
    painter.drawPath(diamond);
}

}  // namespace ratelab::ui::timeline_palette
