#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ratelab/fleet.h"

namespace ratelab::io::detail {

/// Reads a trace file's "fleet" object at `path`; throws TraceProblem at the member at fault.
FleetSettings read_fleet(const nlohmann::ordered_json& value, const std::string& path);

}  // namespace ratelab::io::detail
