#include "timeline/timeline_layout.h"

#include <algorithm>
#include <cmath>

namespace ratelab::ui {

TimelineLayout TimelineLayout::compute(QSizeF size, std::size_t lane_count, double gutter_width,
                                       double max_lane_height, bool with_notes) {
    TimelineLayout layout;
    const double width = size.width();
    layout.plot_left = gutter_width;
    layout.plot_width = std::max(1.0, width - gutter_width - kRightMargin);
    layout.ruler = QRectF(0, 0, width, kRulerHeight);
    layout.notes = QRectF(0, layout.ruler.bottom(), width, with_notes ? kNotesHeight : 0.0);
    // Squeezed below the minimum, the trace row shrinks before the lanes do.
    const double lanes_room = static_cast<double>(lane_count) * kMinLaneHeight;
    const double trace_height = std::clamp(size.height() - layout.notes.bottom() - lanes_room,
                                           kSqueezedTraceHeight, kTraceHeight);
    layout.trace = QRectF(0, layout.notes.bottom(), width, trace_height);
    const double available = size.height() - layout.trace.bottom();
    // In 1/64 px, a binary fraction: the lanes then add up exactly, the last one never ending
    // past the bottom by a rounding error.
    const double lane_height =
        lane_count == 0
            ? 0.0
            : std::clamp(std::floor(available / static_cast<double>(lane_count) * 64.0) / 64.0,
                         kSqueezedLaneHeight, std::max(kSqueezedLaneHeight, max_lane_height));
    double y = layout.trace.bottom();
    for (std::size_t i = 0; i < lane_count; ++i) {
        layout.lanes.emplace_back(0, y, width, lane_height);
        y += lane_height;
    }
    return layout;
}

double TimelineLayout::minimumHeight(std::size_t lane_count, bool with_notes) {
    return kRulerHeight + (with_notes ? kNotesHeight : 0.0) + kTraceHeight +
           static_cast<double>(lane_count) * kMinLaneHeight + 1.0;
}

double TimelineLayout::squeezedHeight(std::size_t lane_count, bool with_notes) {
    return kRulerHeight + (with_notes ? kNotesHeight : 0.0) + kSqueezedTraceHeight +
           static_cast<double>(lane_count) * kSqueezedLaneHeight + 1.0;
}

int TimelineLayout::laneAt(double y) const {
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        if (y >= lanes[i].top() && y < lanes[i].bottom()) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

StackGeometry StackGeometry::forRow(double row_height, double marker_size,
                                    std::size_t largest_stack) {
    const double usable = row_height - 10.0;
    const double natural = marker_size + 3.0;
    const auto count = static_cast<double>(std::max<std::size_t>(largest_stack, 1));
    StackGeometry geometry;
    geometry.spacing = std::min(natural, usable / count);
    return geometry;
}

double StackGeometry::y(const QRectF& row, std::size_t slot, std::size_t count) const {
    const double middle = row.center().y();
    const double offset = (static_cast<double>(count) - 1.0) / 2.0 - static_cast<double>(slot);
    return middle + offset * spacing;
}

}  // namespace ratelab::ui
