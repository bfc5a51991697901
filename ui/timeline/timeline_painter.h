#pragma once

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
/// One lane per algorithm: decisions, queue delays and the worst W-tick span.
void paintTimelineLanes(QPainter& painter, const TimelineScene& scene);
/// Row names and per-lane totals, drawn over anything that strayed left of the axis.
void paintTimelineGutter(QPainter& painter, const TimelineScene& scene);

}  // namespace ratelab::ui
