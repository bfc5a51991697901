#include "timeline/timeline_palette.h"

#include <QList>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace ratelab::ui::timeline_palette {

namespace {

/// `top` painted with its alpha over the opaque `bottom`.
QColor composite(const QColor& top, const QColor& bottom) {
    const double a = top.alphaF();
    const auto mix = [a](double over, double under) { return over * a + under * (1.0 - a); };
    return QColor::fromRgbF(static_cast<float>(mix(top.redF(), bottom.redF())),
                            static_cast<float>(mix(top.greenF(), bottom.greenF())),
                            static_cast<float>(mix(top.blueF(), bottom.blueF())));
}

/// `colour` adjusted until it reads at 4.5:1 on every one of `backgrounds`. On a palette every
/// background is dark or every one is light, so each step moves the same way and never undoes
/// an earlier one.
QColor legibleOnAll(QColor colour, const QList<QColor>& backgrounds) {
    for (int pass = 0; pass < 2; ++pass) {
        for (const QColor& background : backgrounds) {
            colour = legibleOn(colour, background);
        }
    }
    return colour;
}

}  // namespace

bool isDark(const QPalette& palette) {
    return relativeLuminance(palette.color(QPalette::Text)) >
           relativeLuminance(palette.color(QPalette::Base));
}

QColor laneHighlight(const QPalette& palette) {
    return isDark(palette) ? QColor(0xFF, 0xFF, 0xFF, 26) : kHighlight;
}

QColor lessonMark(const QPalette& palette) {
    return isDark(palette) ? QColor(0xF0, 0xB8, 0x40) : QColor(0x9A, 0x5B, 0x00);
}

QColor overLimitLabel(const QPalette& palette) {
    // The figure sits on the band: on either lane stripe, highlighted or not, on the wash or on
    // one of its hatch lines.
    QColor wash = kBurstOver;
    wash.setAlpha(kBurstOverWashAlpha);
    QColor hatch = kBurstOver;
    hatch.setAlpha(kBurstOverHatchAlpha);
    const QColor highlight = laneHighlight(palette);
    QList<QColor> backgrounds;
    for (const QColor& stripe :
         {palette.color(QPalette::Base), palette.color(QPalette::AlternateBase)}) {
        for (const QColor& lane : {stripe, composite(highlight, stripe)}) {
            const QColor washed = composite(wash, lane);
            backgrounds << washed << composite(hatch, washed);
        }
    }
    return legibleOnAll(kBurstOver, backgrounds);
}

QColor acceptedToolTipText(const QPalette& palette) {
    const QColor background = palette.color(QPalette::ToolTipBase);
    if (relativeLuminance(palette.color(QPalette::ToolTipText)) <= relativeLuminance(background)) {
        return kAccepted.darker(120);
    }
    return legibleOn(kAccepted, background);
}

QColor rejectedToolTipText(const QPalette& palette) {
    const QColor background = palette.color(QPalette::ToolTipBase);
    if (relativeLuminance(palette.color(QPalette::ToolTipText)) <= relativeLuminance(background)) {
        return kRejected;
    }
    return legibleOn(kRejected, background);
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

void drawRelease(QPainter& painter, QPointF centre, double size, const QColor& colour) {
    const double r = size / 2.0;
    QPainterPath diamond;
    diamond.moveTo(centre + QPointF(0, -r));
    diamond.lineTo(centre + QPointF(r, 0));
    diamond.lineTo(centre + QPointF(0, r));
    diamond.lineTo(centre + QPointF(-r, 0));
    diamond.closeSubpath();
    QColor outline = colour.darker(140);
    outline.setAlpha(colour.alpha());
    painter.setPen(QPen(outline, 1.0));
    painter.setBrush(colour);
    painter.drawPath(diamond);
}

}  // namespace ratelab::ui::timeline_palette
