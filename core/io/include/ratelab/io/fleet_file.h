#pragma once
// The fleet settings a trace file may keep in an optional top-level "fleet" object, so that a
// bundled scenario (or the app) opens with its servers, balancer, modes and events set.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ratelab/fleet.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::io {

/// A trace file's "fleet" object: the settings, and the lane the fleet runs when it names one
/// ("lane": "token_bucket:capacity=8", written as for --lane; else the trace's first lane).
struct FleetFile {
    FleetSettings settings;
    std::optional<Lane> lane;
};

/// The "fleet" object of `doc`, or nothing when it has none. The loader has checked
/// the object already (load_trace() throws TraceFileError at its JSON path, as
/// `$.fleet.servers`); `file` names the document in the error of one built in memory.
std::optional<FleetFile> fleet_settings(const TraceDocument& doc, const std::string& file);

/// The "fleet" object that reads back as `fleet` (modes left out when all five run).
nlohmann::ordered_json fleet_json(const FleetFile& fleet);

}  // namespace ratelab::io
