#include "timeline/timeline_palette.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace ratelab::ui::timeline_palette {

namespace {

double relativeLuminance(const QColor& colour) {
    const auto channel = [](double value) {
        return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
    };
    const QColor rgb = colour.toRgb();
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) +
           0.0722 * channel(rgb.blueF());
}

}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a);
    const double lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor legibleOn(const QColor& colour, const QColor& background, double ratio) {
    // Move the lightness away from the background's in small steps, keeping hue and saturation,
    // so the colour stays recognisably the same mark.
    if (contrastRatio(colour, background) >= ratio) {
        return colour;
    }
    const bool lighten = relativeLuminance(background) < 0.18;
    QColor candidate = colour.toHsl();
    for (int step = 0; step < 40 && contrastRatio(candidate, background) < ratio; ++step) {
        const float lightness = candidate.lightnessF() + (lighten ? 0.025f : -0.025f);
        candidate.setHslF(candidate.hslHueF(), candidate.hslSaturationF(),
                          std::clamp(lightness, 0.0f, 1.0f), candidate.alphaF());
    }
    return candidate.toRgb();
}

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
