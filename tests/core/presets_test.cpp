// Library presets: each quirk of each library, worked out by hand from the library's source
// (cited in the preset's file), as a table of requests and the decision and retry-after the
// library gives. .ci/conformance checks the same presets against the libraries themselves.
#include <optional>
#include <string>
#include <vector>

#include "catch.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::make_trace;
using ratelab::test::Req;

namespace {

/// One expected decision: accepted, or rejected with a retry-after in ticks (nothing: never).
struct Expect {
    bool accepted;
    std::optional<Rational> retry = std::nullopt;

    static Expect ok() { return {true}; }
    static Expect no(Rational retry) { return {false, retry}; }
    static Expect never() { return {false}; }
};

/// The decisions of one lane of `preset` with `values` over `requests`, one tick being tick_ms.
std::vector<Decision> decide(const std::string& preset, ParamValues values, std::int64_t tick_ms,
                             std::initializer_list<Req> requests) {
    Params params;
    params.lanes = {Lane{preset, std::move(values), {}, false}};
    set_tick_ms(params, tick_ms);
    const auto trace = make_trace(requests);
    const auto result = simulate(trace, params);
    std::vector<Decision> out;
    for (std::size_t i = 0; i < trace->requests.size(); ++i) {
        out.push_back(result->runs.front().decision(*trace, i));
    }
    return out;
}

void check(const std::vector<Decision>& got, const std::vector<Expect>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("request " << i);
        CHECK(got[i].accepted == expected[i].accepted);
        if (expected[i].accepted)
            continue;
        CHECK(got[i].retry_never == !expected[i].retry.has_value());
        if (expected[i].retry) {
            REQUIRE(got[i].retry_after);
            CHECK(got[i].retry_after->to_string() == expected[i].retry->to_string());
        }
    }
}

ParamValue whole(std::int64_t v) {
    return Rational(v);
}

}  // namespace

TEST_CASE("presets are registered apart, with their library and version, and are no default lane") {
    const auto presets = Registry::instance().presets();
    REQUIRE(presets.size() >= 7);
    for (const AlgorithmInfo* info : presets) {
        INFO(info->id);
        CHECK(info->is_preset());
        CHECK_FALSE(info->library.empty());
        CHECK_FALSE(info->library_version.empty());
        CHECK(Registry::instance().find(info->id) == info);
        for (const Lane& lane : default_lanes()) {
            CHECK(lane.algorithm != info->id);
        }
    }
    CHECK(default_lanes().size() == 6);
    CHECK(Registry::instance().find("x_time_rate")->library_version == "v0.3.0");
    CHECK(Registry::instance().find("python_limits_fixed")->library_version == "2.8.0");
}

TEST_CASE("preset parameters default from L and W in the library's units, through tick_ms") {
    Limits limits;
    limits.limit = 5;
    limits.window = 20;
    limits.tick_ms = 100;  // W = 2 s
    const auto values = [&](const char* id) {
        return resolved_params(*Registry::instance().find(id), limits);
    };
    CHECK(values("python_limits_fixed").at("window") == ParamValue(Rational(2)));
    CHECK(values("express_rate_limit").at("window_ms") == ParamValue(Rational(2000)));
    CHECK(values("x_time_rate").at("limit") == ParamValue(Rational(5, 2)));  // 5 per 2 s
    CHECK(values("seed_redis_lua").at("capacity") == ParamValue(Rational(5)));
}

TEST_CASE("python_limits_fixed: the window starts at the first hit and rejected hits count") {
    const ParamValues p{{"amount", whole(2)}, {"window", whole(10)}};
    // Window [3 s, 13 s) from the first hit; the rejection at 5 counts, and so does the one at
    // 12; at 13 the expiry (13 <= 13) drops the key.
    check(decide("python_limits_fixed", p, 1000, {{3}, {4}, {5}, {12}, {13}}),
          {Expect::ok(), Expect::ok(), Expect::no(8), Expect::no(1), Expect::ok()});
    // A hit costing more than amount is refused for good, yet it starts the window and fills it.
    check(decide("python_limits_fixed", p, 1000, {{0, 3}, {5}, {10}}),
          {Expect::never(), Expect::no(5), Expect::ok()});
}

TEST_CASE("python_limits_fixed: the expiry is a float sum, so it can land just after now") {
    // 0.137 + 4 is 4.1370000000000005 in doubles, above 4137 / 1000 = 4.137: at 4137 ms the
    // window has not ended yet, one millisecond later it has. The stored expiry is 5e-13 s
    // ahead of now, which is a retry-after of 0 ticks.
    const ParamValues p{{"amount", whole(1)}, {"window", whole(4)}};
    check(decide("python_limits_fixed", p, 1, {{137}, {4137}, {4138}}),
          {Expect::ok(), Expect::no(0), Expect::ok()});
}

TEST_CASE("python_limits_moving: an entry exactly one window old still counts") {
    const ParamValues p{{"amount", whole(2)}, {"window", whole(10)}};
    // At 10, events[0] is the entry of 0, and 0 >= 10 - 10. At 11 it is outside. The reset the
    // library reports is int(newest entry inside) + window: 0 + 10, minus now, so 0.
    check(decide("python_limits_moving", p, 1000, {{0}, {0}, {10}, {11}}),
          {Expect::ok(), Expect::ok(), Expect::no(0), Expect::ok()});
    // The reset it reports follows the newest entry (5 + 10 - 6 = 9), although the request
    // would pass as soon as the entry of 0 leaves the window.
    check(decide("python_limits_moving", p, 1000, {{0}, {5}, {6}}),
          {Expect::ok(), Expect::ok(), Expect::no(9)});
}

TEST_CASE("python_limits_moving: a cost above amount reads the list from its oldest end") {
    const ParamValues p{{"amount", whole(2)}, {"window", whole(10)}};
    // Cost 3 on a fresh key: events[-1] does not exist, so it passes and stores 3 entries. Then
    // cost 1 tests events[1] (inside): rejected; cost 3 tests events[-1], the oldest (inside):
    // rejected; at 11 that oldest entry is out of the window and cost 3 passes again.
    check(decide("python_limits_moving", p, 1000, {{0, 3}, {1}, {2, 3}, {11, 3}}),
          {Expect::ok(), Expect::no(9), Expect::no(8), Expect::ok()});
}

TEST_CASE("x_time_rate: starts full, a rejection changes nothing, waits truncate to ns") {
    const ParamValues half{{"limit", ParamValue(Rational(1, 2))}, {"burst", whole(2)}};
    // Full at the start (burst 2); the third needs one token at 1/2 per second: 2 s. At 2 s it
    // passes, as the rejected call left the tokens alone. A cost above burst never passes.
    check(decide("x_time_rate", half, 1000, {{0}, {0}, {0}, {2}, {2, 3}}),
          {Expect::ok(), Expect::ok(), Expect::no(2), Expect::ok(), Expect::never()});
    // 3 per second, burst 1: after 100 ms the bucket holds 0.30000000000000004 tokens; the
    // wait for the rest is 1e9 * (0.7 / 3) ns = 233333333.33 ns, truncated to 233333333 ns.
    const ParamValues three{{"limit", ParamValue(Rational(3))}, {"burst", whole(1)}};
    check(decide("x_time_rate", three, 1, {{0}, {100}}),
          {Expect::ok(), Expect::no(Rational(233333333, 1000000))});
}

TEST_CASE("x_time_rate: max_wait reserves, waits up to it, and cancels beyond it") {
    // 2 per second, burst 1, max_wait 1 s, ticks of 1 ms. Full: the first goes at once; the
    // next two reserve into debt, waiting 500 ms and 1000 ms; the fourth would wait 1.5 s, is
    // cancelled (its token given back) and told 1.5 s - 1 s. At 600 ms the debt of 2 has shrunk
    // to 0.8: wait 0.9 s, accepted; the next would wait 1.4 s and is told 0.4 s.
    const ParamValues p{
        {"limit", whole(2)}, {"burst", whole(1)}, {"max_wait", ParamValue(Rational(1))}};
    const std::vector<Decision> got =
        decide("x_time_rate", p, 1, {{0}, {0}, {0}, {0}, {600}, {600}, {600, 2}});
    check(got, {Expect::ok(), Expect::ok(), Expect::ok(), Expect::no(500), Expect::ok(),
                Expect::no(400), Expect::never()});
    const std::vector<Rational> delays{0, 500, 1000, 0, 900};
    for (const std::size_t i : {0, 1, 2, 4}) {
        INFO("request " << i);
        REQUIRE(got[i].delay);
        CHECK(*got[i].delay == delays[i]);
    }
    // Without max_wait it is AllowN: no debt, only the first passes at tick 0.
    check(decide("x_time_rate", {{"limit", whole(2)}, {"burst", whole(1)}}, 1, {{0}, {0}}),
          {Expect::ok(), Expect::no(500)});
}

TEST_CASE("express_rate_limit: every request is one hit, rejected too, Retry-After in seconds") {
    const ParamValues p{{"limit", whole(2)}, {"window_ms", whole(1500)}};
    // Window [0, 1500 ms) from the first request; the cost-5 request is one hit. At 1.2 s the
    // rejection says Retry-After ceil(0.3) = 1 s (10 ticks of 100 ms); at 1.5 s the window
    // starts over.
    check(decide("express_rate_limit", p, 100, {{0}, {5, 5}, {12}, {15}}),
          {Expect::ok(), Expect::ok(), Expect::no(10), Expect::ok()});
    // The rejected hit of 12 counted: at 14 the count is 4.
    check(decide("express_rate_limit", p, 100, {{0}, {1}, {12}, {14}}),
          {Expect::ok(), Expect::ok(), Expect::no(10), Expect::no(10)});
}

TEST_CASE("rate_limiter_flexible: rejected points count, msBeforeNext is the retry") {
    const ParamValues p{{"points", whole(3)}, {"duration", whole(1)}};
    // 2 + 2 = 4 > 3: rejected, 500 ms left; 4 + 1 = 5 > 3 at 900 ms: rejected, 100 ms left; the
    // record expires at 1000 ms and a new one starts. A cost of 4 can never pass.
    check(decide("rate_limiter_flexible", p, 100, {{0, 2}, {5, 2}, {9}, {10}, {11, 4}}),
          {Expect::ok(), Expect::no(5), Expect::no(1), Expect::ok(), Expect::never()});
}

TEST_CASE("npm_limiter: a new bucket starts empty and drips in floats") {
    const ParamValues p{
        {"bucket_size", whole(3)}, {"tokens_per_interval", whole(1)}, {"interval_ms", whole(1000)}};
    // Empty at the key's first request: getWaitTime says 1000 ms; half a token at 500 ms; 1.2
    // tokens at 1200 ms pay for one; a cost above bucket_size is refused for good.
    check(decide("npm_limiter", p, 100, {{0}, {5}, {12}, {12, 5}}),
          {Expect::no(10), Expect::no(5), Expect::ok(), Expect::never()});
}

TEST_CASE("seed_redis_lua: refills in float steps drift below a whole token") {
    const ParamValues p{{"capacity", whole(1)}, {"rate", ParamValue(Rational(1, 10))}};
    // Full at first. Then one call a second: each rejected call adds 0.1 and writes it back;
    // ten of them sum to 0.9999999999999999, so at 10 s the token is not there (on paper it
    // is), and the script asks for ceil(1e-16 / 0.1 * 1000) = 1 ms more. The waits on the way
    // round up too: (1 - 0.7) / 0.1 * 1000 is 3000.0000000000005, so 3001 ms.
    const Rational ms(1, 1000);
    check(decide("seed_redis_lua", p, 1000,
                 {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}}),
          {Expect::ok(), Expect::no(9), Expect::no(8), Expect::no(7), Expect::no(6), Expect::no(5),
           Expect::no(4), Expect::no(ms * Rational(3001)), Expect::no(ms * Rational(2001)),
           Expect::no(ms * Rational(1001)), Expect::no(ms), Expect::ok()});
}

TEST_CASE("seed_redis_lua: rejected calls write the bucket back, an idle key comes back full") {
    const ParamValues p{{"capacity", whole(2)}, {"rate", ParamValue(Rational(1))}};
    // The TTL is ceil(2 / 1 * 1000) = 2000 ms. Two at 0 empty the bucket, the third waits
    // 1000 ms; after 5 idle seconds the key has expired and starts full again.
    check(decide("seed_redis_lua", p, 1000, {{0}, {0}, {0}, {5}, {5}, {5}}),
          {Expect::ok(), Expect::ok(), Expect::no(1), Expect::ok(), Expect::ok(), Expect::no(1)});
}

TEST_CASE("guava_smooth_bursty: pay later, the next caller waits for what the last one lacked") {
    const ParamValues half{{"permits_per_second", ParamValue(Rational(1, 2))}};
    // A new limiter is empty, yet its first request passes and pushes the next free moment to
    // 2 s (one permit at 1/2 per second). At 2 s a cost of 3 passes too (the limiter is free),
    // and the caller after it waits 3 x 2 s = 6 s.
    check(decide("guava_smooth_bursty", half, 1000, {{0}, {0}, {1}, {2, 3}, {2}}),
          {Expect::ok(), Expect::no(2), Expect::no(1), Expect::ok(), Expect::no(6)});
}

TEST_CASE("guava_smooth_bursty: an idle limiter saves max_burst_seconds of permits, plus one") {
    const ParamValues two{{"permits_per_second", ParamValue(Rational(2))},
                          {"max_burst_seconds", ParamValue(Rational(1))}};
    // Idle from 0.5 s to 10 s it stores min(2, 19) = 2 permits: two requests spend them, a
    // third passes on credit (the limiter is free at 10 s) and the fourth waits 0.5 s.
    check(decide("guava_smooth_bursty", two, 1000, {{0}, {10}, {10}, {10}, {10}}),
          {Expect::ok(), Expect::ok(), Expect::ok(), Expect::ok(), Expect::no(Rational(1, 2))});
}

TEST_CASE("redis_cell: the library's own test table (src/cell/mod.rs:384-438 at v0.5.0)") {
    // max_burst 4 at 1 per second: the limit is 5. Case 12 of the table (cost 0, a peek that
    // stores nothing) has no counterpart, as a trace's costs are at least 1; the cases after it
    // do not depend on it. Retries are the reply's whole seconds.
    const ParamValues p{
        {"max_burst", whole(4)}, {"count_per_period", whole(1)}, {"period", whole(1)}};
    check(
        decide(
            "redis_cell", p, 100,
            {{0, 6}, {0}, {0}, {0}, {0}, {0}, {0}, {30}, {31}, {40}, {80}, {95}, {95, 2}, {95, 5}}),
        {Expect::never(), Expect::ok(), Expect::ok(), Expect::ok(), Expect::ok(), Expect::ok(),
         Expect::no(10), Expect::ok(), Expect::ok(), Expect::ok(), Expect::ok(), Expect::ok(),
         Expect::ok(), Expect::no(30)});
}

TEST_CASE("redis_cell: the reply rounds a wait up only when its milliseconds are above zero") {
    // 1000000 per 1000001 s: an emission interval of 1.000001 s, and max_burst 0. The second
    // request at 0 must wait 1.000001 s and is told 1 s; retrying at 1 s it is refused again
    // and told 0 s (1 us left); at 1.001 s it passes.
    const ParamValues p{{"max_burst", ParamValue(Rational(0))},
                        {"count_per_period", whole(1000000)},
                        {"period", whole(1000001)}};
    check(decide("redis_cell", p, 1, {{0}, {0}, {1000}, {1001}}),
          {Expect::ok(), Expect::no(1000), Expect::no(0), Expect::ok()});
}

TEST_CASE("envoy_local_ratelimit: whole batches on the timer's schedule, one token a request") {
    const ParamValues p{{"max_tokens", whole(3)},
                        {"tokens_per_fill", whole(2)},
                        {"fill_interval", ParamValue(Rational(1))}};
    // Full (3) at the start; the cost-5 request takes one token like any other. At 900 ms the
    // bucket is empty and the next fill is at 1000 ms: 100 ms to wait. The fill at 1000 ms adds
    // 2; at 1999 ms nothing more has come, however long the wait; the fill at 2000 ms adds 2.
    check(decide("envoy_local_ratelimit", p, 1,
                 {{0}, {0, 5}, {10}, {900}, {1000}, {1000}, {1999}, {2000}}),
          {Expect::ok(), Expect::ok(), Expect::ok(), Expect::no(100), Expect::ok(), Expect::ok(),
           Expect::no(1), Expect::ok()});
    // Idle for ten fills, the bucket holds max_tokens, not more.
    check(decide("envoy_local_ratelimit", p, 1000, {{0}, {10}, {10}, {10}, {10}}),
          {Expect::ok(), Expect::ok(), Expect::ok(), Expect::ok(), Expect::no(1)});
}

TEST_CASE("presets explain every decision as they made it, and show their state") {
    // Every preset at its defaults over one trace with two keys and costs above 1.
    Params params;
    params.base.limit = 3;
    params.base.window = 10;
    for (const AlgorithmInfo* info : Registry::instance().presets()) {
        params.lanes.push_back(Lane{info->id, {}, {}, false});
    }
    set_tick_ms(params, 100);
    const auto trace =
        make_trace({{0}, {0, 2}, {1, 1, "k"}, {3}, {3, 4}, {9}, {10}, {10, 2, "k"}, {25}, {40, 3}});
    const auto result = simulate(trace, params);
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        const AlgorithmRun& run = result->runs[lane];
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            INFO(run.id << " request " << i);
            const Explanation why = explain(*result, lane, i);
            CHECK(why.decision == run.decision(*trace, i));
            CHECK_FALSE(why.check.empty());
            CHECK_FALSE(why.state_before.empty());
        }
        CHECK_FALSE(state_at(*result, lane, 0, 12).summary.empty());
    }
    // Two worked out for the key "" by 0.9 s: limits' fixed window, [0 s, 1 s) from the first
    // hit, holds 1 + 2 + 1 + 4 + 1 = 9 hits (the rejected ones too); express-rate-limit counts
    // the 5 requests, not their cost.
    CHECK(state_at(*result, test::lane_of(*result, "python_limits_fixed"), 0, 9).summary ==
          "hits 9 / 3, window ends at 1.00 s");
    CHECK(state_at(*result, test::lane_of(*result, "express_rate_limit"), 0, 9).summary ==
          "hits 5 / 3, window ends at 1000 ms");
}
