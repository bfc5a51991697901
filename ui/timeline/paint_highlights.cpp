// A lesson step's highlights on the timeline: a wash over a span of ticks, an outline round a
// lane, a ring round a request, each with its note, so that "look at ticks 6 to 10" points at
// them on the timeline rather than in words only.
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ratelab/lesson.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

/// The widest a note of a narrow span or a request may run, in pixels.
constexpr double kNoteRoom = 220.0;

QFont noteFont(const TimelineScene& scene) {
    QFont font = scene.font;
    font.setBold(true);
    if (font.pointSizeF() > 0)
        font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.9));
    return font;
}

bool hasHighlights(const TimelineScene& scene) {
    return scene.highlights != nullptr && !scene.highlights->empty() && scene.frame &&
           scene.frame->result;
}

}  // namespace

std::vector<HighlightMark> highlightMarks(const TimelineScene& scene) {
    std::vector<HighlightMark> marks;
    if (!hasHighlights(scene))
        return marks;
    const TimelineLayout& layout = scene.layout;
    const double plot_right = layout.plot_left + layout.plot_width;
    const double line = QFontMetricsF(noteFont(scene)).height();
    for (std::size_t i = 0; i < scene.highlights->size(); ++i) {
        const Highlight& highlight = (*scene.highlights)[i];
        HighlightMark mark;
        mark.highlight = i;
        mark.note = QString::fromStdString(highlight.note);
        switch (highlight.kind) {
            case Highlight::Kind::span: {
                const double left = scene.x(static_cast<double>(highlight.from));
                const double right = scene.x(static_cast<double>(highlight.to));
                if (right <= layout.plot_left || left >= plot_right)
                    continue;
                mark.area =
                    QRectF(QPointF(left, layout.trace.top()), QPointF(right, layout.bottom()));
                // At the foot of the last lane, where the marks leave room (the trace row's
                // stacks reach its top), from the span's first visible tick on; past the span's
                // end only up to the next span's note.
                const double from = std::max(left, layout.plot_left) + 3.0;
                double room = from + kNoteRoom;
                for (const Highlight& other : *scene.highlights) {
                    const double other_left = scene.x(static_cast<double>(other.from));
                    if (other.kind == Highlight::Kind::span && other_left > left)
                        room = std::min(room, other_left);
                }
                mark.note_at = QPointF(from, layout.bottom() - line - 2.0);
                mark.note_width = std::max(std::min(right, plot_right), room) - from - 3.0;
                break;
            }
            case Highlight::Kind::lane: {
                if (highlight.lane >= layout.lanes.size())
                    continue;
                mark.area = layout.lanes[highlight.lane].adjusted(1.0, 1.0, -1.0, -1.0);
                // Within the plot's clip, so that all four sides show.
                mark.area.setLeft(layout.plot_left + 1.0);
                mark.area.setRight(std::min(mark.area.right(), plot_right + 2.0));
                // Bottom right, away from the lane's name and its worst span's figure.
                mark.note_width = std::min(layout.plot_width / 2.0, 2.0 * kNoteRoom);
                mark.note_at =
                    QPointF(plot_right - mark.note_width - 4.0, mark.area.bottom() - line - 2.0);
                break;
            }
            case Highlight::Kind::request: {
                if (!scene.highlights_own_trace ||
                    highlight.request >= scene.trace().requests.size())
                    continue;
                const QPointF centre = scene.traceRow().point(layout.trace, highlight.request);
                const double radius = std::max(scene.trace_marker * 0.9, 9.0);
                mark.area =
                    QRectF(centre - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius));
                if (mark.area.right() < layout.plot_left || mark.area.left() > plot_right)
                    continue;
                mark.note_at = QPointF(mark.area.right() + 3.0, centre.y() - line / 2.0);
                mark.note_width = kNoteRoom;
                break;
            }
        }
        marks.push_back(mark);
    }
    return marks;
}

void paintTimelineHighlightedSpans(QPainter& painter, const TimelineScene& scene) {
    if (!hasHighlights(scene))
        return;
    const QColor wash = timeline_palette::laneHighlight(scene.palette);
    for (const HighlightMark& mark : highlightMarks(scene)) {
        if ((*scene.highlights)[mark.highlight].kind == Highlight::Kind::span)
            painter.fillRect(mark.area, wash);
    }
}

void paintTimelineHighlights(QPainter& painter, const TimelineScene& scene) {
    if (!hasHighlights(scene))
        return;
    const std::vector<HighlightMark> marks = highlightMarks(scene);
    const QColor colour = timeline_palette::lessonMark(scene.palette);
    const QFont font = noteFont(scene);
    const QFontMetricsF metrics(font);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const HighlightMark& mark : marks) {
        painter.setBrush(Qt::NoBrush);
        switch ((*scene.highlights)[mark.highlight].kind) {
            case Highlight::Kind::span:
                // The span's edges, dashed, so that it reads where two spans meet.
                painter.setPen(QPen(colour, 1.5, Qt::DashLine));
                painter.drawLine(mark.area.topLeft(), mark.area.bottomLeft());
                painter.drawLine(mark.area.topRight(), mark.area.bottomRight());
                break;
            case Highlight::Kind::lane:
                painter.setPen(QPen(colour, 2.0));
                painter.drawRoundedRect(mark.area, 3.0, 3.0);
                break;
            case Highlight::Kind::request:
                painter.setPen(QPen(colour, 2.0));
                painter.drawEllipse(mark.area);
                break;
        }
        if (mark.note.isEmpty())
            continue;
        const QString shown = metrics.elidedText(mark.note, Qt::ElideRight, mark.note_width);
        const QRectF box(mark.note_at,
                         QSizeF(metrics.horizontalAdvance(shown) + 6.0, metrics.height()));
        QColor behind = scene.palette.color(QPalette::Base);
        behind.setAlpha(225);
        painter.setPen(Qt::NoPen);
        painter.setBrush(behind);
        painter.drawRoundedRect(box, 3.0, 3.0);
        painter.setFont(font);
        painter.setPen(colour);
        painter.drawText(box, Qt::AlignCenter, shown);
    }
    painter.restore();
}

}  // namespace ratelab::ui
