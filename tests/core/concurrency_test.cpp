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

}  // namespace

TEST_CASE("concurrency: never more than max_in_flight units in flight") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 50; ++n) {
        const std::uint64_t seed = seed0 + n;
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED)");
        std::mt19937_64 rng(seed);
        auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
            return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
        };
        const std::int64_t max_in_flight = pick(1, 10);
        const Tick duration = pick(1, 20);
        TraceBuilder builder;
        Tick tick = 0;
        for (int i = 0; i < 200; ++i) {
            tick += pick(0, 2) == 0 ? pick(0, 10) : 0;
            builder.add(tick, static_cast<std::uint32_t>(pick(1, 4)));
        }
        const auto trace = std::make_shared<const Trace>(std::move(builder).take());
        Params params = test::limits(4, 10);
        params.lanes = {concurrency(max_in_flight, duration)};
        const auto result = simulate(trace, params);
        const AlgorithmRun& run = result->runs.front();
        // Counted afresh from the accepted requests, tick by tick.
        const Tick last = trace->requests.back().tick + duration;
        std::vector<std::int64_t> in_flight(static_cast<std::size_t>(last + 1), 0);
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            const Request& r = trace->requests[i];
            if (!run.accepted(i))
                continue;
            for (Tick t = r.tick; t < r.tick + duration; ++t)
                in_flight[static_cast<std::size_t>(t)] += r.cost;
        }
        for (std::size_t t = 0; t < in_flight.size(); ++t) {
            INFO("tick " << t);
            CHECK(in_flight[t] <= max_in_flight);
        }
        // A rejection's retry-after is exact: the same request then fits, one tick earlier not.
        const auto limiter = make_limiter(*trace, params, params.lanes.front());
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            const Request& r = trace->requests[i];
            const Decision d = limiter->decide(0, r.tick, r.cost);
            CHECK(d == run.decision(*trace, i));
            if (d.accepted || d.retry_never)
                continue;
            const Tick wait = d.retry_after->num();
            REQUIRE(wait >= 1);
            CHECK(limiter->clone()->decide(0, r.tick + wait, r.cost).accepted);
            CHECK_FALSE(limiter->clone()->decide(0, r.tick + wait - 1, r.cost).accepted);
        }
        CHECK(simulate_reference(trace, params)->runs.front().decisions == run.decisions);
    }
}

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
    CHECK(state_at(*result, 0, 0, 5).summary == "in flight 3 / 3, each for 5 ticks");
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
