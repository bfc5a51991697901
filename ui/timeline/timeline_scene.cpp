#include "timeline/timeline_scene.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

#include "timeline/timeline_palette.h"

namespace ratelab::ui {

TimelineScene TimelineScene::build(const TimeAxis& axis, const TimelineLayout& layout,
                                   const Frame& frame, double mark_scale) {
    TimelineScene scene;
    scene.axis = &axis;
    scene.layout = layout;
    scene.frame = &frame;
    if (!frame.result) {
        return scene;
    }
    const Trace& trace = *frame.result->trace;
    // One tick of slack either side so that markers straddling the edges are drawn.
    const auto from = static_cast<Tick>(std::floor(axis.firstTime())) - 1;
    const auto to = static_cast<Tick>(std::ceil(axis.lastTime())) + 1;
    scene.first = requestsOnTick(trace, from).first;
    scene.last = countUpTo(trace, to);
    const double ppt = axis.pixelsPerTick();
    scene.detailed =
        ppt >= kMinDetailPixelsPerTick && scene.last - scene.first <= kMaxDetailRequests;
    // Stacks matter only where requests are drawn one by one; zoomed out, the visible requests
    // can be millions, and a paint must not visit each of them.
    for (std::size_t group = scene.first; scene.detailed && group < scene.last;) {
        std::size_t end = group + 1;
        while (end < scene.last && trace.requests[end].tick == trace.requests[group].tick) {
            ++end;
        }
        const std::size_t run = end - group;
        scene.largest_stack = std::max(scene.largest_stack, run < kPileFrom ? run : 1);
        group = end;
    }
    // Larger type (presentation mode) enlarges the marks too, as far as the ticks leave room.
    scene.marker =
        std::min(std::clamp(ppt * 0.55, 6.0, 13.0) * mark_scale, std::max(6.0, ppt * 0.9));
    const double row_height = layout.lanes.empty()
                                  ? layout.trace.height()
                                  : std::min(layout.trace.height(), layout.lanes.front().height());
    scene.stack = StackGeometry::forRow(row_height, scene.marker, scene.largest_stack);
    scene.trace_marker = scene.marker;
    scene.trace_stack = scene.stack;
    return scene;
}

void TimelineScene::applySplit() {
    if (!split() || layout.lanes.empty() || frame == nullptr || !frame->result) {
        return;
    }
    const double row_height = layout.lanes.front().height() / static_cast<double>(splitCount());
    // The most requests of one key on any visible tick, piles counting as one.
    std::size_t largest = 1;
    if (detailed) {
        auto widest = [&](std::size_t, std::size_t, std::size_t count) {
            largest = std::max(largest, count < kPileFrom ? count : 1);
        };
        forEachVisibleSplit(widest);
    }
    // A sub-row is short: its stack may fill all but a few pixels of it, each mark a pixel
    // smaller than its step so that neighbours stay apart.
    const double step = (row_height - 4.0) / static_cast<double>(largest);
    marker = std::clamp(std::min(row_height * 0.6, step - 1.0), 4.0, marker);
    stack.spacing = std::min(marker + 3.0, step);
}

TimelineScene TimelineScene::traceRow() const {
    TimelineScene scene = *this;
    if (split()) {
        scene.marker = trace_marker;
        scene.stack = trace_stack;
    }
    return scene;
}

QRectF TimelineScene::subRow(std::size_t lane, std::size_t row) const {
    const QRectF& whole = layout.lanes[lane];
    const double height =
        whole.height() / static_cast<double>(std::max<std::size_t>(1, splitCount()));
    return {whole.left(), whole.top() + static_cast<double>(row) * height, whole.width(), height};
}

QRectF TimelineScene::laneRow(std::size_t lane, std::size_t index) const {
    const int row = split() ? splitRowOf(index) : -1;
    return row >= 0 ? subRow(lane, static_cast<std::size_t>(row)) : layout.lanes[lane];
}

QPointF TimelineScene::lanePoint(std::size_t lane, std::size_t index) const {
    const int row = split() ? splitRowOf(index) : -1;
    if (row < 0) {
        return point(layout.lanes[lane], index);
    }
    const Trace& t = trace();
    const Tick tick = t.requests[index].tick;
    const TickRange group = requestsOnTick(t, tick);
    std::size_t slot = 0;
    std::size_t count = 0;
    for (std::size_t i = group.first; i < group.last; ++i) {
        if (splitRowOf(i) == row) {
            slot += i < index ? 1 : 0;
            ++count;
        }
    }
    return {centreX(tick), slotY(subRow(lane, static_cast<std::size_t>(row)), slot, count)};
}

QPointF TimelineScene::point(const QRectF& row, std::size_t index) const {
    const Trace& t = trace();
    const Tick tick = t.requests[index].tick;
    const TickRange group = requestsOnTick(t, tick);
    return {centreX(tick), slotY(row, index - group.first, group.last - group.first)};
}

std::shared_ptr<const ColumnCounts> TimelineScene::columnCounts() const {
    if (counts && counts->result() == frame->result) {
        return counts;
    }
    return std::make_shared<const ColumnCounts>(frame->result);
}

const std::vector<std::size_t>& TimelineScene::summaryColumns() const {
    if (!summary_columns_) {
        const auto x_of = [this](Tick tick) { return axis->centreX(tick); };
        // The counts kept between paints start from the bounds found in the paint before.
        summary_columns_ = counts && counts->result() == frame->result
                               ? counts->viewColumns({axis->firstTime(), axis->pixelsPerTick(),
                                                      layout.plot_width, kColumnWidth},
                                                     first, last, x_of)
                               : ColumnCounts::columnBounds(trace(), first, last, kColumnWidth,
                                                            layout.plot_width, x_of);
    }
    return *summary_columns_;
}

qreal TimelineScene::textWidth(const QFont& text_font, const QString& text) const {
    return text_widths != nullptr ? text_widths->width(text_font, text)
                                  : QFontMetricsF(text_font).horizontalAdvance(text);
}

QColor TimelineScene::requestColour(std::size_t index) const {
    const KeyId key = trace().requests[index].key;
    if (key_colours != nullptr && key < key_colours->size() && (*key_colours)[key].isValid())
        return (*key_colours)[key];
    return timeline_palette::kRequest;
}

bool TimelineScene::isSelected(std::size_t index) const {
    return selection && std::binary_search(selection->begin(), selection->end(), index);
}

const ColumnSummary& TimelineScene::columnSummary() const {
    if (!column_summary_) {
        const bool few = last - first <= kCountOneByOne;
        column_summary_ = summarizeColumns(*frame->result, summaryColumns(), frame->decided,
                                           few ? nullptr : columnCounts().get());
    }
    return *column_summary_;
}

bool hasPile(const Trace& trace) {
    const auto& requests = trace.requests;
    std::size_t run = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        run = i > 0 && requests[i].tick == requests[i - 1].tick ? run + 1 : 1;
        if (run >= TimelineScene::kPileFrom)
            return true;
    }
    return false;
}

}  // namespace ratelab::ui
