#include "charts/palette.h"

#include <QImage>
#include <QtMath>
#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

#include "ratelab/simulation.h"

namespace ratelab::ui {
namespace {

struct Entry {
    std::string_view id;
    AlgorithmStyle style;
};

// Okabe-Ito colours without vermillion, which the views keep for "rejected", and without
// yellow, which is too faint on white paper; the leaky bucket is indigo (kIndigo) instead of
// Okabe-Ito's reddish purple, which is the hatched band of "more than L in W ticks".
// Widths shrink in display order and the patterns differ, so that coinciding lines (the token
// bucket and GCRA, often the fixed window too) all stay visible.
const std::array<Entry, 6> kStyles{{
    {"fixed_window", {QColor(0xE6, 0x9F, 0x00), Qt::SolidLine, MarkerShape::Square, 6.5}},
    {"sliding_log", {QColor(0x00, 0x72, 0xB2), Qt::SolidLine, MarkerShape::Circle, 4.5}},
    {"sliding_counter", {QColor(0x56, 0xB4, 0xE9), Qt::DashLine, MarkerShape::Triangle, 3.2}},
    {"token_bucket", {QColor(0x00, 0x9E, 0x73), Qt::SolidLine, MarkerShape::Diamond, 2.8}},
    {"leaky_bucket", {kIndigo, Qt::DashDotLine, MarkerShape::Pentagon, 2.4}},
    {"gcra", {QColor(0x00, 0x00, 0x00), Qt::DotLine, MarkerShape::Star, 1.8}},
}};

QPainterPath regularPolygon(QPointF centre, double radius, int corners, double inner_ratio) {
    // With an inner ratio below 1 every second corner is pulled in, which makes a star.
    const int points = inner_ratio < 1.0 ? corners * 2 : corners;
    QPainterPath path;
    for (int i = 0; i < points; ++i) {
        const double angle = -M_PI / 2 + 2 * M_PI * i / points;
        const double r = (inner_ratio < 1.0 && i % 2 == 1) ? radius * inner_ratio : radius;
        const QPointF p = centre + QPointF(r * std::cos(angle), r * std::sin(angle));
        if (i == 0)
            path.moveTo(p);
        else
            path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

}  // namespace

double relativeLuminance(const QColor& colour) {
    const auto channel = [](double value) {
        return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
    };
    const QColor rgb = colour.toRgb();
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) +
           0.0722 * channel(rgb.blueF());
}

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

AlgorithmStyle algorithmStyle(std::string_view id) {
    for (const Entry& entry : kStyles) {
        if (entry.id == id)
            return entry.style;
    }
    return AlgorithmStyle{QColor(0x88, 0x88, 0x88), Qt::SolidLine, MarkerShape::Circle};
}

bool hasOwnStyle(std::string_view id) {
    return std::any_of(kStyles.begin(), kStyles.end(),
                       [id](const Entry& entry) { return entry.id == id; });
}

AlgorithmStyle borrowedStyle(int rank) {
    const int count = static_cast<int>(kStyles.size());
    return laneStyle(kStyles[static_cast<std::size_t>(rank % count)].id, rank / count);
}

QColor algorithmColor(std::string_view id) {
    return algorithmStyle(id).color;
}

AlgorithmStyle laneStyle(std::string_view id, int repeat) {
    AlgorithmStyle style = algorithmStyle(id);
    if (repeat <= 0)
        return style;
    static constexpr Qt::PenStyle kLines[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                              Qt::DashDotDotLine};
    static constexpr MarkerShape kMarkers[] = {MarkerShape::Square,   MarkerShape::Diamond,
                                               MarkerShape::Triangle, MarkerShape::Star,
                                               MarkerShape::Pentagon, MarkerShape::Circle};
    const auto index = static_cast<std::size_t>(repeat - 1);
    style.line = kLines[index % std::size(kLines)];
    // A marker unlike the algorithm's own.
    MarkerShape marker = kMarkers[index % std::size(kMarkers)];
    if (marker == style.marker)
        marker = kMarkers[(index + 1) % std::size(kMarkers)];
    style.marker = marker;
    // Alternately darker and lighter, staying readable on light and dark backgrounds.
    style.color = repeat % 2 == 1 ? style.color.darker(145) : style.color.lighter(135);
    style.width = std::max(1.6, style.width - 0.6 * repeat);
    return style;
}

QPainterPath markerPath(MarkerShape shape, QPointF centre, double size) {
    const double r = size / 2.0;
    QPainterPath path;
    switch (shape) {
        case MarkerShape::Circle:
            path.addEllipse(centre, r, r);
            return path;
        case MarkerShape::Square:
            path.addRect(QRectF(centre.x() - r * 0.85, centre.y() - r * 0.85, r * 1.7, r * 1.7));
            return path;
        case MarkerShape::Diamond:
            return regularPolygon(centre, r * 1.1, 4, 1.0);
        case MarkerShape::Triangle:
            return regularPolygon(centre + QPointF(0, r * 0.15), r * 1.1, 3, 1.0);
        case MarkerShape::Star:
            return regularPolygon(centre, r * 1.15, 5, 0.45);
        case MarkerShape::Pentagon:
            return regularPolygon(centre, r, 5, 1.0);
    }
    return path;
}

namespace chart_colors {

QBrush overLimitBrush() {
    static const QBrush brush = [] {
        // One tile of the pattern: the wash, with a line from its bottom-left to its top-right
        // corner that joins the next tile's, so the tiles make unbroken diagonals. Where a line
        // crosses, the hatch is laid over the wash; both are one colour, so only opacity adds up.
        constexpr int kTile = 8;
        QColor wash = kOverLimit;
        wash.setAlpha(kOverLimitWashAlpha);
        QColor line = kOverLimit;
        line.setAlpha(255 - (255 - kOverLimitWashAlpha) * (255 - kOverLimitHatchAlpha) / 255);
        QImage tile(kTile, kTile, QImage::Format_ARGB32);
        tile.fill(wash);
        for (int i = 0; i < kTile; ++i) {
            tile.setPixelColor(i, kTile - 1 - i, line);
        }
        return QBrush(tile);
    }();
    return brush;
}

}  // namespace chart_colors

std::vector<KeyId> colouredKeys(const SimulationResult& result, const std::vector<char>& mask) {
    std::vector<KeyId> keys;
    const Trace& trace = *result.trace;
    if (result.sole_key)
        return keys;
    if (!mask.empty()) {
        for (KeyId key = 0; key < mask.size(); ++key) {
            if (mask[key] != 0)
                keys.push_back(key);
        }
    } else if (trace.keys.size() <= kMostKeyColours + 1) {
        const bool default_used = std::any_of(trace.requests.begin(), trace.requests.end(),
                                              [](const Request& r) { return r.key == 0; });
        for (KeyId key = default_used ? 0 : 1; key < trace.keys.size(); ++key)
            keys.push_back(key);
    }
    if (keys.size() < 2 || keys.size() > kMostKeyColours)
        keys.clear();
    return keys;
}

}  // namespace ratelab::ui
