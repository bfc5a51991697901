#pragma once
// The Fleet tab's exports: its charts side by side, or its decisions as drawn, as PNG, SVG or
// PDF, in the light print theme whatever the app's own, written as every export is (a failure
// leaves an earlier file as it was).

#include <QSize>
#include <QString>
#include <optional>

#include "charts/chart_render.h"
#include "charts/chart_spec.h"

namespace ratelab::ui {

class FleetView;

enum class FleetExport { Charts, Decisions };

/// The load chart, the sync chart when there is one, and the extra-decisions chart, left to
/// right in the widths the tab gives them (3 : 2 : 2).
PaintFunction fleetChartsPainter(const ChartSpec& load, const std::optional<ChartSpec>& sync,
                                 const ChartSpec& extra);
/// `view` as it is drawn now (its span, chosen mode and size), in the print palette.
PaintFunction fleetViewPainter(FleetView* view);
/// The size an export is drawn at: the charts 1600 x 500, the decisions at the view's size.
QSize fleetExportSize(FleetExport what, const FleetView& view);

}  // namespace ratelab::ui
