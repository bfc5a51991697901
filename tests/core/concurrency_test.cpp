// The concurrency lane (core/src/algorithms/concurrency.cpp): never more units in flight than
// max_in_flight, retry-afters that are exact, and kept out of the default lanes.
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;

namespace {

Lane concurrency(std::int64_t max_in_flight, Tick duration) {
    return Lane{"concurrency",
                {{"max_in_flight", Rational(max_in_flight)}, {"duration", Rational(duration)}},
                {},
                false};
}

/// Seeded random numbers for the property tests.
struct Random {
    std::mt19937_64 rng;
    std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    }
};

/// 200 requests in bursts, of cost 1 to 4; with `own`, on two keys, and two thirds of them
/// holding for a duration of their own from 1 to 30 ticks.
Trace random_trace(Random& pick, bool own) {
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 200; ++i) {
        tick += pick(0, 2) == 0 ? pick(0, 10) : 0;
        const auto cost = static_cast<std::uint32_t>(pick(1, 4));
        if (!own) {
            builder.add(tick, cost);
            continue;
        }
        const Tick duration = pick(0, 2) == 0 ? 0 : pick(1, 30);
        builder.add(tick, cost, pick(0, 1) == 0 ? "a" : "b", duration);
    }
    return std::move(builder).take();
}

}  // namespace

TEST_CASE("concurrency: three in flight for five ticks, worked out by hand") {
    // Requests at 0, 1, 2 hold a unit each until 5, 6 and 7. The one at 3 finds 3 in flight
    // and waits until the first finishes: retry-after 5 - 3 = 2. At 5 a unit is free again.
    const auto trace = test::ticks({0, 1, 2, 3, 5, 5});
    Params params = test::limits(4, 10);
    params.lanes = {concurrency(3, 5)};
    const auto result = simulate(trace, params);
    const AlgorithmRun& run = result->runs.front();
    CHECK(test::pattern(run) == "AAARAR");
    CHECK(run.decision(*trace, 3).retry_after == Rational(2));
    CHECK(run.decision(*trace, 5).retry_after == Rational(1));
    const Explanation why = explain(*result, 0, 3);
    CHECK(why.check == "in flight 3 + cost 1 = 4 > 3");
    CHECK(state_at(*result, 0, 0, 5).summary ==
          "in flight 3 / 3, next free at t = 6, each for 5 ticks unless it sets its own");
}

TEST_CASE("concurrency: ten requests a second that each take thirty seconds") {
    // One tick a second, ten requests on each of 60 ticks. A rate limit of 10 a second lets
    // all through; in flight they reach 300. With room for 100, only the first ten seconds'
    // requests get in, then none until the first finish at 30.
    TraceBuilder builder;
    for (Tick t = 0; t < 60; ++t) {
        for (int i = 0; i < 10; ++i)
            builder.add(t);
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params = test::limits(10, 1);
    params.lanes = {Lane{"token_bucket", {}, {}, false}, concurrency(300, 30),
                    concurrency(100, 30)};
    const auto result = simulate(trace, params);
    CHECK(result->runs[0].totals.accepted == 600);
    CHECK(result->runs[1].totals.accepted == 600);
    CHECK(state_at(*result, 1, 0, 45).fields.front().value == Rational(300));
    // Ticks 0-9, then 30-39 as the first ones finish: 200 of 600.
    CHECK(result->runs[2].totals.accepted == 200);
}

TEST_CASE("concurrency: a request that sets its own duration frees its units at its own end") {
    // Room for 2. The request at 0 holds until 10, the one at 1 only for 2 ticks (until 3). At 2
    // both are in flight: rejected, and free again at 3, when the short one ends, not at 10.
    TraceBuilder builder;
    builder.add(0, 1, {}, 10);
    builder.add(1, 1, {}, 2);
    builder.add(2);
    builder.add(3);
    builder.add(4);
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params = test::limits(4, 10);
    params.lanes = {concurrency(2, 5)};
    const auto result = simulate(trace, params);
    const AlgorithmRun& run = result->runs.front();
    // The one at 3 holds the lane's 5 ticks (until 8), so at 4 there is no room.
    CHECK(test::pattern(run) == "AARAR");
    CHECK(run.decision(*trace, 2).retry_after == Rational(1));
    CHECK(run.decision(*trace, 4).retry_after == Rational(4));
    CHECK(explain(*result, 0, 4).check == "in flight 2 + cost 1 = 3 > 2");
    // The short one frees first, though it came second.
    CHECK(state_at(*result, 0, 0, 2).summary ==
          "in flight 2 / 2, next free at t = 3, each for 5 ticks unless it sets its own");
    CHECK(simulate_reference(trace, params)->runs.front().decisions == run.decisions);
    // Without the durations, every request holds for 5: the one at 2 waits until 5.
    Trace plain = *trace;
    plain.durations.clear();
    const auto lane_only = simulate(std::make_shared<const Trace>(std::move(plain)), params);
    CHECK(test::pattern(lane_only->runs.front()) == "AARRR");
}

TEST_CASE("concurrency: never more than max_in_flight units in flight") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 100; ++n) {
        const std::uint64_t seed = seed0 + n;
        // Every other seed: one key, and every request holding for the lane's duration.
        const bool own = n % 2 == 1;
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED), own durations " << own);
        Random pick{std::mt19937_64(seed)};
        const std::int64_t max_in_flight = pick(1, 10);
        const Tick lane_duration = pick(1, 20);
        const auto trace = std::make_shared<const Trace>(random_trace(pick, own));
        REQUIRE(validate(*trace).empty());
        Params params = test::limits(4, 10);
        params.lanes = {concurrency(max_in_flight, lane_duration)};
        const auto result = simulate(trace, params);
        const AlgorithmRun& run = result->runs.front();
        const Tick last = trace->requests.back().tick + 31;
        std::vector<std::vector<std::int64_t>> in_flight(
            trace->keys.size(), std::vector<std::int64_t>(static_cast<std::size_t>(last), 0));
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            const Request& r = trace->requests[i];
            if (!run.accepted(i))
                continue;
            const Tick held = trace->duration(i) != 0 ? trace->duration(i) : lane_duration;
            for (Tick t = r.tick; t < r.tick + held; ++t)
                in_flight[r.key][static_cast<std::size_t>(t)] += r.cost;
        }
        for (const auto& key : in_flight) {
            for (const std::int64_t units : key)
                CHECK(units <= max_in_flight);
        }
        // Counted afresh above; decided one at a time with their durations, the same; a
        // rejection's retry-after is exact: the same request then fits, one tick earlier not.
        const auto limiter = make_limiter(*trace, params, params.lanes.front());
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            const Request& r = trace->requests[i];
            const Decision d = limiter->decide(r.key, r.tick, r.cost, trace->duration(i));
            CHECK(d == run.decision(*trace, i));
            if (d.accepted || d.retry_never)
                continue;
            const Tick wait = d.retry_after->num();
            REQUIRE(wait >= 1);
            CHECK(limiter->clone()->decide(r.key, r.tick + wait, r.cost).accepted);
            CHECK_FALSE(limiter->clone()->decide(r.key, r.tick + wait - 1, r.cost).accepted);
        }
        CHECK(simulate_reference(trace, params)->runs.front().decisions == run.decisions);
    }
}

TEST_CASE("concurrency: an edit of one request's duration alone is decided again") {
    // Long enough for the run after the edit to resume from a checkpoint: one request a tick,
    // room for two, each for a tick. Request 15,000 then holds for 1,000 ticks, and every other
    // one of the next thousand finds no room; the tick, cost and key of every request are equal.
    TraceBuilder builder;
    for (Tick t = 0; t < 20'000; ++t)
        builder.add(t, 1, {}, t == 15'000 ? 0 : 1);
    const auto before = std::make_shared<const Trace>(std::move(builder).take());
    Params params = test::limits(4, 10);
    params.lanes = {concurrency(1, 1)};
    const auto result = simulate(before, params);
    CHECK(result->runs.front().totals.rejected == 0);
    Trace edited = *before;
    edited.set_duration(15'000, 1'000);
    const auto after = std::make_shared<const Trace>(std::move(edited));
    const auto again = resimulate(*result, after);
    CHECK(again->runs.front().requests_decided < after->requests.size());
    CHECK(again->runs.front().totals.rejected == 999);
    CHECK(again->runs.front().decisions == simulate(after, params)->runs.front().decisions);
}

TEST_CASE("concurrency: a lane one adds, never a default lane") {
    const Registry& registry = Registry::instance();
    REQUIRE(registry.find("concurrency") != nullptr);
    for (const AlgorithmInfo* info : registry.all())
        CHECK(info->id != "concurrency");
    for (const Lane& lane : default_lanes())
        CHECK(lane.algorithm != "concurrency");
    REQUIRE(registry.opt_in().size() == 1);
    CHECK(registry.opt_in().front()->id == "concurrency");
    CHECK_FALSE(registry.opt_in().front()->is_preset());
}
