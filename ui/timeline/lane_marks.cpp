// Where a lane's marks over its decisions go: the worst span's band, bracket and figure, and the
// lines of a shaper's waits; paint_lanes.cpp draws them.
#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "charts/algorithm_names.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_text.h"

namespace ratelab::ui {

std::optional<SpanLabel> worstSpanLabel(const TimelineScene& scene, std::size_t lane_index,
                                        int key_row) {
    const LaneKeys* own =
        key_row >= 0 ? scene.splitLane(static_cast<std::size_t>(key_row), lane_index) : nullptr;
    if (key_row >= 0 && own == nullptr) {
        return std::nullopt;  // a sub-row shows its key's own span, or none
    }
    if (scene.frame->counting) {
        return std::nullopt;  // that of an earlier clock, until this one's is counted
    }
    const JudgedBurst judged =
        own != nullptr ? judgedAmong(*scene.frame, lane_index, own) : scene.judgedBurst(lane_index);
    const Burst& burst = judged.burst;
    if (burst.cost <= 0) {
        return std::nullopt;
    }
    SpanLabel span;
    span.over = judged.over_limit();
    const double start = burst.start.to_double();
    const double plot_right = scene.layout.plot_left + scene.layout.plot_width;
    span.left = std::max(scene.x(start), scene.layout.plot_left);
    span.right = std::min(scene.x(start + static_cast<double>(judged.window)), plot_right);
    if (span.right <= span.left - 1.0) {
        return std::nullopt;  // scrolled out of view
    }
    if (span.right - span.left < 5.0) {
        // Zoomed far out the span is thinner than a pixel: keep it visible as a narrow mark.
        const double middle = (span.left + span.right) / 2.0;
        span.left = middle - 2.5;
        span.right = middle + 2.5;
    }
    span.y = scene.pileRow(lane_index, key_row).top() + (key_row >= 0 ? 2.0 : 4.0);
    span.pen = span.over ? 2.5 : 1.5;
    span.font = scene.font;
    span.font.setPointSizeF(std::max(6.0, scene.font.pointSizeF() * 0.82));
    span.font.setBold(span.over);
    // A sub-row's key is named beside it.
    span.text =
        judgedBurstText(*scene.frame->result, judged, key_row < 0 && scene.frame->severalKeys());
    const double width = scene.textWidth(span.font, span.text) + 6.0;
    // Inside the band, clear of the bracket's end, when it fits; else beside it, on whichever
    // side has room.
    constexpr double kGap = 3.0;  // between the figure and the bracket's line
    const double inner = span.right - 1.0 - span.pen / 2.0 - kGap;
    const double outer = span.right - 1.0 + span.pen / 2.0 + kGap;
    double left = inner - width;
    if (left < span.left) {
        left = outer + width <= plot_right ? outer : span.left - width - kGap;
    }
    span.box = QRectF(left, span.y + 1.0, width, QFontMetricsF(span.font).height());
    return span;
}

std::vector<DelayLine> delayLines(const TimelineScene& scene, std::size_t lane_index) {
    const AlgorithmRun& run = scene.frame->result->runs[lane_index];
    const AlgorithmRun* revealed = scene.frame->revealedRun(lane_index);
    if (!revealed || revealed->totals.max_delay == Rational()) {
        return {};
    }
    const QRectF& lane = scene.layout.lanes[lane_index];
    const Trace& trace = scene.trace();
    const Rational longest = revealed->totals.max_delay;
    const Tick from = static_cast<Tick>(std::floor(scene.axis->firstTime())) - longest.ceil() - 1;
    const std::size_t begin = requestsOnTick(trace, from).first;
    const std::size_t end = std::min(scene.last, scene.frame->decided);
    const double line_width = std::clamp(scene.marker / 5.0, 1.5, 2.5);
    const double spacing = line_width + 2.5;
    // Split lanes give each sub-row its own tracks, under its own marks.
    const std::size_t rows = scene.split() ? scene.splitCount() : 1;
    const auto rowRect = [&](std::size_t r) {
        return scene.split() ? scene.subRow(lane_index, r) : lane;
    };
    const double first_track =
        rowRect(0).center().y() - rowRect(0).top() + scene.marker / 2.0 + 4.0;
    const auto track_count = static_cast<std::size_t>(
        std::max(1.0, std::floor((rowRect(0).height() - 3.0 - first_track) / spacing) + 1.0));
    // Waits overlap, so each gets its own track under the markers, reused once the previous
    // wait on it has ended. When the tracks run out, waits share one and cross each other.
    std::vector<std::vector<double>> track_end(rows, std::vector<double>(track_count, -1e300));
    std::vector<DelayLine> lines;
    bool tangled = false;
    for (std::size_t i = begin; i < end; ++i) {
        const int key_row = scene.split() ? scene.splitRowOf(i) : 0;
        if (!run.accepted(i) || key_row < 0) {
            continue;
        }
        const Decision decision = run.decision(trace, i);
        if (!decision.release || !decision.delay || *decision.delay == Rational()) {
            continue;
        }
        const auto r = static_cast<std::size_t>(key_row);
        const QPointF arrival = scene.lanePoint(lane_index, i);
        const double release_x = scene.x(decision.release->to_double() + 0.5);
        std::vector<double>& ends = track_end[r];
        std::size_t track = 0;
        while (track + 1 < track_count && ends[track] > arrival.x() - 3.0) {
            ++track;
        }
        tangled = tangled || ends[track] > arrival.x() - 3.0;
        ends[track] = std::max(ends[track], release_x);
        lines.push_back(DelayLine{
            i, arrival, rowRect(r).top() + first_track + static_cast<double>(track) * spacing,
            release_x, false});
    }
    // A tangle is faded, all but the waits of the requests the user points at or has selected.
    // A handful of waits (a lesson's queue) can be followed even where two share a track.
    constexpr std::size_t kTangleFrom = 10;
    tangled = tangled && lines.size() >= kTangleFrom;
    for (DelayLine& line : lines) {
        line.faded = tangled && line.index != scene.hovered && !scene.isSelected(line.index);
    }
    return lines;
}

}  // namespace ratelab::ui
