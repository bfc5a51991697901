#pragma once

#include <QBrush>
#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <cstddef>
#include <iterator>
#include <string_view>
#include <vector>

#include "ratelab/model.h"

namespace ratelab {
struct SimulationResult;
}

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

/// Paul Tol's indigo, told apart from the Okabe-Ito colours with every common colour
/// blindness: the line of the leaky bucket and of the fleet's racy mode. Okabe-Ito's reddish
/// purple, which they had, is too near the hatched purple of "more than L" they are drawn over.
inline const QColor kIndigo{0x33, 0x22, 0x88};

/// The style of algorithm `id` (a registry id such as "token_bucket"); grey for unknown ids.
AlgorithmStyle algorithmStyle(std::string_view id);
/// Shorthand for algorithmStyle(id).color, for lane names, table rows and chart series.
QColor algorithmColor(std::string_view id);

/// The style of a lane that is the `repeat`-th lane of its algorithm (0 for the first): the
/// first keeps the algorithm's style; later ones change shade, line pattern and marker, so
/// that two lanes of one algorithm are told apart in every view.
AlgorithmStyle laneStyle(std::string_view id, int repeat);
/// How many lanes before `lane` in `lanes` (anything with an `id`, such as AlgorithmRun or
/// AlgorithmSeries) run the same algorithm.
template <class Lanes>
int repeatOf(const Lanes& lanes, std::size_t lane) {
    int repeat = 0;
    for (std::size_t i = 0; i < lane; ++i)
        repeat += lanes[i].id == lanes[lane].id ? 1 : 0;
    return repeat;
}
/// laneStyle() of lane `lane` in `lanes`.
/// Whether algorithm `id` has a style of its own: RateLab's six do, library presets do not.
bool hasOwnStyle(std::string_view id);
/// The style of the `rank`-th lane (from 0) of a comparison whose algorithm has none of its
/// own: the six algorithms' styles in turn, then their variants, so that presets side by side
/// are told apart.
AlgorithmStyle borrowedStyle(int rank);
template <class Lanes>
AlgorithmStyle laneStyleAt(const Lanes& lanes, std::size_t lane) {
    if (hasOwnStyle(lanes[lane].id))
        return laneStyle(lanes[lane].id, repeatOf(lanes, lane));
    int rank = 0;
    for (std::size_t i = 0; i < lane; ++i)
        rank += hasOwnStyle(lanes[i].id) ? 0 : 1;
    return borrowedStyle(rank);
}

/// The WCAG relative luminance of a colour, from 0 (black) to 1 (white).
double relativeLuminance(const QColor& colour);
/// The WCAG contrast ratio of two colours, from 1 (same luminance) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);
/// `colour`, made lighter or darker just enough to reach `ratio` against `background`, for text
/// in a mark's colour (such as a red count in a table) on light and dark palettes, or a line on
/// a dark chart.
QColor legibleOn(const QColor& colour, const QColor& background, double ratio = 4.5);

/// The outline of `shape`, `size` pixels across, centred on `centre`.
QPainterPath markerPath(MarkerShape shape, QPointF centre, double size);

/// The colours of a few keys, one each, in every view that tells keys apart (the timeline's
/// request boxes, the charts' per-key lines): Paul Tol's muted scheme, without its light and
/// blue hues, so that white figures stay legible and a selected box, blue, stands out.
inline const QColor kKeyColours[] = {
    {0x44, 0xAA, 0x99}, {0xCC, 0x66, 0x77}, {0x99, 0x99, 0x33}, {0x88, 0x22, 0x55},
    {0x11, 0x77, 0x33}, {0xAA, 0x44, 0x99}, {0x8C, 0x5A, 0x3C}, {0xB0, 0x7A, 0x00},
};
inline constexpr std::size_t kMostKeyColours = std::size(kKeyColours);

/// The keys that get a colour of their own (kKeyColours, in this order), in the key table's
/// order: those `mask` holds (the keys on show), or with an empty mask every key of the table
/// (the default key only when a request has it); none unless that makes two to kMostKeyColours
/// keys.
std::vector<KeyId> colouredKeys(const SimulationResult& result, const std::vector<char>& mask);

/// Colours of the chart furniture that is not an algorithm.
namespace chart_colors {
inline const QColor kReference{0x55, 0x55, 0x55};  // L and 2L lines
// More than L in W ticks, on the timeline and in charts alike: reddish purple, a shade darker
// than Okabe-Ito's #CC79A7 so that a thin line of it keeps 3:1 on a light lane stripe, and
// always hatched, so that it is not read as the vermillion of "rejected". No line is drawn in
// a purple: the leaky bucket's is indigo. Figures over L in exported tables are written in a darker
// shade still.
inline const QColor kOverLimit{0xC0, 0x67, 0x9C};
inline const QColor kOverLimitText{0x9A, 0x45, 0x79};
// Opacity of the band's wash and of the hatch lines drawn over it.
inline constexpr int kOverLimitWashAlpha = 34;
inline constexpr int kOverLimitHatchAlpha = 110;
/// The band where more than L were let through in W ticks: the wash crossed by diagonal lines,
/// so that it differs from other bands in pattern, not only in hue.
QBrush overLimitBrush();
inline const QColor kCursor{0x00, 0x72, 0xB2};  // the clock, as on the timeline
inline const QColor kDelay{0xE6, 0x9F, 0x00};   // queue delays, as on the timeline
/// Where a closed form says rejections stop, on the sweep's chart: the vermillion of rejections,
/// dash-dotted, beside lines of the token bucket's green or GCRA's black.
inline const QColor kFrontier{0xD5, 0x5E, 0x00};
}  // namespace chart_colors

}  // namespace ratelab::ui
