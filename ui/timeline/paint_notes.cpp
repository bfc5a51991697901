// Notes pinned to the trace's ticks ("the window turns over here"): a strip under the ruler
// holds each note's pin and text, and a dotted guide runs down from the pin through the trace
// row and the lanes, so that a lecture's remark points at the decisions it is about.
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

/// Between a note's text and the next note's pin, and round the text inside its box.
constexpr double kGap = 4.0;
constexpr double kPad = 3.0;
/// The pin's width: a small flag at the note's tick.
constexpr double kPin = 7.0;

bool hasNotes(const TimelineScene& scene) {
    return scene.notes != nullptr && !scene.notes->empty() && scene.layout.notes.height() > 0.0;
}

}  // namespace

QFont noteFont(const QFont& font) {
    QFont small = font;
    if (small.pointSizeF() > 0)
        small.setPointSizeF(std::max(6.5, font.pointSizeF() * 0.85));
    return small;
}

std::vector<NoteMark> noteMarks(const TimelineScene& scene) {
    std::vector<NoteMark> marks;
    if (!hasNotes(scene))
        return marks;
    const std::vector<TraceNote>& notes = *scene.notes;
    const QRectF& strip = scene.layout.notes;
    const double plot_right = scene.layout.plot_left + scene.layout.plot_width;
    const QFont font = noteFont(scene.font);
    const QFontMetricsF metrics(font);
    const double height = std::min(strip.height() - 2.0, metrics.height() + 2.0);
    // Notes on one tick share a mark, their texts joined; each runs up to the next tick's pin.
    for (std::size_t first = 0; first < notes.size();) {
        std::size_t end = first + 1;
        while (end < notes.size() && notes[end].tick == notes[first].tick)
            ++end;
        const double x = scene.centreX(notes[first].tick);
        const double next =
            end < notes.size() ? scene.centreX(notes[end].tick) - kPin / 2.0 - kGap : plot_right;
        if (x + kPin / 2.0 >= scene.layout.plot_left && x - kPin / 2.0 <= plot_right) {
            QStringList texts;
            for (std::size_t i = first; i < end; ++i)
                texts << QString::fromStdString(notes[i].text).simplified();
            NoteMark mark;
            mark.first = first;
            mark.last = end;
            mark.tick = notes[first].tick;
            mark.x = x;
            mark.font = font;
            mark.full = texts.join(QStringLiteral(" · "));
            const double room = std::min(next, plot_right) - x - kPad * 2.0;
            mark.text = scene.textWidth(font, mark.full) <= room
                            ? mark.full
                            : metrics.elidedText(mark.full, Qt::ElideRight, std::max(0.0, room));
            const double width = mark.text.isEmpty() ? kPin : scene.textWidth(font, mark.text);
            mark.box = QRectF(x - kPin / 2.0, strip.center().y() - height / 2.0,
                              std::max(kPin, width + kPad * 2.0 + kPin / 2.0), height);
            marks.push_back(mark);
        }
        first = end;
    }
    return marks;
}

std::optional<std::size_t> noteAt(const TimelineScene& scene, QPointF pos) {
    for (const NoteMark& mark : noteMarks(scene)) {
        if (mark.box.adjusted(-2.0, -2.0, 2.0, 2.0).contains(pos))
            return mark.first;
    }
    return std::nullopt;
}

void paintTimelineNoteGuides(QPainter& painter, const TimelineScene& scene) {
    const std::vector<NoteMark> marks = noteMarks(scene);
    if (marks.empty())
        return;
    QColor guide = timeline_palette::kNoteEdge;
    guide.setAlpha(150);
    painter.save();
    painter.setPen(QPen(guide, 1.0, Qt::DotLine));
    for (const NoteMark& mark : marks)
        painter.drawLine(QPointF(mark.x, scene.layout.notes.bottom()),
                         QPointF(mark.x, scene.layout.bottom()));
    painter.restore();
}

void paintTimelineNotes(QPainter& painter, const TimelineScene& scene) {
    if (!hasNotes(scene))
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const NoteMark& mark : noteMarks(scene)) {
        // A pale label with a darker edge, its left end a pin over the note's tick.
        painter.setPen(QPen(timeline_palette::kNoteEdge, 1.0));
        painter.setBrush(timeline_palette::kNoteFill);
        painter.drawRoundedRect(mark.box, 3.0, 3.0);
        painter.setBrush(timeline_palette::kNoteEdge);
        painter.setPen(Qt::NoPen);
        painter.drawRect(QRectF(mark.x - 1.0, mark.box.top(), 2.0, mark.box.height()));
        if (!mark.text.isEmpty()) {
            painter.setFont(mark.font);
            painter.setPen(timeline_palette::kNoteText);
            painter.drawText(mark.box.adjusted(kPin / 2.0 + kPad, 0.0, -kPad, 0.0),
                             Qt::AlignLeft | Qt::AlignVCenter, mark.text);
        }
    }
    painter.restore();
}

}  // namespace ratelab::ui
