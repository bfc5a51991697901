#pragma once

#include "charts/chart_input.h"
#include "charts/chart_spec.h"

namespace ratelab::ui {

ChartSpec buildChartSpec(ChartKind kind, const ChartInput& input);

}  // namespace ratelab::ui
