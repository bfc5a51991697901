#pragma once

#include <QPalette>
#include <QRectF>
#include <memory>

#include "charts/figure.h"

class QPainter;

namespace ratelab::ui {

/// Paints the desktop app's timeline (ruler, trace row, one lane per algorithm, row names, and
/// its legend underneath) for every decision of `result`, over the ticks [from, to), in the
/// light print theme; with `options.keys`, as the app draws it with those keys on show (the
/// others faint, the lanes' counts and worst spans theirs only). It calls the timeline's own layer
/// painters; only the print palette and fonts are chosen here. Returns the plot's rectangle within
/// `target`, where tick t's cell starts at plot.left() + (t - from) * plot.width() / (to - from).
///
/// Compiled into ratelab_ui, next to the timeline code; figures reach it through
/// printedTimelinePainter() so that ratelab_charts never depends on the desktop app.
QRectF paintPrintedTimeline(QPainter& painter, const QRectF& target,
                            const std::shared_ptr<const SimulationResult>& result, double from,
                            double to, const PrintedTimelineOptions& options = {});

/// paintPrintedTimeline() as the TimelinePainter that figures and exports take.
TimelinePainter printedTimelinePainter();

/// The light palette printed views are drawn in, whatever the app's own.
QPalette printPalette();

}  // namespace ratelab::ui
