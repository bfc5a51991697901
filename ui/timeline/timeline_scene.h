#pragma once

#include <QFont>
#include <QPalette>
#include <QPointF>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "session/frame_model.h"
#include "session/trace_edits.h"
#include "timeline/column_counts.h"
#include "timeline/text_widths.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_layout.h"

namespace ratelab {
struct Highlight;
}

namespace ratelab::ui {

struct LaneRetries;

/// Everything one paint of the timeline (or one hit test) works from, computed once: the geometry,
/// the frame being shown, which requests are visible and how detailed the drawing can be.
struct TimelineScene {
    /// Below this many pixels per tick, or above this many visible requests, the lanes draw one
    /// summary per pixel column instead of one marker per request.
    static constexpr double kMinDetailPixelsPerTick = 5.0;
    static constexpr std::size_t kMaxDetailRequests = 20'000;
    /// Width of one summary column in pixels.
    static constexpr double kColumnWidth = 2.0;
    /// Up to this many visible requests, summary columns are counted request by request; more
    /// are summed from ColumnCounts, whose running totals cost a pass over the whole result.
    static constexpr std::size_t kCountOneByOne = 1 << 17;
    /// From this many requests on one tick, they are drawn as one pile with their count: a
    /// stack of twenty would crush every other stack of the view to slivers.
    static constexpr std::size_t kPileFrom = 5;
    /// How strongly a request of a key not on show is drawn (shown_keys).
    static constexpr double kFaintOpacity = 0.2;

    const TimeAxis* axis = nullptr;
    TimelineLayout layout;
    const Frame* frame = nullptr;
    const IndexList* selection = nullptr;
    int highlighted_lane = -1;
    /// The request under the pointer, in the trace row or a lane.
    std::optional<std::size_t> hovered;
    QPalette palette;
    QFont font;
    /// Widths of labels kept from paint to paint by the view; null: measured every time.
    TextWidths* text_widths = nullptr;

    std::size_t first = 0;  ///< visible requests are [first, last)
    std::size_t last = 0;
    std::size_t largest_stack = 1;  ///< piles count as one
    bool detailed = true;
    double marker = 10.0;
    StackGeometry stack;
    /// Running totals of the frame's result for zoomed-out drawing of more than kCountOneByOne
    /// requests; the view keeps them from paint to paint. Left empty, columnCounts() builds them
    /// (a pass over the result).
    std::shared_ptr<const ColumnCounts> counts;
    /// Retries of clients that answer back, when the Clients tab's run belongs to the frame's
    /// result; else null.
    const LaneRetries* retries = nullptr;
    /// A lesson step's highlights (lanes, spans of ticks, requests), while the step is open;
    /// null or empty: none.
    const std::vector<Highlight>* highlights = nullptr;
    /// Whether the frame's trace is still the step's own: a highlighted request is drawn only
    /// then, since an edit may have moved another request to its index.
    bool highlights_own_trace = false;
    /// The keys on show, by key id of the frame's trace (the charts' choice): requests of the
    /// others are drawn faint where requests are drawn one by one. Null or empty: every key.
    const std::vector<char>* shown_keys = nullptr;
    /// The colour of each key's boxes in the trace row, by key id; an invalid colour (or a
    /// null or short list): the plain box colour.
    const std::vector<QColor>* key_colours = nullptr;
    /// Each lane's figures of those keys (shownLaneKeys()), for the lanes' counts and worst
    /// spans; null or empty: every key.
    const std::vector<std::optional<LaneKeys>>* shown_lanes = nullptr;

    /// `mark_scale` (1 or more) enlarges the marks with the text, as presentation mode does.
    static TimelineScene build(const TimeAxis& axis, const TimelineLayout& layout,
                               const Frame& frame, double mark_scale = 1.0);

    const Trace& trace() const { return *frame->result->trace; }
    std::size_t laneCount() const { return frame->result ? frame->result->runs.size() : 0; }
    /// Widget x of a time (ticks); widget x of the centre of a tick's cell.
    double x(double time) const { return layout.plot_left + axis->toX(time); }
    double centreX(Tick tick) const { return layout.plot_left + axis->centreX(tick); }
    Tick tickAt(double widget_x) const { return axis->tickAt(widget_x - layout.plot_left); }
    /// Where request `index` is drawn in `row` (the trace row or a lane).
    QPointF point(const QRectF& row, std::size_t index) const;
    /// The height of the `slot`-th of `count` requests on one tick in `row`: a pile's middle.
    double slotY(const QRectF& row, std::size_t slot, std::size_t count) const {
        return count >= kPileFrom ? row.center().y() : stack.y(row, slot, count);
    }
    bool isSelected(std::size_t index) const;
    /// Lane `lane`'s figures of the keys on show, or null when every key is.
    const LaneKeys* shownLane(std::size_t lane) const {
        return shown_lanes != nullptr && lane < shown_lanes->size() && (*shown_lanes)[lane]
                   ? &*(*shown_lanes)[lane]
                   : nullptr;
    }
    /// The burst lane `lane` is judged by: the worst of the keys on show, or its headline.
    JudgedBurst judgedBurst(std::size_t lane) const {
        return judgedAmong(*frame, lane, shownLane(lane));
    }
    /// The fill of request `index`'s box in the trace row, when it is not selected.
    QColor requestColour(std::size_t index) const;
    /// Whether request `index` is of a key not on show (shown_keys).
    bool isFaint(std::size_t index) const {
        return shown_keys != nullptr && !shown_keys->empty() &&
               (*shown_keys)[trace().requests[index].key] == 0;
    }
    /// QFontMetricsF(font).horizontalAdvance(text), from `text_widths` when there is one.
    qreal textWidth(const QFont& text_font, const QString& text) const;
    /// `counts` if it belongs to the frame's result, else freshly built.
    std::shared_ptr<const ColumnCounts> columnCounts() const;
    /// The visible requests split into summary columns of kColumnWidth pixels: column c holds
    /// [bounds[c], bounds[c + 1]). Found on first use, then kept for the rest of the paint.
    const std::vector<std::size_t>& summaryColumns() const;
    /// What each summary column holds (zoomed out only); found on first use, then kept.
    const ColumnSummary& columnSummary() const;

    /// Calls `visit(index, slot, count)` for each visible request, where `slot` is its place in
    /// the stack of `count` requests that share its tick.
    template <typename Visit>
    void forEachVisible(Visit&& visit) const {
        const auto& requests = trace().requests;
        std::size_t group = first;
        while (group < last) {
            std::size_t end = group;
            while (end < last && requests[end].tick == requests[group].tick) {
                ++end;
            }
            for (std::size_t i = group; i < end; ++i) {
                visit(i, i - group, end - group);
            }
            group = end;
        }
    }

private:
    mutable std::optional<std::vector<std::size_t>> summary_columns_;
    mutable std::optional<ColumnSummary> column_summary_;
};

/// Whether some tick of `trace` holds enough requests (TimelineScene::kPileFrom) to be drawn as
/// a pile. Stops at the first.
bool hasPile(const Trace& trace);

}  // namespace ratelab::ui
