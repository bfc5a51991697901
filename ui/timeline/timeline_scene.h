#pragma once

#include <QFont>
#include <QPalette>
#include <QPointF>
#include <algorithm>
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
    /// are summed from ColumnCounts, whose running totals cost a pass over the whole trace when
    /// first built (after an edit, only over the chunks it copied).
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
    /// With split lanes, the marks and stacks of the trace row, which is not split (marker and
    /// stack are then the sub-rows'); traceRow() puts them back.
    double trace_marker = 10.0;
    StackGeometry trace_stack;
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
    /// The notes pinned to the trace's ticks, in tick order; drawn in layout.notes. Null or
    /// empty: none.
    const std::vector<TraceNote>* notes = nullptr;
    /// "Split lanes by key": the keys that each get a sub-row of every lane, top to bottom;
    /// null or empty: the lanes are not split. `split_rows` maps each key id of the trace to its
    /// sub-row, or -1 for a key not split out, whose decisions the lanes then leave out.
    const std::vector<KeyId>* split_keys = nullptr;
    const std::vector<int>* split_rows = nullptr;
    /// Per sub-row, each lane's figures of that key alone (shownLaneKeys() of that key): the
    /// sub-row's counts and its worst span, against the key's own limit. Null: none.
    const std::vector<std::vector<std::optional<LaneKeys>>>* split_lanes = nullptr;

    /// `mark_scale` (1 or more) enlarges the marks with the text, as presentation mode does.
    static TimelineScene build(const TimeAxis& axis, const TimelineLayout& layout,
                               const Frame& frame, double mark_scale = 1.0);

    /// After the split_* fields are set: sizes the marks and stacks for the sub-rows.
    void applySplit();
    /// This scene as the trace row is drawn and hit: itself unless the lanes are split, then
    /// with the trace row's own marks and stacks.
    TimelineScene traceRow() const;

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
    /// Whether the lanes are split by key.
    bool split() const { return split_keys != nullptr && !split_keys->empty(); }
    std::size_t splitCount() const { return split() ? split_keys->size() : 0; }
    /// The sub-row request `index` is drawn in (split lanes only), or -1 when its key has none.
    int splitRowOf(std::size_t index) const {
        const KeyId key = trace().requests[index].key;
        return split_rows != nullptr && key < split_rows->size() ? (*split_rows)[key] : -1;
    }
    /// Sub-row `row` of lane `lane`.
    QRectF subRow(std::size_t lane, std::size_t row) const;
    /// The row lane `lane` draws a pile or its worst span in: its key's sub-row `key_row` when
    /// the lanes are split, else (-1) the whole lane.
    QRectF pileRow(std::size_t lane, int key_row) const {
        return key_row >= 0 ? subRow(lane, static_cast<std::size_t>(key_row)) : layout.lanes[lane];
    }
    /// The row lane `lane` draws request `index` in: its key's sub-row when the lanes are
    /// split, else the whole lane.
    QRectF laneRow(std::size_t lane, std::size_t index) const;
    /// Where request `index`'s decision is drawn in lane `lane`, split or not.
    QPointF lanePoint(std::size_t lane, std::size_t index) const;
    /// Lane `lane`'s figures of sub-row `row`'s key alone, or null.
    const LaneKeys* splitLane(std::size_t row, std::size_t lane) const {
        return split_lanes != nullptr && row < split_lanes->size() &&
                       lane < (*split_lanes)[row].size() && (*split_lanes)[row][lane]
                   ? &*(*split_lanes)[row][lane]
                   : nullptr;
    }
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

    /// forEachVisible() as the lanes draw them: with split lanes, `slot` and `count` are among
    /// the requests of the tick in the same sub-row, and requests of a key without one are
    /// skipped.
    template <typename Visit>
    void forEachVisibleInLanes(Visit&& visit) const {
        if (split())
            forEachVisibleSplit(visit);
        else
            forEachVisible(visit);
    }

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
    template <typename Visit>
    void forEachVisibleSplit(Visit& visit) const {
        const auto& requests = trace().requests;
        std::vector<std::size_t> count(splitCount());
        std::vector<std::size_t> slot(splitCount());
        std::size_t group = first;
        while (group < last) {
            std::size_t end = group;
            std::fill(count.begin(), count.end(), 0);
            std::fill(slot.begin(), slot.end(), 0);
            for (; end < last && requests[end].tick == requests[group].tick; ++end) {
                if (const int row = splitRowOf(end); row >= 0)
                    ++count[static_cast<std::size_t>(row)];
            }
            for (std::size_t i = group; i < end; ++i) {
                if (const int row = splitRowOf(i); row >= 0) {
                    const auto r = static_cast<std::size_t>(row);
                    visit(i, slot[r]++, count[r]);
                }
            }
            group = end;
        }
    }

    mutable std::optional<std::vector<std::size_t>> summary_columns_;
    mutable std::optional<ColumnSummary> column_summary_;
};

/// Whether some tick of `trace` holds enough requests (TimelineScene::kPileFrom) to be drawn as
/// a pile. Stops at the first.
bool hasPile(const Trace& trace);

}  // namespace ratelab::ui
