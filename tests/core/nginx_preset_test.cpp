// nginx_limit_req: each quirk of ngx_http_limit_req_module (nginx 1.22.1), worked out by hand
// from the lines core/src/algorithms/nginx_limit_req.cpp cites, with the decision, the release
// and the delay nginx gives. .ci/conformance checks the same preset against nginx itself.
#include <optional>
#include <string>
#include <vector>

#include "catch.h"
#include "ratelab/registry.h"
#include "ratelab/responses.h"
#include "ratelab/simulation.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::make_trace;
using ratelab::test::Req;

namespace {

/// One expected decision: accepted and let through after `delay` ticks, or rejected with a
/// retry-after in ticks.
struct Expect {
    bool accepted;
    Rational value;  // the delay when accepted, else the retry-after

    static Expect now() { return {true, Rational(0)}; }
    static Expect after(Rational delay) { return {true, delay}; }
    static Expect no(Rational retry) { return {false, retry}; }
};

struct Run {
    std::shared_ptr<const SimulationResult> result;
    std::vector<Decision> decisions;
};

Run run(ParamValues values, std::int64_t tick_ms, std::initializer_list<Req> requests) {
    Params params;
    params.lanes = {Lane{"nginx_limit_req", std::move(values), {}, false}};
    set_tick_ms(params, tick_ms);
    const auto trace = make_trace(requests);
    Run out{simulate(trace, params), {}};
    for (std::size_t i = 0; i < trace->requests.size(); ++i)
        out.decisions.push_back(out.result->runs.front().decision(*trace, i));
    return out;
}

void check(const Run& got, const std::vector<Expect>& expected) {
    REQUIRE(got.decisions.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("request " << i);
        const Decision& d = got.decisions[i];
        CHECK(d.accepted == expected[i].accepted);
        if (expected[i].accepted) {
            REQUIRE(d.delay);
            CHECK(d.delay->to_string() == expected[i].value.to_string());
        } else {
            CHECK_FALSE(d.retry_never);
            REQUIRE(d.retry_after);
            CHECK(d.retry_after->to_string() == expected[i].value.to_string());
        }
    }
}

ParamValue whole(std::int64_t v) {
    return Rational(v);
}

}  // namespace

TEST_CASE("nginx_limit_req: declares the issue's parameters with nginx's defaults") {
    const AlgorithmInfo* info = Registry::instance().find("nginx_limit_req");
    REQUIRE(info != nullptr);
    CHECK(info->is_preset());
    CHECK(info->releases);
    CHECK(info->library_version == "1.22.1");
    Limits limits;
    limits.limit = 30;
    limits.window = 60;
    limits.tick_ms = 1000;  // 30 per minute
    const ParamValues values = resolved_params(*info, limits);
    CHECK(values.at("rate") == ParamValue(Rational(1, 2)));
    CHECK(values.at("burst") == ParamValue(Rational(0)));
    CHECK(values.at("nodelay") == ParamValue(false));
    CHECK(values.at("delay") == ParamValue(Rational(0)));
    CHECK(values.at("status") == ParamValue(Rational(503)));
}

TEST_CASE("nginx_limit_req: burst and delay count requests, as nginx does, not cost units") {
    const AlgorithmInfo* info = Registry::instance().find("nginx_limit_req");
    REQUIRE(info != nullptr);
    for (const ParameterInfo& parameter : info->parameters) {
        INFO(parameter.id);
        if (parameter.id == "burst" || parameter.id == "delay")
            CHECK(unit_name(parameter.unit) == "requests");
    }
    // A request of cost 5 is one request to nginx: with burst 1, two pass at once.
    TraceBuilder builder;
    builder.add(0, 5);
    builder.add(0, 5);
    builder.add(0, 5);
    Params params;
    params.base = Limits{1, 60, {}};
    params.lanes = {Lane{"nginx_limit_req", {{"burst", Rational(1)}, {"nodelay", true}}, {}, false}};
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    CHECK(result->runs.front().totals.accepted == 2);
}

TEST_CASE("nginx_limit_req: a fresh key lets burst + 1 through at once with nodelay") {
    // The first request makes the node with excess 0 (lookup, 486-524), not 1: four pass at
    // tick 0 with burst 3. The fifth would have excess 4.000 > 3.000, and passes once
    // 1000 ms have drained one request: retry 1000 ticks of 1 ms.
    const ParamValues p{{"rate", whole(1)}, {"burst", whole(3)}, {"nodelay", true}};
    check(run(p, 1, {{0}, {0}, {0}, {0}, {0}}),
          {Expect::now(), Expect::now(), Expect::now(), Expect::now(), Expect::no(1000)});
    // Without burst, only the first: the second's excess 1.000 is above 0.
    check(run({{"rate", whole(1)}}, 1, {{0}, {0}}), {Expect::now(), Expect::no(1000)});
}

TEST_CASE("nginx_limit_req: the rate is milli-requests in integers, so 7r/m is 0.116 r/s") {
    // rate * 1000 / 60 = 116 (939). With burst 0 a request passes again once
    // 116 * ms / 1000 >= 1000, from ms = 8621, where an exact 7/60 r/s would need 8572 ms.
    // The refused one at 8620 moves nothing (462-464): it counts from 0 still.
    const ParamValues p{{"rate", ParamValue(Rational(7, 60))}, {"nodelay", true}};
    check(run(p, 1, {{0}, {8572}, {8620}, {8621}}),
          {Expect::now(), Expect::no(49), Expect::no(1), Expect::now()});
}

TEST_CASE("nginx_limit_req: each drain truncates to whole milli-requests, and the rest is lost") {
    // 1/2 r/s is 500 milli-requests a second; a request 1 ms after the last drains
    // 500 * 1 / 1000 = 0, yet moves `last` (469-471): the half milli-request is gone. Ten
    // requests 1 ms apart fill burst 9 exactly, with excess 0, 1.000, ..., 9.000; the
    // eleventh is refused at 10.000. From excess 9.000 at tick 9, 1.000 drains in 2000 ms:
    // the next passes at tick 2009, where an exact drain (8.9955 left at tick 9) would have
    // let it through at tick 2000.
    const ParamValues p{
        {"rate", ParamValue(Rational(1, 2))}, {"burst", whole(9)}, {"nodelay", true}};
    const Run got =
        run(p, 1, {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {2008}, {2009}});
    std::vector<Expect> expected(10, Expect::now());
    expected.push_back(Expect::no(1999));
    expected.push_back(Expect::no(1));
    expected.push_back(Expect::now());
    check(got, expected);
}

TEST_CASE("nginx_limit_req: without nodelay, excess waits (excess - delay) / rate, truncated") {
    // 3 r/s, burst 3, at tick 0: excess 0 goes at once; 1.000 waits 1000 * 1000 / 3000 =
    // 333 ms (not 333 1/3), 2.000 waits 666, 3.000 waits 1000; 4.000 is refused. At 500 ms
    // the excess is 3000 - 3000 * 500 / 1000 + 1000 = 2500, which waits 833 ms: the delayed
    // requests count from their arrival, not their release (account, 545-553).
    const ParamValues p{{"rate", whole(3)}, {"burst", whole(3)}};
    const Run got = run(p, 1, {{0}, {0}, {0}, {0}, {0}, {500}});
    check(got, {Expect::now(), Expect::after(333), Expect::after(666), Expect::after(1000),
                Expect::no(334), Expect::after(833)});
    REQUIRE(got.decisions[5].release);
    CHECK(*got.decisions[5].release == Rational(1333));
    // With ticks of 100 ms, a release may fall between ticks: 333 ms is 333/100 ticks.
    const Run coarse = run(p, 100, {{0}, {0}});
    REQUIRE(coarse.decisions[1].delay);
    CHECK(*coarse.decisions[1].delay == Rational(333, 100));
}

TEST_CASE("nginx_limit_req: delay=N lets the first N excess requests through undelayed") {
    // 1 r/s, burst 4, delay 2: excess 0, 1.000 and 2.000 go at once; 3.000 waits
    // (3000 - 2000) * 1000 / 1000 = 1000 ms, 4.000 waits 2000 ms; 5.000 is refused.
    const ParamValues p{{"rate", whole(1)}, {"burst", whole(4)}, {"delay", whole(2)}};
    check(run(p, 1, {{0}, {0}, {0}, {0}, {0}, {0}}),
          {Expect::now(), Expect::now(), Expect::now(), Expect::after(1000), Expect::after(2000),
           Expect::no(1000)});
    // nodelay wins over delay: nothing waits.
    ParamValues no_wait = p;
    no_wait["nodelay"] = true;
    check(run(no_wait, 1, {{0}, {0}, {0}, {0}, {0}, {0}}),
          {Expect::now(), Expect::now(), Expect::now(), Expect::now(), Expect::now(),
           Expect::no(1000)});
}

TEST_CASE("nginx_limit_req: every request is one, whatever its cost, and keys are apart") {
    const ParamValues p{{"rate", whole(1)}, {"burst", whole(1)}, {"nodelay", true}};
    check(run(p, 1, {{0, 50}, {0, 50}, {0, 1, "b"}, {0, 7, "b"}, {0, 1}}),
          {Expect::now(), Expect::now(), Expect::now(), Expect::now(), Expect::no(1000)});
}

TEST_CASE("nginx_limit_req: milliseconds come from ticks of tick_ms") {
    // Ticks of 100 ms, 1 r/s, burst 0: 900 ms after the first the excess is
    // 0 - 900 + 1000 = 0.100 > 0, refused for one more tick; at 1000 ms it is 0.
    check(run({{"rate", whole(1)}, {"nodelay", true}}, 100, {{0}, {9}, {10}}),
          {Expect::now(), Expect::no(1), Expect::now()});
}

TEST_CASE("nginx_limit_req: a rejection answers limit_req_status, 503 by default") {
    const auto trace = make_trace({{0}, {0}});
    Params params;
    params.lanes = {
        Lane{"nginx_limit_req", {{"rate", whole(1)}}, {}, false},
        Lane{"nginx_limit_req", {{"rate", whole(1)}, {"status", whole(429)}}, {}, false},
        Lane{"token_bucket", {}, {}, false}};
    const auto result = simulate(trace, params);
    const std::vector<int> rejected{503, 429, 200};  // the token bucket holds L = 4
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        INFO("lane " << lane);
        const std::vector<Response> responses = lane_responses(*result, lane);
        REQUIRE(responses.size() == 2);
        CHECK(responses[0].status == 200);
        CHECK(responses[1].status == rejected[lane]);
    }
    CHECK(http_text(lane_responses(*result, 0)[1], HeaderStyle::ietf)
              .starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
}

TEST_CASE("nginx_limit_req: explains its inequality and shows its excess") {
    const Run got = run({{"rate", whole(2)}, {"burst", whole(1)}}, 1, {{0}, {100}, {100}});
    const SimulationResult& result = *got.result;
    CHECK(explain(result, 0, 0).check == "new node: excess 0.000 <= burst 1.000");
    // 0 - 2000 * 100 / 1000 + 1000 = 800, delayed 800 * 1000 / 2000 = 400 ms.
    CHECK(explain(result, 0, 1).check ==
          "excess 0.000 - 2000 x 100 ms / 1000 + 1.000 = 0.800 <= burst 1.000, delayed 400 ms");
    CHECK(explain(result, 0, 2).check ==
          "excess 0.800 - 2000 x 0 ms / 1000 + 1.000 = 1.800 > burst 1.000");
    // 200 ms later 0.400 of it has drained.
    CHECK(state_at(result, 0, 0, 300).summary == "excess 0.400 / burst 1, rate 2.000 r/s");
}
