// Clients that retry (ratelab/clients.h): give_up is today's simulate(), the order of
// attempts, each policy's waits, seeded jitter, paced clients, and the intents' figures worked
// out by hand. Property tests print their seed; set RATELAB_PROPERTY_SEED to replay one.
#include <cstdlib>
#include <random>
#include <tuple>

#include "catch.h"
#include "ratelab/clients.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;
using ratelab::test::every_lane;

namespace {

ClientPolicy policy(std::string_view text) {
    auto parsed = parse_client_policy(text);
    INFO(text);
    REQUIRE(std::holds_alternative<ClientPolicy>(parsed));
    return std::get<ClientPolicy>(parsed);
}

ClientPolicies everyone(std::string_view text) {
    ClientPolicies policies;
    policies.base = policy(text);
    return policies;
}

/// A busy trace over two keys: bursts that every lane must refuse some of.
std::shared_ptr<const Trace> busy_trace(std::uint64_t seed, Params& params) {
    std::mt19937_64 rng(seed);
    auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    params = test::limits(pick(1, 6), std::vector<Tick>{2, 5, 10}[pick(0, 2)]);
    set_tick_ms(params, std::vector<std::int64_t>{100, 1000}[pick(0, 1)]);
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 60; ++i) {
        tick += pick(0, 5) == 0 ? pick(1, 15) : 0;
        builder.add(tick, static_cast<std::uint32_t>(pick(1, 2)), pick(0, 2) == 0 ? "b" : "");
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

}  // namespace

TEST_CASE("clients: give_up decides exactly as simulate() does, on every lane") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 5; ++n) {
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        Params params;
        const auto trace = busy_trace(seed0 + n, params);
        params.lanes = every_lane();
        const auto result = simulate(trace, params);
        for (std::size_t lane = 0; lane < params.lanes.size(); ++lane) {
            INFO("lane " << params.lanes[lane].algorithm);
            const ClientRun run = run_clients(*trace, params, params.lanes[lane], {});
            REQUIRE(run.attempts.size() == trace->requests.size());
            for (std::size_t i = 0; i < run.attempts.size(); ++i) {
                CHECK(run.attempts[i].intent == i);
                CHECK(run.attempts[i].attempt == 1);
                CHECK(run.attempts[i].decision == result->runs[lane].decision(*trace, i));
            }
            CHECK(run.intents.served == result->runs[lane].totals.accepted);
            CHECK(run.intents.abandoned == result->runs[lane].totals.rejected);
        }
    }
}

TEST_CASE("clients: attempts come in order of tick, intent and attempt, within their limits") {
    const std::uint64_t seed0 = base_seed();
    const std::vector<std::string> policies = {
        "immediate:max_attempts=4", "fixed:delay=3,deadline=7",
        "backoff:base=1,factor=2,cap=8,jitter=full,seed=5", "retry_after:spread=2,seed=9",
        "paced:max_attempts=3"};
    for (std::uint64_t n = 0; n < 3; ++n) {
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        Params params;
        const auto trace = busy_trace(seed0 + n, params);
        for (const std::string& text : policies) {
            const ClientPolicy client = policy(text);
            for (const Lane& lane : every_lane()) {
                INFO(text << " on " << lane.algorithm);
                const ClientRun run = run_clients(*trace, params, lane, everyone(text));
                std::vector<std::int64_t> made(trace->requests.size(), 0);
                std::vector<Tick> first(trace->requests.size(), 0);
                for (std::size_t a = 0; a < run.attempts.size(); ++a) {
                    const Attempt& at = run.attempts[a];
                    if (a > 0) {
                        const Attempt& before = run.attempts[a - 1];
                        CHECK(std::tie(before.tick, before.intent, before.attempt) <
                              std::tie(at.tick, at.intent, at.attempt));
                    }
                    CHECK(at.attempt == ++made[at.intent]);
                    CHECK(at.tick >= trace->requests[at.intent].tick);
                    if (at.attempt == 1)
                        first[at.intent] = at.tick;
                    else if (client.deadline)
                        CHECK(at.tick - first[at.intent] <= *client.deadline);
                    CHECK(at.attempt <= client.max_attempts);
                }
                for (const std::int64_t attempts : made)
                    CHECK(attempts >= 1);
                CHECK(run.intents.served + run.intents.abandoned ==
                      static_cast<std::int64_t>(trace->requests.size()));
            }
        }
    }
}

TEST_CASE("clients: retry_after never retries before its Retry-After, and alone it succeeds") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 4; ++n) {
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        Params params;
        const auto trace = busy_trace(seed0 + n, params);
        for (const AlgorithmInfo* info : Registry::instance().all()) {
            INFO("lane " << info->id);
            const ClientRun run = run_clients(*trace, params, Lane{info->id, {}, {}, false},
                                              everyone("retry_after:max_attempts=10"));
            // Where each intent's last attempt is, to find its retry.
            std::vector<std::optional<std::size_t>> last(trace->requests.size());
            for (std::size_t a = 0; a < run.attempts.size(); ++a) {
                const Attempt& at = run.attempts[a];
                if (const auto before = last[at.intent]) {
                    const Attempt& refused = run.attempts[*before];
                    REQUIRE(refused.decision.retry_after);
                    CHECK(at.tick >= refused.tick + refused.decision.retry_after->ceil());
                    // Alone: no attempt of its key was decided in between, so it passes.
                    const KeyId key = trace->requests[at.intent].key;
                    bool alone = true;
                    for (std::size_t b = *before + 1; b < a; ++b)
                        alone = alone && trace->requests[run.attempts[b].intent].key != key;
                    if (alone)
                        CHECK(at.decision.accepted);
                }
                last[at.intent] = a;
                if (!at.decision.accepted && at.decision.retry_never)
                    CHECK_FALSE(run.served_by[at.intent]);
            }
        }
    }
}

TEST_CASE("clients: seeded jitter is reproducible and stays within its bounds") {
    Params params;
    const auto trace = busy_trace(7, params);
    const Lane lane{"fixed_window", {}, {}, false};
    const ClientRun a = run_clients(*trace, params, lane, everyone("backoff:jitter=full,seed=42"));
    const ClientRun b = run_clients(*trace, params, lane, everyone("backoff:jitter=full,seed=42"));
    const ClientRun c = run_clients(*trace, params, lane, everyone("backoff:jitter=full,seed=43"));
    CHECK(a.attempts == b.attempts);
    CHECK(a.attempts != c.attempts);
    // The waits themselves: base 4, factor 2, cap 20 gives 4, 8, 16, 20, 20 before jitter.
    const ClientPolicy none = policy("backoff:base=4,factor=2,cap=20");
    const ClientPolicy full = policy("backoff:base=4,factor=2,cap=20,jitter=full,seed=1");
    const ClientPolicy equal = policy("backoff:base=4,factor=2,cap=20,jitter=equal,seed=1");
    const Decision refused;
    const std::vector<Tick> waits = {4, 8, 16, 20, 20};
    for (std::size_t intent = 0; intent < 50; ++intent) {
        for (std::int64_t attempt = 1; attempt <= 5; ++attempt) {
            const Tick w = waits[static_cast<std::size_t>(attempt - 1)];
            CHECK(retry_wait(none, intent, attempt, refused) == w);
            const Tick f = *retry_wait(full, intent, attempt, refused);
            CHECK((f >= 1 && f <= w));
            const Tick e = *retry_wait(equal, intent, attempt, refused);
            CHECK((e >= (w + 1) / 2 && e <= w));
            CHECK(retry_wait(full, intent, attempt, refused) == f);
        }
    }
    // A factor of 3/2 rounds each wait up: 2, 3, 5 (4.5), then the cap 6.
    const ClientPolicy slow = policy("backoff:base=2,factor=1.5,cap=6");
    CHECK(retry_wait(slow, 0, 1, refused) == Tick{2});
    CHECK(retry_wait(slow, 0, 2, refused) == Tick{3});
    CHECK(retry_wait(slow, 0, 3, refused) == Tick{5});
    CHECK(retry_wait(slow, 0, 4, refused) == Tick{6});
}

TEST_CASE("clients: immediate retries on a fixed window, worked out by hand") {
    // L = 2 per 5 ticks; three intents at tick 0. Two pass; the third is refused at tick 0
    // and retried at ticks 1 to 4 (refused, the window is full) and passes at tick 5 on its
    // sixth attempt: time to success 0, 0 and 5; 5 rejections for 3 successes.
    const auto trace = test::ticks({0, 0, 0});
    const Params params = test::limits(2, 5);
    const Lane lane{"fixed_window", {}, {}, false};
    const ClientRun run = run_clients(*trace, params, lane, everyone("immediate:max_attempts=10"));
    REQUIRE(run.attempts.size() == 8);
    CHECK(run.attempts[7].tick == 5);
    CHECK(run.attempts[7].attempt == 6);
    CHECK(run.attempts[7].decision.accepted);
    CHECK(run.intents.served == 3);
    CHECK(run.intents.abandoned == 0);
    CHECK(run.intents.rejections == 5);
    CHECK(run.intents.attempts_per_success == Rational(8, 3));
    CHECK(run.intents.rejections_per_success == Rational(5, 3));
    CHECK(run.intents.time_to_success == TimeToSuccess{Rational(0), Rational(5), Rational(5)});
    // Per tick: three offered at 0 (two pass), then one a tick until it passes at 5.
    const AttemptsPerTick series = attempts_per_tick(run);
    CHECK(series.first == 0);
    CHECK(series.offered == std::vector<std::int64_t>{3, 1, 1, 1, 1, 1});
    CHECK(series.accepted == std::vector<std::int64_t>{2, 0, 0, 0, 0, 1});
    CHECK(series.rejected == std::vector<std::int64_t>{1, 1, 1, 1, 1, 0});
    // With the default 5 attempts it gives up at tick 4.
    const ClientRun short_run = run_clients(*trace, params, lane, everyone("immediate"));
    CHECK(short_run.attempts.size() == 7);
    CHECK(short_run.intents.abandoned == 1);
    CHECK(short_run.intents.time_to_success.max == Rational(0));
}

TEST_CASE("clients: a paced client spreads its requests and, once told, is never refused") {
    // A fixed window of 4 per 10 ticks; ten intents at tick 0. After the first (tick 0) it is
    // told R = 3, T = 10, so it waits ceil(10 / 3) = 4 ticks; at 4 it is told R = 2, T = 6
    // and waits 3; at 7, R = 1 and T = 3: the fourth goes at 10, in the next window.
    const auto trace = test::ticks({0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    const Params params = test::limits(4, 10);
    const ClientRun fixed =
        run_clients(*trace, params, Lane{"fixed_window", {}, {}, false}, everyone("paced"));
    REQUIRE(fixed.attempts.size() >= 4);
    CHECK(fixed.attempts[1].tick == 4);
    CHECK(fixed.attempts[2].tick == 7);
    CHECK(fixed.attempts[3].tick == 10);
    for (const Lane& lane : every_lane()) {
        INFO("lane " << lane.algorithm);
        const ClientRun run = run_clients(*trace, params, lane, everyone("paced"));
        // Once told, never refused: only the very first attempt, made knowing nothing, may be
        // (npm_limiter's bucket starts empty).
        for (std::size_t a = 1; a < run.attempts.size(); ++a)
            CHECK(run.attempts[a].decision.accepted);
        CHECK(run.intents.served == 10);
        REQUIRE(run.responses.size() == run.attempts.size());
    }
}

TEST_CASE("clients: a tier names its own policy") {
    const auto trace = test::make_trace({{0}, {0}, {0}, {0, 1, "b"}, {0, 1, "b"}, {0, 1, "b"}});
    const Params params = test::limits(2, 5);
    ClientPolicies policies = everyone("give_up");
    policies.keys["b"] = policy("fixed:delay=5");
    const ClientRun run =
        run_clients(*trace, params, Lane{"fixed_window", {}, {}, false}, policies);
    // The default key's third intent gives up; b's is tried again at tick 5 and passes.
    CHECK(run.intents.served == 5);
    CHECK(run.attempts.back().tick == 5);
    CHECK(run.attempts.back().intent == 5);
}

TEST_CASE("clients: policies are read with one-line errors naming the field and the rule") {
    CHECK(policy("backoff:base=2,factor=1.5,cap=60,jitter=equal,seed=7,max_attempts=3") == [] {
        ClientPolicy p;
        p.kind = ClientKind::backoff;
        p.base = 2;
        p.factor = Rational(3, 2);
        p.cap = 60;
        p.jitter = Jitter::equal;
        p.seed = 7;
        p.max_attempts = 3;
        return p;
    }());
    const std::vector<std::pair<std::string, std::string>> errors = {
        {"sometimes",
         "the policy must be give_up, immediate, fixed, backoff, retry_after or "
         "paced, not \"sometimes\""},
        {"fixed:delay=0", "fixed: delay must be a whole number of ticks from 1 to " +
                              std::to_string(bounds::kMaxTick) + ", not \"0\""},
        {"backoff:jitter=some", "backoff: jitter must be none, full or equal, not \"some\""},
        {"immediate:delay=3", "immediate takes no \"delay\" (it takes max_attempts, deadline)"},
        {"give_up:max_attempts=0",
         "give_up: max_attempts must be a whole number from 1 to 1000 "
         "(attempts in all, the first included), not \"0\""},
        {"backoff:factor=0.5",
         "backoff: factor must be a number from 1 to 1000, such as 2, 1.5 or 3/2, not \"0.5\""},
        {"backoff:base=9,cap=3", "backoff: cap must be at least base (9), not 3"},
        {"retry_after:spread", "retry_after: \"spread\" must be NAME=VALUE, as in max_attempts=3"},
    };
    for (const auto& [text, message] : errors) {
        INFO(text);
        const auto parsed = parse_client_policy(text);
        REQUIRE(std::holds_alternative<std::string>(parsed));
        CHECK(std::get<std::string>(parsed) == message);
    }
}
