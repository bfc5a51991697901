#pragma once
// The JSON that a run of ratelab-cli printed, for the tests that read its reports.

#include <nlohmann/json.hpp>

#include "catch.h"
#include "cli_runner.h"

using Json = nlohmann::ordered_json;

/// What `run` printed, parsed; fails the test, showing what it wrote to stderr, unless it
/// exited with status 0.
inline Json json_of(const CliRun& run) {
    INFO(run.err);
    REQUIRE(run.status == 0);
    return Json::parse(run.out);
}
