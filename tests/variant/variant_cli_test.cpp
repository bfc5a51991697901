// ratelab-cli built with the test algorithm: it is listed, takes --lane with its parameters,
// and refuses a bad value with one line naming the lane.
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "catch.h"

namespace {

struct Run {
    int status = -1;
    std::string out;
};

Run run_variant(const std::string& args) {
    Run run;
    const std::string command = std::string("\"") + RATELAB_VARIANT_CLI + "\" " + args + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buffer{};
    std::size_t got = 0;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
        run.out.append(buffer.data(), got);
    }
    const int status = ::pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

const std::string kTrace = std::string("\"") + RATELAB_SOURCE_DIR + "/traces/boundary-burst.json\"";

}  // namespace

TEST_CASE("variant cli: the test algorithm is listed with its parameters") {
    const Run text = run_variant("algorithms");
    CHECK(text.status == 0);
    CHECK(text.out.find("first_n  (First n)") != std::string::npos);
    CHECK(text.out.find("allowance (whole, cost units, default L, 1 to 1000000)") !=
          std::string::npos);
    const Run json = run_variant("algorithms --json");
    REQUIRE(json.status == 0);
    const auto list = nlohmann::json::parse(json.out)["algorithms"];
    CHECK(list.back()["id"] == "first_n");
    CHECK(list.back()["parameters"][1]["kind"] == "flag");
}

TEST_CASE("variant cli: a lane of the test algorithm with its own values") {
    const Run run =
        run_variant("simulate " + kTrace + " --summary --lane first_n:allowance=2 --lane first_n");
    REQUIRE(run.status == 0);
    const auto report = nlohmann::json::parse(run.out);
    REQUIRE(report["algorithms"].size() == 2);
    CHECK(report["algorithms"][0]["accepted"] == 2);
    CHECK(report["algorithms"][1]["accepted"] == 4);  // allowance L = 4
    const Run bad = run_variant("simulate " + kTrace + " --lane first_n:by_cost=perhaps");
    CHECK(bad.status == 2);
    CHECK(bad.out ==
          "ratelab-cli simulate: --lane: lane 1 (first_n:by_cost=perhaps): by_cost must be yes "
          "or no, not \"perhaps\"\n");
}
