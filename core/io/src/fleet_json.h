#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ratelab/io/fleet_file.h"

namespace ratelab::io::detail {

/// Reads a trace file's "fleet" object at `path`; throws TraceProblem at the member at fault.
FleetFile read_fleet(const nlohmann::ordered_json& value, const std::string& path);

}  // namespace ratelab::io::detail
