// ratelab-cli sweep as a user runs it: rows that match simulate, the closed forms, bad ranges.
#include <algorithm>

#include "catch.h"
#include "cli_json.h"
#include "cli_runner.h"

namespace fs = std::filesystem;
namespace {

const std::string kSource = RATELAB_SOURCE_DIR;
const std::string kBoundary = "\"" + kSource + "/traces/boundary-burst.json\"";
const std::string kTiers = "\"" + kSource + "/traces/key-tiers.json\"";

bool one_line(const std::string& text) {
    return !text.empty() && text.back() == '\n' && std::count(text.begin(), text.end(), '\n') == 1;
}

}  // namespace

TEST_CASE("cli: sweep rows equal simulate at the same settings") {
    const Json swept = json_of(run_cli("sweep " + kBoundary + " --vary limit=1..5 --json"));
    REQUIRE(swept["axes"].size() == 1);
    CHECK(swept["axes"][0]["name"] == "limit");
    CHECK(swept["axes"][0]["values"].dump() == "[1,2,3,4,5]");
    REQUIRE(swept["lanes"].size() == 6);
    REQUIRE(swept["rows"].size() == 5 * 6);
    for (int limit = 1; limit <= 5; ++limit) {
        const Json report = json_of(
            run_cli("simulate " + kBoundary + " --summary --limit " + std::to_string(limit)));
        for (std::size_t lane = 0; lane < 6; ++lane) {
            const Json& row = swept["rows"][static_cast<std::size_t>(limit - 1) * 6 + lane];
            const Json& run = report["algorithms"][lane];
            INFO("limit " << limit << ", " << run["label"]);
            CHECK(row["limit"] == limit);
            CHECK(row["lane"] == run["label"]);
            CHECK(row["accepted"] == run["accepted"]);
            CHECK(row["rejected"] == run["rejected"]);
            CHECK(row["rejected_cost"] == run["rejected_cost"]);
            CHECK(row["worst_burst"] == run["worst_burst"]["cost"]);
        }
    }
    // At L = 4 the leaky bucket queues seven and releases the last 9 ticks late: with seven
    // delays the 95th percentile is the seventh, the longest.
    const Json& leaky = swept["rows"][3 * 6 + 4];
    CHECK(leaky["lane"] == "Leaky bucket");
    CHECK(leaky["max_delay"] == 9);
    CHECK(leaky["p95_delay"] == 9);
    CHECK(leaky["rejected_percent"] == 12.5);  // one of eight
    // The fixed window lets all eight through at L = 4: twice the limit.
    const Json& fixed = swept["rows"][3 * 6 + 0];
    CHECK(fixed["worst_burst"] == 8);
    CHECK(fixed["worst_burst_per_limit"] == 2);
    CHECK(fixed["max_delay"].is_null());
    CHECK(fixed["p95_delay"].is_null());
}

TEST_CASE("cli: sweep varies lane parameters, rational ones with fractions") {
    // Only lane parameters vary and no --lane is given: only their algorithm runs.
    const Json capacity =
        json_of(run_cli("sweep " + kBoundary + " --vary token_bucket.capacity=4..8:2 --json"));
    REQUIRE(capacity["lanes"].dump() == R"(["Token bucket"])");
    REQUIRE(capacity["rows"].size() == 3);
    // 4 tokens at 2/5 a tick let six through; 6 tokens all eight (the closed form below).
    CHECK(capacity["rows"][0]["token_bucket.capacity"] == 4);
    CHECK(capacity["rows"][0]["accepted"] == 6);
    CHECK(capacity["rows"][0]["rejected_percent"] == 25);
    CHECK(capacity["rows"][1]["accepted"] == 8);
    CHECK(capacity["rows"][2]["accepted"] == 8);

    const Json rate = json_of(run_cli("sweep " + kBoundary +
                                      " --lane token_bucket --vary token_bucket.refill_rate="
                                      "1/5..3/5:1/5 --json"));
    CHECK(rate["axes"][0]["values"].dump() == R"(["1/5","2/5","3/5"])");
    const Json report = json_of(
        run_cli("simulate " + kBoundary + " --summary --lane token_bucket:refill_rate=3/5"));
    CHECK(rate["rows"][2]["accepted"] == report["algorithms"][0]["accepted"]);

    // Two axes make a grid, the last varying fastest.
    const CliRun csv = run_cli("sweep " + kBoundary +
                               " --lane gcra --vary window=5,10 --vary gcra.burst=1,2 --csv");
    REQUIRE(csv.status == 0);
    CHECK(csv.out.rfind("window,gcra.burst,lane,accepted,rejected,rejected_percent,", 0) == 0);
    CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 5);
    CHECK(csv.out.find("\n5,2,GCRA,") != std::string::npos);
    CHECK(csv.out.find("\n10,1,GCRA,") != std::string::npos);
}

TEST_CASE("cli: sweep prints a table by default and writes -o files") {
    const CliRun table = run_cli("sweep " + kBoundary + " --lane sliding_log --vary limit=3,4");
    REQUIRE(table.status == 0);
    CHECK(table.out.rfind("limit  lane         accepted  rejected  rejected %", 0) == 0);
    CHECK(table.out.find("\n    4  Sliding log         4         4       50.00") !=
          std::string::npos);
    const fs::path dir = cli_scratch_dir("sweep_output");
    const CliRun written =
        run_cli("sweep " + kBoundary + " --lane sliding_log --vary limit=3,4 -o \"" +
                (dir / "rows.txt").string() + "\"");
    CHECK(written.status == 0);
    CHECK(written.out.empty());
    CHECK(read_file(dir / "rows.txt") == table.out);
    fs::remove_all(dir);
}

TEST_CASE("cli: sweep --fit zero-rejections prints the exact capacity and rate") {
    const Json bucket = json_of(
        run_cli("sweep " + kBoundary + " --lane token_bucket --fit zero-rejections --json"));
    REQUIRE(bucket["fits"].size() == 1);
    const Json& fit = bucket["fits"][0];
    CHECK(fit["tier"] == "all keys");
    CHECK(fit["smallest_capacity"] == 6);
    CHECK(fit["at_rate"] == "2/5");
    CHECK(fit["rate_for_zero_rejections"] == "4/7");
    CHECK(fit["at_capacity"] == 4);

    // GCRA answers with an emission interval; one row per point with --vary.
    const CliRun gcra =
        run_cli("sweep " + kBoundary + " --lane gcra --vary limit=4,8 --fit zero-rejections");
    REQUIRE(gcra.status == 0);
    CHECK(gcra.out.find("burst 6 at emission_interval 5/2") != std::string::npos);
    CHECK(gcra.out.find("emission_interval at most 7/4 at burst 4") != std::string::npos);
    CHECK(gcra.out.find("any emission_interval at burst 8") != std::string::npos);

    // CSV: the exact values, one line per point; a faster refill needs a smaller bucket.
    const CliRun csv = run_cli("sweep " + kBoundary +
                               " --lane token_bucket --vary token_bucket.refill_rate=1/5,1"
                               " --fit zero-rejections --csv");
    REQUIRE(csv.status == 0);
    CHECK(csv.out ==
          "token_bucket.refill_rate,lane,tier,keys,capacity_parameter,smallest_capacity,at_rate,"
          "rate_parameter,rate_for_zero_rejections,at_capacity\n"
          "1/5,Token bucket,all keys,1,capacity,7,1/5,refill_rate,4/7,4\n"
          "1,Token bucket,all keys,1,capacity,1,1,refill_rate,4/7,4\n");

    // Key tiers: one line for all keys, then one per tier.
    const Json tiers =
        json_of(run_cli("sweep " + kTiers + " --lane token_bucket --fit zero-rejections --json"));
    REQUIRE(tiers["fits"].size() >= 2);
    std::int64_t largest = 0;
    for (std::size_t i = 1; i < tiers["fits"].size(); ++i) {
        largest = std::max(largest, tiers["fits"][i]["smallest_capacity"].get<std::int64_t>());
    }
    CHECK(tiers["fits"][0]["smallest_capacity"] == largest);
    const Json at_fit =
        json_of(run_cli("simulate " + kTiers +
                        " --summary --lane token_bucket:capacity=" + std::to_string(largest)));
    CHECK(at_fit["algorithms"][0]["rejected"] == 0);
}

TEST_CASE("cli: a bad sweep exits 2 with one line naming the problem") {
    const struct {
        std::string args;
        std::string expected;
    } cases[] = {
        {"--vary limit=5..1", "--vary limit=5..1: the range runs backwards (5 > 1)"},
        {"--vary limit=1..5:0", "--vary limit=1..5:0: the step must be above 0, not 0"},
        {"--vary limit=1..5:1/2", "the step must be whole, not 1/2"},
        {"--vary limit=1..20000", "--vary limit=1..20000: too many points: at most 10000"},
        {"--vary limit=1..200 --vary window=1..100",
         "too many points: the axes make more than 10000"},
        {"--vary burst=1..3", "unknown parameter \"burst\""},
        {"--vary token_bucket.size=1..3", "token_bucket has no parameter \"size\""},
        {"--vary token_bukket.capacity=1..3", "unknown algorithm \"token_bukket\""},
        {"--vary limit=0..3", "limit must be between 1"},
        {"--vary limit=1,,2", "an empty value in the list"},
        {"--vary limit", "write NAME=A..B[:STEP] or NAME=V1,V2,..."},
        {"--vary limit=1,2 --vary limit=3", "limit is varied twice"},
        {"--lane fixed_window --vary gcra.burst=1..3",
         "gcra.burst varies gcra, which no lane runs"},
        {"", "give at least one --vary"},
        {"--vary limit=1 --json --csv", "give --json or --csv, not both"},
        {"--fit best", "--fit takes zero-rejections, not \"best\""},
        {"--lane sliding_log --fit zero-rejections", "answers for token_bucket and gcra lanes"},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        const CliRun run = run_cli("sweep " + kBoundary + " " + c.args);
        CHECK(run.status == 2);
        CHECK(run.out.empty());
        CHECK(one_line(run.err));
        CHECK(run.err.find(c.expected) != std::string::npos);
        CHECK(run.err.rfind("ratelab-cli sweep: ", 0) == 0);
    }
    const CliRun help = run_cli("sweep --help");
    CHECK(help.status == 0);
    CHECK(help.out.find("--vary NAME=VALUES") != std::string::npos);
    CHECK(run_cli("--help").out.find("  sweep") != std::string::npos);
}

TEST_CASE("cli: with several keys a sweep counts the keys over their own limit") {
    // key-tiers: free (L = 2), pro (L = 8) and guest (the trace's L, swept). The log holds each
    // key to its own L; the token bucket lets pro's bucket of 8 plus its refill through.
    const Json swept = json_of(run_cli("sweep \"" + kSource +
                                       "/traces/key-tiers.json\" --lane sliding_log "
                                       "--lane token_bucket --vary limit=2,4 --json"));
    REQUIRE(swept["rows"].size() == 4);
    for (const Json& row : swept["rows"]) {
        INFO(row.dump());
        CHECK(row["keys"] == 3);
        if (row["lane"] == "Sliding log") {
            CHECK(row["keys_over_limit"] == 0);
            CHECK(row["worst_key"]["cost"] == row["worst_key"]["limit"]);
        } else {
            CHECK(row["keys_over_limit"] >= 1);
            CHECK(row["worst_key"]["cost"] > row["worst_key"]["limit"]);
        }
        CHECK(row["worst_burst"] > row["worst_key"]["cost"]);  // the sum over three keys
    }
    const std::string table = run_cli("sweep \"" + kSource +
                                      "/traces/key-tiers.json\" --lane token_bucket --vary limit=4")
                                  .out;
    CHECK(table.find("worst key  burst / own L") != std::string::npos);
    CHECK(table.find("guest: 5") != std::string::npos);
}
