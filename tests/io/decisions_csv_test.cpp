// The decisions table: its header, one row per request and algorithm, exact times.
#include <sstream>

#include "catch.h"
#include "ratelab/io/decisions_csv.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::io;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::string csv(const SimulationResult& result) {
    std::ostringstream out;
    write_decisions_csv(out, result);
    return out.str();
}

}  // namespace

TEST_CASE("decisions csv: a header and one row per request and algorithm") {
    const auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    const std::vector<std::string> rows = lines(csv(*result));
    REQUIRE(rows.size() == 1 + 8 * result->runs.size());
    CHECK(rows[0] == "request,tick,key,cost,algorithm,lane,accepted,release,delay,retry_after");
    // Request 1 (tick 7) through the leaky bucket leaves at 8.5 after 1.5 ticks.
    const std::size_t leaky = 1 + 1 * result->runs.size() + 4;
    REQUIRE(result->runs[4].id == "leaky_bucket");
    CHECK(rows[leaky] == "1,7,,1,leaky_bucket,Leaky bucket,true,8.5,1.5,");
    // Request 6 (tick 12) is rejected by the token bucket, which refills in 1.5 ticks.
    const std::size_t token = 1 + 6 * result->runs.size() + 3;
    CHECK(rows[token] == "6,12,,1,token_bucket,Token bucket,false,,,1.5");
}

TEST_CASE("decisions csv: keys are quoted when they need it, and impossible costs say never") {
    TraceBuilder builder;
    builder.add(0, 1, "plain");
    builder.add(0, 9, "a,b \"c\"");
    Params params;
    params.base.limit = 4;
    params.base.window = 10;
    const auto result =
        simulate(std::make_shared<const Trace>(std::move(builder).take()), params, {"sliding_log"});
    const std::vector<std::string> rows = lines(csv(*result));
    REQUIRE(rows.size() == 3);
    CHECK(rows[1] == "0,0,plain,1,sliding_log,Sliding log,true,,,");
    CHECK(rows[2] == "1,0,\"a,b \"\"c\"\"\",9,sliding_log,Sliding log,false,,,never");
}

TEST_CASE("decisions csv: a result without decisions is refused with a reason") {
    RunOptions options;
    options.keep_decisions = false;
    const auto result =
        simulate(std::make_shared<const Trace>(default_trace()), default_params(), {}, options);
    std::ostringstream out;
    CHECK_THROWS_WITH(write_decisions_csv(out, *result),
                      Catch::Contains("kept no per-request decisions"));
}
