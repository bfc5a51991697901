#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/sweep.h"

namespace ratelab::io {

/// A sweep axis written as text could not be read: the sentence says what is wrong.
class SweepSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Reads an axis as `--vary` writes it: `NAME=A..B[:STEP]` (A, A + STEP, ... up to B; STEP 1
/// when left out) or `NAME=V1,V2,...` (in the order given). NAME is `limit`, `window` or a
/// parameter an algorithm declares, written `ID.NAME` (`token_bucket.capacity`); values are in
/// the parameter's kind and bounds, so a rational parameter takes fractions such as 5/2 and
/// only whole steps suit a whole one. A range is for numbers only; flags and choices take lists.
/// Throws SweepSpecError naming the problem: an unknown name, a range running backwards, a step
/// of 0, more than kMaxSweepPoints values.
SweepAxis parse_sweep_axis(std::string_view spec);

/// parse_sweep_axis() for each --vary given, in order; also refuses a name varied twice and
/// more than kMaxSweepPoints points in all. Errors start with the axis's text.
std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& specs);

}  // namespace ratelab::io
