#pragma once

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "timeline/column_counts.h"

class QPainter;

namespace ratelab::ui {

struct TimelineScene;

// The timeline is painted in layers, back to front; each layer reads the same scene.

/// Row backgrounds, the highlighted lane, the not-yet-decided future, window boundaries.
void paintTimelineBackground(QPainter& painter, const TimelineScene& scene);
/// Tick numbers, tick marks and the clock handle.
void paintTimelineRuler(QPainter& painter, const TimelineScene& scene);
/// The editable trace: one box per request, stacked on shared ticks.
void paintTimelineTrace(QPainter& painter, const TimelineScene& scene);
/// Where the trace row draws a pile of requests [first, first + count) on one tick: a box wide
/// enough for its count ("×20"), which at the plot's edges moves in rather than being cut.
QRectF tracePileBox(const TimelineScene& scene, std::size_t first, std::size_t count);
/// A pile of the trace row as drawn: counted (tracePileBox()) where its count fits, else a
/// plain box of a request's width.
struct TracePile {
    std::size_t first = 0;
    std::size_t count = 0;
    QRectF box;
    bool counted = true;
};
/// Places `piles` ((first, count), left to right): each gets its count unless the count of a
/// pile before it reaches over, so that counts never overlap on ticks closer than they are wide.
std::vector<TracePile> placeTracePiles(
    const TimelineScene& scene, const std::vector<std::pair<std::size_t, std::size_t>>& piles);
/// How a pile of requests [first, first + count) on one tick shares out among keys that have a
/// colour of their own (TimelineScene::key_colours): a colour and a count each, in the key
/// table's order, faint requests left out. Empty when no request of it has such a colour.
std::vector<std::pair<QColor, std::size_t>> pileKeyShares(const TimelineScene& scene,
                                                          std::size_t first, std::size_t count);
/// One lane per algorithm: decisions, queue delays and the worst W-tick span.
void paintTimelineLanes(QPainter& painter, const TimelineScene& scene);
/// A queued request's wait in a lane: down from its mark to its own track, then along it to
/// where the request leaves the queue.
struct DelayLine {
    std::size_t index = 0;  ///< the request
    QPointF arrival;
    double y = 0.0;  ///< the track
    double release_x = 0.0;
    /// Drawn pale: the waits cross each other, and this request is neither hovered nor selected.
    bool faded = false;
};
/// The waits lane `lane` draws, in request order.
std::vector<DelayLine> delayLines(const TimelineScene& scene, std::size_t lane);

/// A retry of a client that answers back, as the lanes draw it: where it is, and where the
/// attempt before it (the intent's own request, or an earlier retry) is.
struct RetryMark {
    std::size_t index = 0;  ///< into the lane's LaneRetries
    QPointF at;
    QPointF from;
    bool accepted = false;
    double bottom = 0.0;  ///< of the row it is drawn in: its arc stays above it
};
/// The retries lane `lane` draws: those the clock has reached, in the visible ticks, zoomed in.
std::vector<RetryMark> retryMarks(const TimelineScene& scene, std::size_t lane);
/// The retry of lane `lane` drawn under `pos` (an index into the lane's LaneRetries), if any.
std::optional<std::size_t> retryNear(const TimelineScene& scene, std::size_t lane, QPointF pos);
/// Zoomed out: what lane `lane` draws in each summary column, per row of it (one row unless
/// the lanes are split by key), counting only the keys on show.
std::vector<std::vector<LaneTally>> laneColumnTallies(const TimelineScene& scene, std::size_t lane);
/// Every lane's retries, over its decisions.
void paintTimelineRetries(QPainter& painter, const TimelineScene& scene);

/// A lesson's highlight as the timeline draws it.
struct HighlightMark {
    std::size_t highlight = 0;  ///< into the scene's highlights
    /// A span: its ticks, over the trace row and the lanes; a lane: the lane; a request: the
    /// square its ring is drawn in.
    QRectF area;
    /// Where the note starts (its top left) and how wide it may be; the note may be empty.
    QPointF note_at;
    double note_width = 0.0;
    QString note;
};
/// The highlights the timeline draws, in the scene's order: spans that reach the visible
/// ticks, lanes of the result, and requests of the step's own trace that are in view.
std::vector<HighlightMark> highlightMarks(const TimelineScene& scene);
/// The highlighted spans' wash, under the requests and decisions.
void paintTimelineHighlightedSpans(QPainter& painter, const TimelineScene& scene);
/// The highlights' outlines, rings and notes, over everything else in the plot.
void paintTimelineHighlights(QPainter& painter, const TimelineScene& scene);

/// The notes pinned to the trace's ticks (TimelineScene::notes) as the strip under the ruler
/// shows them: notes [first, last) share tick `tick`, whose centre is at `x`; `text` is their
/// texts joined and elided to the room before the next note's pin, `full` the whole.
struct NoteMark {
    std::size_t first = 0;
    std::size_t last = 0;
    Tick tick = 0;
    double x = 0.0;
    QRectF box;  ///< the label, its pin at the left end over x
    QString text;
    QString full;
    QFont font;
};
/// The notes in view, left to right; none when the scene has no notes strip.
std::vector<NoteMark> noteMarks(const TimelineScene& scene);
/// The first of the notes whose label is under `pos`, if any.
std::optional<std::size_t> noteAt(const TimelineScene& scene, QPointF pos);
/// The type notes are written in, for a view font `font`.
QFont noteFont(const QFont& font);
/// A dotted line down from each note's pin through the trace row and the lanes, under them.
void paintTimelineNoteGuides(QPainter& painter, const TimelineScene& scene);
/// The notes strip: each note's label with its pin.
void paintTimelineNotes(QPainter& painter, const TimelineScene& scene);

/// Row names and per-lane totals, drawn over anything that strayed left of the axis.
void paintTimelineGutter(QPainter& painter, const TimelineScene& scene);

}  // namespace ratelab::ui
