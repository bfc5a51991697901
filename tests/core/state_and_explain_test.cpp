// The state of every algorithm at a tick, and the "why" of a decision, on the default scenario.
#include "catch.h"
#include "ratelab/registry.h"
#include "ratelab/tick_text.h"
#include "test_support.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

std::shared_ptr<const SimulationResult> default_result() {
    return simulate(std::make_shared<const Trace>(default_trace()), default_params());
}

Rational field(const LimiterState& state, const std::string& name) {
    for (const StateField& f : state.fields) {
        if (f.name == name)
            return f.value;
    }
    FAIL("no field " << name);
    return {};
}

}  // namespace

TEST_CASE("state at a tick: one line per algorithm, computed without snapshots") {
    const auto r = default_result();
    CHECK(state_at(*r, lane_of(*r, "fixed_window"), 0, 0).summary == "window [0, 10): 0/4");
    CHECK(state_at(*r, lane_of(*r, "fixed_window"), 0, 12).summary == "window [10, 20): 3/4");
    CHECK(state_at(*r, lane_of(*r, "sliding_log"), 0, 8).summary == "log [6, 7, 8]: 3/4");
    CHECK(state_at(*r, lane_of(*r, "sliding_log"), 0, 17).summary == "log [8, 9]: 2/4");
    CHECK(state_at(*r, lane_of(*r, "sliding_counter"), 0, 10).summary ==
          "estimate 4 x 1.00 + 0 = 4.00 of 4");
    CHECK(state_at(*r, lane_of(*r, "sliding_counter"), 0, 19).summary ==
          "estimate 4 x 0.10 + 1 = 1.40 of 4");
    CHECK(state_at(*r, lane_of(*r, "token_bucket"), 0, 0).summary ==
          "tokens 4.00 / 4, +0.40 per tick");
    CHECK(state_at(*r, lane_of(*r, "token_bucket"), 0, 12).summary ==
          "tokens 0.40 / 4, +0.40 per tick");
    CHECK(state_at(*r, lane_of(*r, "leaky_bucket"), 0, 0).summary ==
          "queue 0/4, drains 1 per 2.5 ticks");
    CHECK(state_at(*r, lane_of(*r, "leaky_bucket"), 0, 12).summary ==
          "queue 4/4, next release at 13.5");
    CHECK(state_at(*r, lane_of(*r, "gcra"), 0, 13).summary == "TAT 21, next allowed at 13.5");
}

TEST_CASE("tick counts: one tick is singular, every other count plural") {
    CHECK(ticks_text(std::int64_t{1}) == "1 tick");
    CHECK(ticks_text(std::int64_t{0}) == "0 ticks");
    CHECK(ticks_text(std::int64_t{10}) == "10 ticks");
    CHECK(ticks_text("2.5") == "2.5 ticks");
    CHECK(ticks_text("1.5") == "1.5 ticks");
    // A leaky bucket draining one unit a tick (L = W) says so in the singular.
    Params params = default_params();
    params.base.window = params.base.limit;
    const auto r = simulate(std::make_shared<const Trace>(default_trace()), params);
    CHECK(state_at(*r, lane_of(*r, "leaky_bucket"), 0, 0).summary ==
          "queue 0/4, drains 1 per 1 tick");
}

TEST_CASE("state fields carry the exact numbers behind the summary") {
    const auto r = default_result();
    const LimiterState bucket = state_at(*r, lane_of(*r, "token_bucket"), 0, 14);
    CHECK(field(bucket, "tokens") == Rational(6, 5));  // 0.4 at 12, +0.8 by 14
    // GCRA's allowance is the token bucket's level: they are the same limiter.
    for (Tick t = 0; t <= 30; ++t) {
        INFO("tick " << t);
        CHECK(field(state_at(*r, lane_of(*r, "gcra"), 0, t), "allowance") ==
              field(state_at(*r, lane_of(*r, "token_bucket"), 0, t), "tokens"));
    }
    CHECK(field(state_at(*r, lane_of(*r, "leaky_bucket"), 0, 12), "queued") == Rational(4));
    CHECK(field(state_at(*r, lane_of(*r, "sliding_counter"), 0, 13), "estimate") ==
          Rational(19, 5));  // 4 x 0.7 + 1
}

TEST_CASE("why: the state before, the check with its numbers, the state after") {
    const auto r = default_result();
    const Explanation counter = explain(*r, lane_of(*r, "sliding_counter"), 6);  // tick 12
    CHECK(counter.check == "estimate 4 x 0.80 + 0 + 1 = 4.20 > 4");
    CHECK(counter.state_before == counter.state_after);
    CHECK(counter.decision.retry_after == Rational(1, 2));

    const Explanation accepted = explain(*r, lane_of(*r, "sliding_counter"), 7);  // tick 13
    CHECK(accepted.check == "estimate 4 x 0.70 + 0 + 1 = 3.80 <= 4");
    CHECK(accepted.state_after == "estimate 4 x 0.70 + 1 = 3.80 of 4");
    CHECK(accepted.decision.accepted);

    const Explanation bucket = explain(*r, lane_of(*r, "token_bucket"), 6);
    CHECK(bucket.state_before == "tokens 0.40 / 4, +0.40 per tick");
    CHECK(bucket.check == "tokens 0.40 < cost 1");
    CHECK(bucket.decision.retry_after == Rational(3, 2));

    const Explanation leaky = explain(*r, lane_of(*r, "leaky_bucket"), 6);
    CHECK(leaky.check == "queue 3 + cost 1 = 4 <= 4");
    CHECK(leaky.decision.release == Rational(21));
    CHECK(leaky.decision.delay == Rational(9));

    CHECK(explain(*r, lane_of(*r, "fixed_window"), 7).check ==
          "window [10, 20): used 3 + cost 1 = 4 <= 4");
    CHECK(explain(*r, lane_of(*r, "sliding_log"), 4).check ==
          "log [6, 7, 8, 9] holds 4 + cost 1 = 5 > 4");
    CHECK(explain(*r, lane_of(*r, "gcra"), 6).check ==
          "max(TAT 21, now 12) + (1 - 1) x 2.5 - 12 = 9 > tolerance 7.5");
}

TEST_CASE("why agrees with the stored decision for every request and algorithm") {
    const auto r = default_result();
    for (std::size_t lane = 0; lane < r->runs.size(); ++lane) {
        const AlgorithmRun& run = r->runs[lane];
        for (std::size_t i = 0; i < r->trace->requests.size(); ++i) {
            INFO(run.id << " request " << i);
            CHECK(explain(*r, lane, i).decision == run.decision(*r->trace, i));
        }
    }
}

TEST_CASE("a long sliding log is shown with its middle elided") {
    TraceBuilder builder;
    for (Tick t = 0; t < 12; ++t)
        builder.add(t);
    const auto result =
        simulate(std::make_shared<const Trace>(std::move(builder).take()), limits(20, 100));
    CHECK(state_at(*result, lane_of(*result, "sliding_log"), 0, 20).summary ==
          "log [0, 1, 2, ..., 10, 11]: 12/20");
}

TEST_CASE("asking about a request or key that does not exist is an error, not a crash") {
    const auto r = default_result();
    CHECK_THROWS_AS(explain(*r, lane_of(*r, "gcra"), 99), SimulationError);
    CHECK_THROWS_AS(state_at(*r, lane_of(*r, "gcra"), 7, 0), SimulationError);
    CHECK_THROWS_AS(explain(*r, lane_of(*r, "nope"), 0), SimulationError);
}

TEST_CASE("checkpoints give the same state and why as a replay from the start") {
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 20'000; ++i) {
        tick += i % 7 == 0 ? 3 : 0;
        builder.add(tick, static_cast<std::uint32_t>(1 + i % 2), i % 3 == 0 ? "b" : "a");
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    // Every algorithm, opt-in lane and library preset: they all run on the one engine.
    Params params = limits(9, 40);
    params.lanes = test::every_lane();
    const auto result = simulate(trace, params);
    REQUIRE(result->runs.size() > 6);
    for (const AlgorithmRun& run : result->runs) {
        INFO(run.id);
        REQUIRE(run.checkpoints);  // few keys and many requests: the run saved its states
        const auto algorithm = Registry::instance().find(run.id)->make();
        for (const Tick at : {Tick(0), Tick(5'000), tick / 2 + 1, tick}) {
            for (const KeyId key : {KeyId(1), KeyId(2)}) {
                CHECK(algorithm->state_at(*trace, result->params, key, at, &run) ==
                      algorithm->state_at(*trace, result->params, key, at, nullptr));
            }
        }
        for (const std::size_t index :
             {std::size_t(0), std::size_t(4096), std::size_t(12'345), std::size_t(19'999)}) {
            const Explanation fast = algorithm->explain(*trace, result->params, index, &run);
            const Explanation slow = algorithm->explain(*trace, result->params, index, nullptr);
            CHECK(fast.state_before == slow.state_before);
            CHECK(fast.check == slow.check);
            CHECK(fast.decision == run.decision(*trace, index));
        }
    }
}
