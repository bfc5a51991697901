#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/model.h"

namespace ratelab::io {

/// A lane written as text could not be read: the sentence says what is wrong.
class LaneSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Reads a lane as the command line writes it: `ID[:NAME=VALUE,...]`, for example
/// `token_bucket:capacity=8,refill_rate=1/2`. NAME is a parameter the algorithm declares (its
/// value in the parameter's kind and bounds) or `label`. Throws LaneSpecError naming the
/// algorithm or parameter at fault.
Lane parse_lane_spec(std::string_view spec);

/// `spec` for each --lane given, in order; errors name the lane by its position and text, as
/// "lane 2 (token_bucket:capacity=0): capacity must be between 1 and 1000000, not 0".
std::vector<Lane> parse_lane_specs(const std::vector<std::string>& specs);

/// The spec that reads back as `lane` (parameters in declared order).
std::string lane_spec(const Lane& lane);

}  // namespace ratelab::io
