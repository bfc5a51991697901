#pragma once

#include <QSet>
#include <QString>

#include "charts/chart_spec.h"
#include "charts/chart_specs.h"

namespace ratelab::ui {

/// The crosshair's text at chart x (a tick, or a bar's index): the tick and each shown series'
/// exact value there, with a colour swatch per algorithm. Empty when there is nothing to say.
QString chartHoverText(ChartKind kind, const ChartInput& input, double x,
                       const QSet<QString>& hidden);

}  // namespace ratelab::ui
