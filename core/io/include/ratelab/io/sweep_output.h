#pragma once
// The three ways a sweep is written: a table for people, CSV and JSON (`ratelab-cli sweep`, and
// the app's Sweep panel exports CSV).

#include <string>
#include <vector>

#include "ratelab/bucket_fit.h"
#include "ratelab/sweep.h"

namespace ratelab::io {

enum class SweepFormat { table, csv, json };

/// One row per point and lane: the axes' values, the lane, accepted, rejected, rejected %,
/// rejected cost, worst burst, worst burst / L, longest and p95 delay.
std::string format_sweep(const SweepResult& result, SweepFormat format);

/// The closed-form answers (`--fit zero-rejections`): one row per point, lane and tier (all
/// keys first).
std::string format_fits(const FitSweepResult& result, SweepFormat format);

}  // namespace ratelab::io
