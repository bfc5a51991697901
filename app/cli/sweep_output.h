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

/// The closed-form answers of one lane at one point (`--fit zero-rejections`).
struct FitRow {
    std::vector<ParamValue> values;  ///< the point's value of each axis
    std::string lane;                ///< its label
    LaneFit fit;
};

/// One row per point, lane and tier (the fleet first, named "all keys").
std::string format_fits(const std::vector<SweepAxis>& axes, const std::vector<FitRow>& rows,
                        SweepFormat format);

}  // namespace ratelab::cli
