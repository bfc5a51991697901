#pragma once
// The three ways `ratelab-cli sweep` writes its rows: a table for people, CSV and JSON.

#include <string>
#include <vector>

#include "ratelab/bucket_fit.h"
#include "ratelab/sweep.h"

namespace ratelab::cli {

enum class SweepFormat { table, csv, json };

/// One row per point and lane: the axes' values, the lane, accepted, rejected, rejected %,
/// rejected cost, worst burst, worst burst / L, longest and p95 delay.
std::string format_sweep(const SweepResult& result, SweepFormat format);

/// The closed-form answers (`--fit zero-rejections`): one row per point, lane and tier (all
/// keys first).
std::string format_fits(const FitSweepResult& result, SweepFormat format);

}  // namespace ratelab::cli
