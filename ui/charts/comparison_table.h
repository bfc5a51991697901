#pragma once

#include <QRectF>
#include <vector>

#include "ratelab/model.h"

class QPainter;

namespace ratelab {
struct SimulationResult;
}

namespace ratelab::ui {

struct ChartTheme;

/// The comparison table of a figure: per algorithm, what it accepted and rejected, its worst
/// W-tick burst (bold and reddish purple above L) and its longest queue delay, marked with the
/// algorithm's chart colour. With `keys` (key ids of the result's trace), the figures of those
/// keys only, each still against its own limit; empty: every key. The height it needs at the
/// theme's fonts, and the painting itself.
double comparisonTableHeight(const SimulationResult& result, const ChartTheme& theme);
void paintComparisonTable(QPainter& painter, const QRectF& target, const SimulationResult& result,
                          const ChartTheme& theme, const std::vector<KeyId>& keys = {});

}  // namespace ratelab::ui
