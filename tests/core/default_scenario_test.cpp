// The default scenario, worked out by hand: L = 4, W = 10, one request at each of ticks 6..13.
#include "catch.h"
#include "test_support.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

std::shared_ptr<const SimulationResult> default_result() {
    return simulate(std::make_shared<const Trace>(default_trace()), default_params());
}

}  // namespace

TEST_CASE("default scenario: every algorithm's accept pattern and worst burst") {
    const auto result = default_result();
    struct Expected {
        const char* id;
        const char* pattern;  // ticks 6..13
        std::int64_t worst_burst;
    };
    const Expected table[] = {
        {"fixed_window", "AAAAAAAA", 8},     // the boundary problem: 8 within [6, 16)
        {"sliding_log", "AAAARRRR", 4},      // exact: never more than L in W
        {"sliding_counter", "AAAARRRA", 5},  // the estimate lets tick 13 in
        {"token_bucket", "AAAAAARR", 6},     // full bucket of 4 plus 0.4 per tick
        {"leaky_bucket", "AAAAAAAR", 4},     // measured on releases: 4 per 10 ticks at most
        {"gcra", "AAAAAARR", 6},
    };
    for (const Expected& e : table) {
        INFO(e.id);
        const AlgorithmRun* run = result->find(e.id);
        REQUIRE(run != nullptr);
        CHECK(pattern(*run) == e.pattern);
        CHECK(run->worst_burst.cost == e.worst_burst);
        CHECK(run->totals.accepted + run->totals.rejected == 8);
    }
    CHECK(result->find("fixed_window")->worst_burst.start == Rational(6));
    CHECK(result->find("token_bucket")->worst_burst.start == Rational(6));
}

TEST_CASE("default scenario: the leaky bucket's releases and delays") {
    const auto result = default_result();
    const AlgorithmRun& run = *result->find("leaky_bucket");
    const Trace& trace = *result->trace;
    // Drain interval 2.5: releases at 6, 8.5, 11, 13.5, 16, 18.5, 21.
    const Rational releases[] = {6, Rational(17, 2), 11, Rational(27, 2), 16, Rational(37, 2), 21};
    for (std::size_t i = 0; i < 7; ++i) {
        INFO("request at tick " << trace.requests[i].tick);
        const Decision d = run.decision(trace, i);
        REQUIRE(d.accepted);
        CHECK(d.release == releases[i]);
        CHECK(d.delay == releases[i] - Rational(trace.requests[i].tick));
    }
    CHECK(run.decision(trace, 6).delay == Rational(9));  // tick 12 leaves at 21
    CHECK(run.totals.max_delay == Rational(9));
    CHECK_FALSE(run.decision(trace, 7).accepted);
    CHECK(run.worst_burst.start == Rational(6));
}

TEST_CASE("default scenario: retry-after times") {
    const auto result = default_result();
    const Trace& trace = *result->trace;
    // Request index = tick - 6.
    CHECK(result->find("sliding_log")->decision(trace, 4).retry_after == Rational(6));
    CHECK(result->find("sliding_counter")->decision(trace, 4).retry_after == Rational(5, 2));
    CHECK(result->find("token_bucket")->decision(trace, 6).retry_after == Rational(3, 2));
    CHECK(result->find("gcra")->decision(trace, 6).retry_after == Rational(3, 2));
    CHECK(result->find("leaky_bucket")->decision(trace, 7).retry_after == Rational(1, 2));
}
