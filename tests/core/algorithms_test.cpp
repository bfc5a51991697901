// Table-driven cases for every algorithm: boundaries, costs, idle gaps, same-tick requests, keys.
#include "catch.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

struct Case {
    const char* name;
    const char* algorithm;
    std::int64_t limit;
    Tick window;
    std::vector<Req> requests;
    const char* expected;  // one letter per request: A accepted, R rejected
};

std::shared_ptr<const Trace> build(const std::vector<Req>& requests) {
    TraceBuilder builder;
    for (const Req& r : requests)
        builder.add(r.tick, r.cost, r.key);
    return std::make_shared<const Trace>(std::move(builder).take());
}

}  // namespace

TEST_CASE("each algorithm decides the classic cases as specified") {
    const std::vector<Case> cases = {
        // fixed_window: windows [kW, (k+1)W) aligned at 0.
        {"fixed: the boundary tick opens a new window",
         "fixed_window",
         2,
         10,
         {{0}, {1}, {9}, {10}, {11}},
         "AARAA"},
        {"fixed: costs add up", "fixed_window", 4, 10, {{0, 3}, {1, 2}, {2, 1}}, "ARA"},
        {"fixed: cost above L never fits", "fixed_window", 2, 10, {{0, 3}, {1, 2}}, "RA"},
        {"fixed: many on one tick", "fixed_window", 3, 10, {{5}, {5}, {5}, {5}, {5}}, "AAARR"},
        {"fixed: long idle gap", "fixed_window", 1, 10, {{0}, {1}, {999'999'999}}, "ARA"},
        // sliding_log: a unit exactly W old is gone.
        {"log: exactly W old is forgotten", "sliding_log", 1, 10, {{0}, {9}, {10}}, "ARA"},
        {"log: costs are units", "sliding_log", 3, 10, {{0, 2}, {5, 2}, {5, 1}, {10, 2}}, "ARAA"},
        {"log: many on one tick", "sliding_log", 2, 5, {{3}, {3}, {3}, {8}, {8}, {8}}, "AARAAR"},
        {"log: long idle gap", "sliding_log", 2, 10, {{0}, {0}, {0}, {1'000'000}}, "AARA"},
        // sliding_counter: prev*(W-e) + (curr+cost)*W <= L*W.
        {"counter: previous window counts fully at its boundary",
         "sliding_counter",
         2,
         10,
         {{0}, {1}, {10}, {15}},
         "AARA"},
        {"counter: costs", "sliding_counter", 4, 10, {{0, 4}, {12, 1}, {16, 2}}, "ARA"},
        {"counter: cost 4 fits L 4 when empty", "sliding_counter", 4, 10, {{0, 4}, {5, 1}}, "AR"},
        {"counter: idle gap forgets both windows",
         "sliding_counter",
         1,
         10,
         {{9}, {10}, {35}},
         "ARA"},
        // token_bucket: starts full, refills L per W.
        {"bucket: idle then burst of capacity",
         "token_bucket",
         4,
         10,
         {{100}, {100}, {100}, {100}, {100}, {100}},
         "AAAARR"},
        {"bucket: refill is exact", "token_bucket", 1, 10, {{0}, {9}, {10}, {20}}, "ARAA"},
        {"bucket: a cost spends several tokens",
         "token_bucket",
         4,
         10,
         {{0, 3}, {0, 2}, {5, 2}},
         "ARA"},
        // leaky_bucket: the queue holds units not yet started.
        {"leaky: queue of L", "leaky_bucket", 2, 10, {{0}, {0}, {0}, {0}}, "AAAR"},
        {"leaky: costs fill the queue",
         "leaky_bucket",
         4,
         4,
         {{0, 3}, {0, 2}, {0, 1}, {1, 2}},
         "AARR"},
        // gcra
        {"gcra: burst then paced", "gcra", 2, 10, {{0}, {0}, {0}, {5}, {10}}, "AARAA"},
        {"gcra: cost above the burst never fits", "gcra", 2, 10, {{0, 3}, {0, 2}}, "RA"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const AlgorithmRun run = run_one(c.algorithm, build(c.requests), limits(c.limit, c.window));
        CHECK(pattern(run) == c.expected);
    }
}

TEST_CASE("retry-after is exact, and 'never' when the cost can never fit") {
    SECTION("fixed window waits for the next window") {
        const auto run = run_one("fixed_window", ticks({0, 0, 3}), limits(2, 10));
        CHECK(run.decision(*ticks({0, 0, 3}), 2).retry_after == Rational(7));
    }
    SECTION("sliding log waits until enough units expire") {
        auto trace = make_trace({{0}, {1}, {2}, {3, 2}});
        const auto run = run_one("sliding_log", trace, limits(3, 10));
        // Two units must go: those of ticks 0 and 1, so the wait ends at 1 + 10.
        CHECK(run.decision(*trace, 3).retry_after == Rational(8));
    }
    SECTION("sliding counter can wait into the next window") {
        auto trace = ticks({0, 0, 5});
        const auto run = run_one("sliding_counter", trace, limits(2, 10));
        // At 15 the estimate is 2 x 0.5 + 0 + 1 = 2 <= 2.
        CHECK(run.decision(*trace, 2).retry_after == Rational(10));
    }
    SECTION("token bucket: (cost - tokens) / rate") {
        auto trace = make_trace({{0, 4}, {1, 2}});
        const auto run = run_one("token_bucket", trace, limits(4, 10));
        CHECK(run.decision(*trace, 1).retry_after ==
              Rational(4));  // 0.4 held, 1.6 missing at 0.4/tick
    }
    for (const char* id : {"fixed_window", "sliding_log", "sliding_counter", "token_bucket",
                           "leaky_bucket", "gcra"}) {
        INFO(id);
        auto trace = make_trace({{0, 5}});
        const auto run = run_one(id, trace, limits(4, 10));
        const Decision d = run.decision(*trace, 0);
        CHECK_FALSE(d.accepted);
        CHECK(d.retry_never);
        CHECK_FALSE(d.retry_after);
    }
}

TEST_CASE("every key has its own state, and a key may have its own tier") {
    auto trace =
        make_trace({{0, 1, "alice"}, {0, 1, "bob"}, {1, 1, "alice"}, {1, 1, "bob"}, {2, 1, "bob"}});
    Params params = limits(1, 10);
    params.keys["bob"] = Limits{2, 10, {}};
    for (const char* id :
         {"fixed_window", "sliding_log", "sliding_counter", "token_bucket", "gcra"}) {
        INFO(id);
        CHECK(pattern(run_one(id, trace, params)) == "AARAR");
    }
    CHECK(pattern(run_one("leaky_bucket", trace, params)) == "AAAAA");  // queues of 1 and 2 drain
}

TEST_CASE("overrides replace the defaults derived from L and W") {
    Params params = limits(4, 10);
    params.base.set_override("token_bucket", "capacity", Rational(2));
    params.base.set_override("token_bucket", "refill_rate", Rational(1, 5));
    auto trace = ticks({0, 0, 0, 5});
    const auto bucket = run_one("token_bucket", trace, params);
    CHECK(pattern(bucket) == "AARA");
    CHECK(bucket.decision(*trace, 2).retry_after == Rational(5));

    params.base.set_override("gcra", "burst", Rational(2));
    params.base.set_override("gcra", "emission_interval", Rational(5));
    CHECK(pattern(run_one("gcra", trace, params)) == "AARA");

    params.base.set_override("leaky_bucket", "queue_size", Rational(1));
    params.base.set_override("leaky_bucket", "drain_interval", Rational(3, 2));
    const auto leaky = run_one("leaky_bucket", ticks({0, 0, 1, 2}), params);
    CHECK(pattern(leaky) == "AARA");
    CHECK(leaky.decision(*ticks({0, 0, 1, 2}), 1).release == Rational(3, 2));
    CHECK(leaky.decision(*ticks({0, 0, 1, 2}), 3).release == Rational(3));
}

TEST_CASE("counting rejections keeps a hammering client locked out") {
    TraceBuilder builder;
    for (Tick t = 0; t <= 40; ++t)
        builder.add(t);
    auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params = limits(2, 10);
    CHECK(run_one("sliding_log", trace, params).totals.accepted == 9);  // 2 per 10 ticks
    params.rejections_count = true;
    CHECK(run_one("sliding_log", trace, params).totals.accepted == 2);  // never recovers
    CHECK(run_one("sliding_counter", trace, params).totals.accepted == 2);
    // The fixed window forgets at every boundary, so it lets 2 through per window either way.
    CHECK(run_one("fixed_window", trace, params).totals.accepted == 9);
    // Buckets ignore the option: it is about window counters.
    CHECK(run_one("token_bucket", trace, params).totals.accepted ==
          run_one("token_bucket", trace, limits(2, 10)).totals.accepted);
}

TEST_CASE("a token bucket with a rate of 1/10 never drifts") {
    // With floats, adding 0.1 ten times leaves 0.9999999 tokens and wrongly rejects.
    TraceBuilder builder;
    for (Tick t = 0; t <= 10'000; t += 10)
        builder.add(t);
    const auto run = run_one(
        "token_bucket", std::make_shared<const Trace>(std::move(builder).take()), limits(1, 10));
    CHECK(run.totals.rejected == 0);
    CHECK(run.totals.accepted == 1001);
}

TEST_CASE("invalid parameters and traces are refused with a reason") {
    CHECK_THROWS_WITH(simulate(ticks({0}), limits(0, 10)), contains("limit"));
    CHECK_THROWS_WITH(simulate(ticks({0}), limits(4, 0)), contains("window"));
    CHECK_THROWS_WITH(simulate(ticks({5, 3}), limits(4, 10)), contains("before the previous"));
    CHECK_THROWS_WITH(simulate(ticks({0}), limits(4, 10), {"no_such"}),
                      contains("unknown algorithm"));
    Params params = limits(4, 10);
    params.base.set_override("token_bucket", "refill_rate", Rational(0));
    CHECK_THROWS_WITH(simulate(ticks({0}), params), contains("refill_rate"));
}

TEST_CASE("the registry lists the six algorithms in display order") {
    CHECK(Registry::instance().ids() == std::vector<std::string>{"fixed_window", "sliding_log",
                                                                 "sliding_counter", "token_bucket",
                                                                 "leaky_bucket", "gcra"});
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        CHECK_FALSE(info->name.empty());
        CHECK_FALSE(info->summary.empty());
        CHECK(info->make()->id() == info->id);
    }
}
