#include "fleet/fleet_export.h"

#include <QPainter>
#include <algorithm>
#include <vector>

#include "charts/chart_theme.h"
#include "charts/timeline_print.h"
#include "fleet/fleet_view.h"

namespace ratelab::ui {

PaintFunction fleetChartsPainter(const ChartSpec& load, const std::optional<ChartSpec>& sync,
                                 const ChartSpec& extra) {
    return [load, sync, extra](QPainter& painter, const QRectF& target) {
        const ChartTheme theme = ChartTheme::print();
        painter.fillRect(target, theme.background);
        std::vector<std::pair<const ChartSpec*, double>> parts = {{&load, 3.0}};
        if (sync)
            parts.emplace_back(&*sync, 2.0);
        parts.emplace_back(&extra, 2.0);
        double shares = 0;
        for (const auto& part : parts)
            shares += part.second;
        double left = target.left();
        for (const auto& [spec, share] : parts) {
            const double width = target.width() * share / shares;
            paintChart(painter, QRectF(left, target.top(), width, target.height()), *spec, theme);
            left += width;
        }
    };
}

PaintFunction fleetViewPainter(FleetView* view) {
    return [view](QPainter& painter, const QRectF& target) {
        const QPalette kept = view->palette();
        view->setPalette(printPalette());
        painter.save();
        painter.translate(target.topLeft());
        painter.scale(target.width() / std::max(1, view->width()),
                      target.height() / std::max(1, view->height()));
        view->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground);
        painter.restore();
        view->setPalette(kept);
    };
}

QSize fleetExportSize(FleetExport what, const FleetView& view) {
    if (what == FleetExport::Charts)
        return {1600, 500};
    return {std::max(view.width(), 400), std::max(view.height(), 100)};
}

}  // namespace ratelab::ui
