#pragma once

#include "charts/chart_input.h"
#include "charts/chart_spec.h"

namespace ratelab::ui {

ChartSpec buildChartSpec(ChartKind kind, const ChartInput& input);

/// A time chart drawn for the whole trace, cut at the clock: lines end at `now` (interpolated
/// along what is drawn), markers after it go, and the cursor marks it. Playback then costs a
/// pass over the drawn points instead of over the series. Bars are left alone.
void cutAtTick(ChartSpec& spec, Tick now);

/// The spacing of labelled ticks: 1, 2 or 5 times a power of ten, giving at most `target`
/// intervals over `range`; never below `minimum`.
double niceStep(double range, int target, double minimum);
/// The smallest multiple of `step` that is at least `value`.
double niceCeiling(double value, double step);

}  // namespace ratelab::ui
