#pragma once
// The fleet settings a trace file may keep in an optional top-level "fleet" object, so that a
// bundled scenario (or the app) opens with its servers, balancer, modes and events set.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ratelab/fleet.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::io {

/// The settings in `doc`'s "fleet" object, or nothing when it has none. The loader has checked
/// the object already (load_trace() throws TraceFileError at its JSON path, as
/// `$.fleet.servers`); `file` names the document in the error of one built in memory.
std::optional<FleetSettings> fleet_settings(const TraceDocument& doc, const std::string& file);

/// The "fleet" object that reads back as `settings` (modes left out when all five run).
nlohmann::ordered_json fleet_json(const FleetSettings& settings);

}  // namespace ratelab::io
