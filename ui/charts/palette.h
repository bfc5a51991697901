#pragma once

#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <string_view>

namespace ratelab::ui {

/// Marker shapes that tell the algorithms apart where colour alone would not.
enum class MarkerShape { Circle, Square, Diamond, Triangle, Star, Pentagon };

/// How every view draws one algorithm: an Okabe-Ito colour (told apart with every common kind of
/// colour blindness), a line pattern and a marker shape, so colour is never the only cue.
struct AlgorithmStyle {
    QColor color;
    Qt::PenStyle line = Qt::SolidLine;
    MarkerShape marker = MarkerShape::Circle;
    /// Line width in charts. Lines drawn earlier are wider, so a line that coincides with a
    /// later one still shows as a border around it.
    double width = 2.5;
};

/// The style of algorithm `id` (a registry id such as "token_bucket"); grey for unknown ids.
AlgorithmStyle algorithmStyle(std::string_view id);
/// Shorthand for algorithmStyle(id).color, for lane names, table rows and chart series.
QColor algorithmColor(std::string_view id);

/// The outline of `shape`, `size` pixels across, centred on `centre`.
QPainterPath markerPath(MarkerShape shape, QPointF centre, double size);

/// Colours of the chart furniture that is not an algorithm.
namespace chart_colors {
inline const QColor kReference{0x55, 0x55, 0x55};      // L and 2L lines
inline const QColor kOverLimit{0xD5, 0x5E, 0x00, 28};  // vermillion wash above L
inline const QColor kOverLimitText{0xB0, 0x45, 0x00};
inline const QColor kCursor{0x00, 0x72, 0xB2};  // the clock, as on the timeline
inline const QColor kDelay{0xE6, 0x9F, 0x00};   // queue delays, as on the timeline
}  // namespace chart_colors

}  // namespace ratelab::ui
