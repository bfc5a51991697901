#pragma once

#include <QColor>
#include <QPointF>

class QPainter;

namespace ratelab::ui::timeline_palette {

// Okabe-Ito colours: told apart with every common kind of colour blindness. Each outcome also has
// its own shape, so colour is never the only cue.
inline const QColor kAccepted{0x00, 0x9E, 0x73};   // bluish green, filled disc
inline const QColor kRejected{0xD5, 0x5E, 0x00};   // vermillion, cross
inline const QColor kPending{0x99, 0x99, 0x99};    // grey, hollow ring
inline const QColor kDelay{0xE6, 0x9F, 0x00};      // orange, the queue delay line
inline const QColor kRequest{0x3B, 0x4A, 0x5A};    // slate, trace boxes
inline const QColor kSelection{0x00, 0x72, 0xB2};  // blue
inline const QColor kCursor{0x00, 0x72, 0xB2};
inline const QColor kBurstWithin{0x56, 0xB4, 0xE9};  // sky blue
inline const QColor kBurstOver{0xD5, 0x5E, 0x00};
inline const QColor kHighlight{0xF0, 0xE4, 0x42, 60};  // yellow wash behind a highlighted lane

void drawAccepted(QPainter& painter, QPointF centre, double size);
void drawRejected(QPainter& painter, QPointF centre, double size);
void drawPending(QPainter& painter, QPointF centre, double size);
/// The small mark where a queued request leaves the queue.
void drawRelease(QPainter& painter, QPointF centre, double size);

}  // namespace ratelab::ui::timeline_palette
