// ratelab-cli fleet as a user runs it: the documented fields, the modes in the order given,
// and one clear line with status 2 for each kind of bad option.
#include <algorithm>

#include "catch.h"
#include "cli_json.h"
#include "cli_runner.h"

namespace fs = std::filesystem;
namespace {

const std::string kSource = RATELAB_SOURCE_DIR;
const std::string kTenants = "\"" + kSource + "/traces/multi-tenant.json\"";

/// Thirty requests at tick 0 against L = 10 per 100 ticks.
std::string thirty_at_once(const std::string& name) {
    const fs::path dir = cli_scratch_dir(name);
    std::string requests;
    for (int i = 0; i < 30; ++i)
        requests += std::string(i == 0 ? "" : ",") + "{\"tick\": 0}";
    write_file(dir / "burst.json",
               "{\"format\": \"ratelab-trace\", \"version\": 1, \"limit\": 10, \"window\": 100, "
               "\"requests\": [" +
                   requests + "]}");
    return "\"" + (dir / "burst.json").string() + "\"";
}

bool one_line(const std::string& text) {
    return !text.empty() && text.back() == '\n' && std::count(text.begin(), text.end(), '\n') == 1;
}

}  // namespace

TEST_CASE("cli: fleet reports each mode in the order given, with every decision's server") {
    const std::string trace = thirty_at_once("fleet_fields");
    const Json report = json_of(
        run_cli("fleet " + trace + " --servers 3 --lane fixed_window --mode local_share,central"));
    CHECK(report["servers"] == 3);
    CHECK(report["balancer"] == "round_robin");
    CHECK(report["lane"] == "fixed_window");
    CHECK(report["ideal"]["accepted"] == 10);
    REQUIRE(report["modes"].size() == 2);
    const Json& local = report["modes"][0];
    CHECK(local["mode"] == "local_share");
    CHECK(local["accepted"] == 9);  // 10 / 3 rounds down to 3 a server
    CHECK(local["rejected"] == 21);
    CHECK(local["extra_rejected"] == 1);
    CHECK(local["extra_accepted"] == 0);
    CHECK(local["worst_burst"]["cost"] == 9);
    CHECK(local["worst_burst"]["start"] == 0);
    CHECK(local["worst_burst"]["key"] == "");
    CHECK(local["overshoot"] == 0.9);
    REQUIRE(local["decisions"].size() == 30);
    for (std::size_t i = 0; i < 30; ++i) {
        CHECK(local["decisions"][i]["index"] == i);
        CHECK(local["decisions"][i]["server"] == i % 3);
        // Each server accepts its first three.
        CHECK(local["decisions"][i]["accepted"] == (i < 9));
    }
    const Json& central = report["modes"][1];
    CHECK(central["mode"] == "central");
    CHECK(central["accepted"] == 10);
    CHECK(central["overshoot"] == 1.0);
}

TEST_CASE("cli: fleet --summary leaves the decisions out, and -o writes the same report") {
    const fs::path dir = cli_scratch_dir("fleet_output");
    const std::string args = "fleet " + kTenants +
                             " --servers 4 --balancer random --seed 9 --store-latency 2 "
                             "--sync-every 5 --outage 30:60 --on-outage fallback_local "
                             "--scale 100:6 --scale 200:2 --summary";
    const CliRun run = run_cli(args);
    const Json report = json_of(run);
    CHECK(report["seed"] == 9);
    CHECK(report["outage"]["on_outage"] == "fallback_local");
    CHECK(report["scale"].size() == 2);
    REQUIRE(report["modes"].size() == 5);
    for (const Json& mode : report["modes"]) {
        CHECK(!mode.contains("decisions"));
        CHECK(mode["load"].size() == 6);
    }
    CHECK(run_cli(args + " -o \"" + (dir / "fleet.json").string() + "\"").status == 0);
    CHECK(read_file(dir / "fleet.json") == run.out);
    // The same seed routes alike; another seed routes otherwise.
    CHECK(run_cli(args).out == run.out);
    CHECK(run_cli(args + " --seed 10").out != run.out);
}

TEST_CASE("cli: fleet names the option and the problem, with status 2") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "--servers N is required (1 to 1000)"},
        {"--servers 0", "--servers must be a whole number from 1 to 1000, not \"0\""},
        {"--servers 1001", "--servers must be a whole number from 1 to 1000, not \"1001\""},
        {"--servers 2 --mode central,sideways", "--mode: unknown mode \"sideways\""},
        {"--servers 2 --mode central,central", "--mode: central is given twice"},
        {"--servers 2 --balancer nearest", "--balancer must be round_robin, random or key_hash"},
        {"--servers 2 --outage 5", "--outage takes A:B (two whole numbers), not \"5\""},
        {"--servers 2 --outage 9:3", "--outage A:B needs 0 <= A < B, not \"9:3\""},
        {"--servers 2 --outage 1:3 --on-outage shrug", "--on-outage must be fail_open"},
        {"--servers 2 --on-outage fail_open", "--on-outage says what to do during an --outage"},
        {"--servers 2 --scale 10:0", "--scale 10:0: N must be between 1 and 1000"},
        {"--servers 2 --scale 10:3 --scale 5:4", "--scale 5:4: ticks must be >= 0 and increase"},
        {"--servers 2 --sync-every 0", "--sync-every must be a whole number from 1"},
        {"--servers 2 --store-latency -1", "--store-latency must be a whole number from 0"},
        {"--servers 2 --seed x", "--seed must be a whole number"},
        {"--servers 2 --lane gcra --lane token_bucket", "--lane: a fleet runs one lane, not 2"},
        {"--servers 2 --lane nope", "--lane nope: "},
        {"--servers 2 --lane redis_cell --mode periodic_sync",
         "periodic_sync merges charges decided elsewhere, which redis_cell cannot"},
    };
    for (const auto& [options, message] : cases) {
        INFO(options);
        const CliRun run = run_cli("fleet " + kTenants + " " + options);
        CHECK(run.status == 2);
        CHECK(run.out.empty());
        CHECK(one_line(run.err));
        CHECK(run.err.find(message) != std::string::npos);
    }
}

TEST_CASE("cli: fleet takes its settings from the trace's \"fleet\" object, options on top") {
    const std::string trace = "\"" + kSource + "/traces/fleet-store-down.json\"";
    const Json saved = json_of(run_cli("fleet " + trace + " --summary"));
    CHECK(saved["servers"] == 4);
    CHECK(saved["sync_every"] == 5);
    CHECK(saved["outage"]["on_outage"] == "fail_open");
    REQUIRE(saved["modes"].size() == 2);
    CHECK(saved["modes"][0]["mode"] == "central");
    CHECK(saved["modes"][1]["mode"] == "periodic_sync");
    // Failing open lets through every request of the outage; failing closed none of them.
    CHECK(saved["modes"][0]["during_outage"] == 60);
    const Json closed =
        json_of(run_cli("fleet " + trace + " --summary --on-outage fail_closed --servers 2"));
    CHECK(closed["servers"] == 2);
    CHECK(closed["outage"]["on_outage"] == "fail_closed");
    CHECK(closed["modes"][0]["accepted"].get<int>() ==
          saved["modes"][0]["accepted"].get<int>() - 60);
}

TEST_CASE("cli: fleet --lost-updates lets the last write win, and the file can say so") {
    // L = 3 per fixed window of 100 on a store 10 ticks away: five requests at 0 to 4 all read
    // an empty store. Merged, their charges refuse the three later ones; lost, each write
    // replaces the one before and the store holds 1 until tick 20.
    const fs::path dir = cli_scratch_dir("fleet_lost_updates");
    const std::string head =
        "{\"format\": \"ratelab-trace\", \"version\": 1, \"limit\": 3, \"window\": 100, "
        "\"requests\": [{\"tick\": 0}, {\"tick\": 1}, {\"tick\": 2}, {\"tick\": 3}, "
        "{\"tick\": 4}, {\"tick\": 20}, {\"tick\": 40}, {\"tick\": 60}]";
    write_file(dir / "plain.json", head + "}");
    write_file(dir / "lost.json", head + ", \"fleet\": {\"servers\": 1, \"lost_updates\": true}}");
    const std::string options =
        " --servers 1 --lane fixed_window --mode central_racy --store-latency 10 --summary";
    const Json merged =
        json_of(run_cli("fleet \"" + (dir / "plain.json").string() + "\"" + options));
    CHECK(merged["lost_updates"] == false);
    CHECK(merged["modes"][0]["accepted"] == 5);
    const Json lost = json_of(
        run_cli("fleet \"" + (dir / "plain.json").string() + "\"" + options + " --lost-updates"));
    CHECK(lost["lost_updates"] == true);
    CHECK(lost["modes"][0]["accepted"] == 7);
    CHECK(lost["modes"][0]["extra_accepted"] == 4);
    const Json from_file =
        json_of(run_cli("fleet \"" + (dir / "lost.json").string() + "\"" + options));
    CHECK(from_file["lost_updates"] == true);
    CHECK(from_file["modes"][0]["accepted"] == 7);
}
