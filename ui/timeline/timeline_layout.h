#pragma once

#include <QRectF>
#include <QSizeF>
#include <cstddef>
#include <vector>

namespace ratelab::ui {

/// Where each row of the timeline goes: the ruler, the trace row and one lane per algorithm, all
/// sharing one time axis to the right of a gutter that holds their names.
struct TimelineLayout {
    static constexpr double kRulerHeight = 30.0;
    static constexpr double kTraceHeight = 60.0;
    /// The strip of notes between the ruler and the trace row, when the trace has notes.
    static constexpr double kNotesHeight = 20.0;
    static constexpr double kMinLaneHeight = 40.0;
    /// Squeezed below its minimum height (a window shorter than every dock asks for), the
    /// lanes shrink down to this rather than run past the bottom, the last one cut off.
    static constexpr double kSqueezedLaneHeight = 26.0;
    /// Squeezed, the trace row gives up height first, down to this.
    static constexpr double kSqueezedTraceHeight = 40.0;
    static constexpr double kMaxLaneHeight = 120.0;
    static constexpr double kRightMargin = 12.0;

    QRectF ruler;  ///< full width, gutter included
    QRectF notes;  ///< under the ruler; empty (no height) when there are no notes
    QRectF trace;
    std::vector<QRectF> lanes;  ///< one per algorithm, in display order
    double plot_left = 0.0;     ///< x where the time axis starts
    double plot_width = 1.0;

    /// `max_lane_height`: how tall a lane may grow (kMaxLaneHeight unless its lanes are split).
    /// `with_notes`: leaves a strip for the trace's notes under the ruler.
    static TimelineLayout compute(QSizeF size, std::size_t lane_count, double gutter_width,
                                  double max_lane_height = kMaxLaneHeight, bool with_notes = false);
    static double minimumHeight(std::size_t lane_count, bool with_notes = false);
    /// The least height that still shows every lane, each at kSqueezedLaneHeight: what the
    /// timeline gives up to a raised dock on a short screen, and no more.
    static double squeezedHeight(std::size_t lane_count, bool with_notes = false);

    /// The lane under `y`, or -1.
    int laneAt(double y) const;
    bool inPlot(double x) const { return x >= plot_left && x < plot_left + plot_width; }
    double bottom() const { return lanes.empty() ? trace.bottom() : lanes.back().bottom(); }
};

/// Vertical placement of requests that share a tick: they stack upwards around the row's middle,
/// closer together when many share one tick, so that trace row and lanes line up.
struct StackGeometry {
    double spacing = 0.0;

    /// `largest_stack` is the most requests on any visible tick.
    static StackGeometry forRow(double row_height, double marker_size, std::size_t largest_stack);
    /// Centre of the `slot`-th request (0 = lowest) of a tick holding `count` requests.
    double y(const QRectF& row, std::size_t slot, std::size_t count) const;
};

}  // namespace ratelab::ui
