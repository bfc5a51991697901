// ratelab-cli simulate --evict as a user runs it: each lane's "eviction" figures, agreeing with
// themselves and with the lane's decisions, and one-line errors with exit status 2.
#include <algorithm>

#include "catch.h"
#include "cli_json.h"
#include "cli_runner.h"

namespace {

const std::string kSource = RATELAB_SOURCE_DIR;
const std::string kTenants = "\"" + kSource + "/traces/multi-tenant.json\"";

}  // namespace

TEST_CASE("cli: --evict idle=T reports per lane what dropping idle keys changed") {
    const Json report =
        json_of(run_cli("simulate " + kTenants + " --evict idle=1 --lane token_bucket"));
    REQUIRE(report["algorithms"].size() == 1);
    const Json& lane = report["algorithms"][0];
    const Json& eviction = lane["eviction"];
    CHECK(eviction["policy"] == "idle=1");
    CHECK(eviction["keys_held"]["peak"].get<int>() >= 1);
    CHECK(eviction["evictions"].get<int>() > 0);
    // Dropped a tick after its last request, a bucket has had no time to refill: early.
    CHECK(eviction["early_evictions"].get<int>() > 0);
    CHECK(eviction["first_early"].is_object());
    const Json& changed = eviction["changed_requests"];
    CHECK(eviction["changed"] == changed.size());
    CHECK(eviction["extra_accepted"].get<std::size_t>() +
              eviction["extra_rejected"].get<std::size_t>() +
              eviction["other_changes"].get<std::size_t>() ==
          changed.size());
    // Every request that eviction lets through was rejected when every key was kept.
    const Json& decisions = lane["decisions"];
    std::size_t extra = 0;
    for (const Json& index : changed)
        extra += decisions[index.get<std::size_t>()]["accepted"] == false;
    CHECK(extra == eviction["extra_accepted"].get<std::size_t>());
    // Keeping every key changes nothing.
    const Json kept = json_of(run_cli("simulate " + kTenants + " --evict keep --summary"));
    for (const Json& each : kept["algorithms"]) {
        CHECK(each["eviction"]["evictions"] == 0);
        CHECK(each["eviction"]["changed"] == 0);
        CHECK(each["eviction"]["first_early"].is_null());
    }
}

TEST_CASE("cli: bad --evict options are one-line errors with status 2") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--evict idle=0", "--evict: idle takes a whole number from 1 to"},
        {"--evict lru=some", "--evict: lru takes a whole number from 1 to"},
        {"--evict sometimes", "--evict: the eviction must be keep, idle=T (ticks) or lru=M"},
        {"--evict lru=2 --format csv", "takes no --evict"},
    };
    for (const auto& [options, message] : cases) {
        INFO(options);
        const CliRun run = run_cli("simulate " + kTenants + " " + options);
        CHECK(run.status == 2);
        CHECK(run.out.empty());
        CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
        CHECK(run.err.find(message) != std::string::npos);
    }
}
