#pragma once

#include <QColor>
#include <QPointF>
#include <cstddef>
#include <iterator>

#include "charts/palette.h"

class QPalette;

class QPainter;

namespace ratelab::ui::timeline_palette {

// Okabe-Ito colours: told apart with every common kind of colour blindness. Each outcome also has
// its own shape, so colour is never the only cue. The backgrounds come from the widget's QPalette,
// so these marks must stand out (contrast of 3:1 or more, as WCAG asks of graphics) on a light
// and on a dark palette alike; the screen and the light print theme of exports share them.
inline const QColor kAccepted{0x00, 0x9E, 0x73};   // bluish green, filled disc
inline const QColor kRejected{0xD5, 0x5E, 0x00};   // vermillion, cross
inline const QColor kPending{0x8A, 0x8A, 0x8A};    // grey, hollow ring
inline const QColor kDelay{0xE6, 0x9F, 0x00};      // orange, the queue delay line
inline const QColor kRequest{0x66, 0x7B, 0x91};    // mid slate, trace boxes
inline const QColor kSelection{0x00, 0x72, 0xB2};  // blue
// The trace row's boxes of a few keys, a colour each: the charts' (charts/palette.h).
using ui::kKeyColours;
using ui::kMostKeyColours;
inline const QColor kCursor{0x00, 0x72, 0xB2};
/// A note pinned to a tick: a pale yellow label with a darker edge, in dark type whatever the
/// theme (the label's own fill is light).
inline const QColor kNoteFill{0xFF, 0xF4, 0xC8};
inline const QColor kNoteEdge{0xB8, 0x8A, 0x00};
inline const QColor kNoteText{0x33, 0x2B, 0x10};
inline const QColor kBurstWithin{0x56, 0xB4, 0xE9};  // sky blue
// "More than L in W ticks", as the charts draw it: a hatched reddish purple, never vermillion.
inline const QColor kBurstOver = chart_colors::kOverLimit;
inline const QColor kHighlight{0xF0, 0xE4, 0x42, 60};  // yellow wash behind a highlighted lane
// Opacity of the worst span's band behind the decisions, over and within the limit, and of the
// hatch lines drawn over the band of a span over the limit.
inline constexpr int kBurstOverWashAlpha = chart_colors::kOverLimitWashAlpha;
inline constexpr int kBurstOverHatchAlpha = chart_colors::kOverLimitHatchAlpha;
inline constexpr int kBurstWithinWashAlpha = 34;
// Opacity of queue waits drawn faded where they tangle, behind the hovered or selected one.
inline constexpr int kFadedDelayAlpha = 70;

// Contrast as WCAG measures it, shared with the charts.
using ratelab::ui::contrastRatio;
using ratelab::ui::legibleOn;
using ratelab::ui::relativeLuminance;

// Colours that depend on the palette they are drawn on. Light palettes (the screen's and the
// print theme of exports) get the designed colours unchanged; dark ones get colours that keep
// text at 4.5:1 and do not turn muddy.

/// Whether `palette` draws light text on a dark base.
bool isDark(const QPalette& palette);
/// The wash behind the highlighted lane. Yellow over a dark grey turns olive, so on a dark
/// palette the lane is lifted with a light veil instead.
QColor laneHighlight(const QPalette& palette);
/// The outline, ring and notes of a lesson's highlights: an amber that reads on the palette's
/// base (and on the yellow wash of a highlighted span) without being an outcome's colour.
QColor lessonMark(const QPalette& palette);
/// The band of a span over the limit, as the charts paint the band above L.
using chart_colors::overLimitBrush;

/// The "> L" figure of a worst span over the limit, on either lane stripe under the span's wash,
/// highlighted or not.
QColor overLimitLabel(const QPalette& palette);
/// "Accepted" and "Rejected" in a decision's tooltip, on the palette's ToolTipBase.
QColor acceptedToolTipText(const QPalette& palette);
QColor rejectedToolTipText(const QPalette& palette);

void drawAccepted(QPainter& painter, QPointF centre, double size);
void drawRejected(QPainter& painter, QPointF centre, double size);
void drawPending(QPainter& painter, QPointF centre, double size);
/// The small mark where a queued request leaves the queue; faded waits pass a paler colour.
void drawRelease(QPainter& painter, QPointF centre, double size, const QColor& colour = kDelay);

}  // namespace ratelab::ui::timeline_palette
