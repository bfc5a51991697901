// The HTTP responses (ratelab/responses.h): on seeded random traces, for every algorithm and
// library preset, R and T mean what the headers promise, checked on fresh copies of the lane's
// limiter; and hand-worked cases with exact values. A failure prints the seed; set
// RATELAB_PROPERTY_SEED to replay one.
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"
#include "ratelab/responses.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;
using ratelab::test::every_lane;

namespace {

bool accepted_by_copy(const Limiter& limiter, Tick at, std::int64_t cost) {
    return limiter.clone()->decide(0, at, cost).accepted;
}

}  // namespace

TEST_CASE(
    "responses: a request of cost R passes and R + 1 does not, and cost Q passes after T ticks, "
    "not after T - 1") {
    const std::uint64_t seed0 = base_seed();
    const std::vector<Lane> lanes = every_lane();
    std::size_t probed = 0;
    std::size_t blind = 0;
    for (std::uint64_t n = 0; n < 12; ++n) {
        const std::uint64_t seed = seed0 + n;
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED)");
        std::mt19937_64 rng(seed);
        auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
            return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
        };
        Params params = test::limits(pick(1, 8), std::vector<Tick>{1, 3, 10, 25}[pick(0, 3)]);
        set_tick_ms(params, std::vector<std::int64_t>{1, 100, 1000}[pick(0, 2)]);
        TraceBuilder builder;
        Tick tick = 0;
        for (int i = 0; i < 40; ++i) {
            tick += pick(0, 3) == 0 ? pick(0, 20) : pick(0, 1);
            builder.add(tick, static_cast<std::uint32_t>(pick(1, 3)));
        }
        const Trace trace = std::move(builder).take();
        for (const Lane& lane : lanes) {
            INFO("lane " << lane.algorithm);
            const AlgorithmInfo& info = *Registry::instance().find(lane.algorithm);
            const Params lane_params = params_for_lane(params, lane);
            const Quota quota = quota_of(info, lane_params.base);
            const auto limiter = make_limiter(trace, params, lane);
            for (const Request& request : trace.requests) {
                INFO("request at tick " << request.tick << " of cost " << request.cost);
                limiter->decide(0, request.tick, request.cost);
                const std::int64_t r = remaining_cost(*limiter, 0, request.tick);
                if (bounds_cost(*limiter, 0, request.tick)) {
                    if (r >= 1)
                        CHECK(accepted_by_copy(*limiter, request.tick, r));
                    CHECK_FALSE(accepted_by_copy(*limiter, request.tick, r + 1));
                } else {
                    // A lane blind to cost: R requests of cost 1 pass, one more does not.
                    const auto probe = limiter->clone();
                    for (std::int64_t k = 0; k < r; ++k)
                        CHECK(probe->decide(0, request.tick, 1).accepted);
                    CHECK_FALSE(probe->decide(0, request.tick, 1).accepted);
                    ++blind;
                }
                const auto t = ticks_until_accepted(*limiter, 0, request.tick, quota.units);
                // Every lane accepts its quota at once when fresh, so it does again in time.
                REQUIRE(t);
                CHECK(accepted_by_copy(*limiter, request.tick + *t, quota.units));
                if (*t > 0)
                    CHECK_FALSE(accepted_by_copy(*limiter, request.tick + *t - 1, quota.units));
                ++probed;
            }
        }
    }
    CHECK(probed == 12 * 40 * lanes.size());
    // Some presets count requests whatever their cost: the other half of the check must run.
    CHECK(blind > 0);
}

TEST_CASE("responses: lane_responses() answers each decision as simulate() made it") {
    const auto trace = test::make_trace({{0, 2}, {0, 3, "b"}, {1, 1}, {1, 2, "b"}, {4, 4}, {9, 1}});
    Params params = test::limits(4, 10);
    params.keys["b"] = Limits{2, 5, {}, 1000};
    params.lanes = every_lane();
    const auto result = simulate(trace, params);
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        INFO("lane " << result->runs[lane].label);
        const std::vector<Response> responses = lane_responses(*result, lane);
        REQUIRE(responses.size() == trace->requests.size());
        for (std::size_t i = 0; i < responses.size(); ++i) {
            const Decision decision = result->runs[lane].decision(*trace, i);
            // nginx_limit_req answers its limit_req_status, 503 by default.
            const int rejected = result->runs[lane].id == "nginx_limit_req" ? 503 : 429;
            CHECK(responses[i].status == (decision.accepted ? 200 : rejected));
            CHECK(responses[i].retry_after_seconds.has_value() ==
                  (!decision.accepted && !decision.retry_never));
        }
    }
}

TEST_CASE("responses: response_to() answers one decision as lane_responses() does") {
    const auto trace = test::make_trace(
        {{0, 2}, {0, 3, "b"}, {1, 1}, {1, 2, "b"}, {4, 4}, {5, 1, "c"}, {9, 1}, {9, 2, "b"}});
    Params params = test::limits(4, 10);
    params.keys["b"] = Limits{2, 5, {}, 1000};
    params.lanes = every_lane();
    const auto result = simulate(trace, params);
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        INFO("lane " << result->runs[lane].label);
        const std::vector<Response> all = lane_responses(*result, lane);
        for (std::size_t i = 0; i < all.size(); ++i) {
            INFO("request " << i);
            CHECK(response_to(*result, lane, i) == all[i]);
        }
    }
    CHECK_THROWS_AS(response_to(*result, 0, trace->requests.size()), std::out_of_range);
}

TEST_CASE("responses: a token bucket's headers, worked out by hand") {
    // C = 4 tokens, 2/5 of a token per tick, ticks of 500 ms. At tick 0 a request of cost 3
    // leaves 1 token: R = 1. Cost Q = 4 needs 3 more tokens, 3 / (2/5) = 7.5 ticks: T = 8
    // ticks, TS = ceil(8 x 0.5 s) = 4 s. Then a request of cost 2 at tick 1 finds
    // 1 + 2/5 = 7/5 tokens and is refused; it would pass after (2 - 7/5) / (2/5) = 3/2 ticks:
    // Retry-After ceil(1.5 x 0.5 s) = 1 s.
    const auto trace = test::make_trace({{0, 3}, {1, 2}});
    Params params = test::limits(4, 10);
    set_tick_ms(params, 500);
    params.lanes = {Lane{"token_bucket", {}, {}, false}};
    const auto result = simulate(trace, params);
    const std::vector<Response> responses = lane_responses(*result, 0);
    REQUIRE(responses.size() == 2);
    CHECK(responses[0].status == 200);
    CHECK(responses[0].remaining == 1);
    CHECK(responses[0].reset_ticks == Tick{8});
    CHECK(responses[0].reset_seconds == std::int64_t{4});
    CHECK(header_fields(responses[0], HeaderStyle::ietf) ==
          std::vector<HeaderField>{{"RateLimit-Policy", "\"default\";q=4;w=5"},
                                   {"RateLimit", "\"default\";r=1;t=4"}});
    CHECK(responses[1].status == 429);
    CHECK(responses[1].retry_after_seconds == std::int64_t{1});
    // 7/5 tokens: a request of cost 1 would still pass.
    CHECK(responses[1].remaining == 1);
    // 4 - 7/5 = 13/5 tokens missing, 13/2 = 6.5 ticks: T = 7.
    CHECK(responses[1].reset_ticks == Tick{7});
    CHECK(http_text(responses[1], HeaderStyle::x_ratelimit) ==
          "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nX-RateLimit-Limit: 4\r\n"
          "X-RateLimit-Remaining: 1\r\nX-RateLimit-Reset: 4\r\n\r\n");
}

TEST_CASE("responses: a fixed window's headers, worked out by hand") {
    // L = 4 per 10 ticks of one second. Requests at ticks 3, 3, 3, 3 use the window [0, 10):
    // after the fourth R = 0 and T = 7 (the next window). A fifth at tick 4 is refused with
    // retry-after 6.
    const auto trace = test::ticks({3, 3, 3, 3, 4});
    Params params = test::limits(4, 10);
    params.lanes = {Lane{"fixed_window", {}, {}, false}};
    const auto result = simulate(trace, params);
    const std::vector<Response> responses = lane_responses(*result, 0);
    CHECK(responses[0].remaining == 3);
    CHECK(responses[0].reset_ticks == Tick{7});
    CHECK(responses[3].remaining == 0);
    CHECK(responses[3].reset_ticks == Tick{7});
    CHECK(responses[4].status == 429);
    CHECK(responses[4].retry_after_seconds == std::int64_t{6});
    CHECK(responses[4].reset_ticks == Tick{6});
    CHECK(header_fields(responses[4], HeaderStyle::ietf) ==
          std::vector<HeaderField>{{"Retry-After", "6"},
                                   {"RateLimit-Policy", "\"default\";q=4;w=10"},
                                   {"RateLimit", "\"default\";r=0;t=6"}});
}

TEST_CASE("responses: the quota is the lane's capacity, queue size or burst, else L") {
    Limits limits;
    limits.limit = 4;
    limits.window = 10;
    const Registry& registry = Registry::instance();
    CHECK(quota_of(*registry.find("fixed_window"), limits) == Quota{4, 10});
    limits.set_override("token_bucket", "capacity", Rational(9));
    CHECK(quota_of(*registry.find("token_bucket"), limits) == Quota{9, 10});
    limits.set_override("leaky_bucket", "queue_size", Rational(6));
    CHECK(quota_of(*registry.find("leaky_bucket"), limits) == Quota{6, 10});
    CHECK(quota_parameter(*registry.find("gcra")) == std::optional<std::string>("burst"));
    CHECK(ticks_to_seconds(Rational(3, 2), 500) == 1);
    CHECK(ticks_to_seconds(Rational(7, 4), 1000) == 2);
    CHECK(ticks_to_seconds(Rational(0), 1000) == 0);
}

TEST_CASE("responses: a reset at the far end of time is still found") {
    // A concurrency lane whose one request holds its unit for the longest duration there is:
    // the search over ticks must reach it, not stop short nor run past the bounds of time.
    const auto trace = test::ticks({0});
    Params params = test::limits(1, 10);
    params.lanes = {Lane{"concurrency", {{"duration", Rational(bounds::kMaxWindow)}}, {}, false}};
    const auto result = simulate(trace, params);
    const std::vector<Response> responses = lane_responses(*result, 0);
    CHECK(responses[0].remaining == 0);
    CHECK(responses[0].reset_ticks == Tick{bounds::kMaxWindow});
    CHECK(header_fields(responses[0], HeaderStyle::ietf).back() ==
          HeaderField{"RateLimit", "\"default\";r=0;t=" + std::to_string(bounds::kMaxWindow)});
}
