// The core at the edges of ratelab/limits.h: validation accepts exactly the documented bounds,
// and at those bounds every algorithm still decides exactly, with no overflow. Under UBSan
// (.ci/sanitize) any signed overflow in these runs aborts the test.
#include <memory>
#include <string>
#include <vector>

#include "catch.h"
#include "ratelab/limits.h"
#include "ratelab/simulation.h"

using namespace ratelab;
namespace b = ratelab::bounds;

namespace {

constexpr std::int64_t kL = b::kMaxLimit;
constexpr std::uint32_t kCost = static_cast<std::uint32_t>(b::kMaxCost);

struct R {
    Tick tick;
    std::uint32_t cost;
};

std::shared_ptr<const Trace> trace_of(const std::vector<R>& requests) {
    TraceBuilder builder;
    for (const R& r : requests)
        builder.add(r.tick, r.cost);
    return std::make_shared<const Trace>(std::move(builder).take());
}

/// "A" for an acceptance, "R<retry-after>" for a rejection, "N" for never; one per request.
std::vector<std::string> decisions(const SimulationResult& result, const std::string& id) {
    std::vector<std::string> out;
    const AlgorithmRun& run = *result.find(id);
    for (std::size_t i = 0; i < result.trace->requests.size(); ++i) {
        const Decision d = run.decision(*result.trace, i);
        out.push_back(d.accepted ? "A" : d.retry_never ? "N" : "R" + d.retry_after->to_string());
    }
    return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("hardening/bounds: validation accepts the bounds and refuses one past them") {
    Params params;
    params.base = {kL, b::kMaxWindow, {}};
    Limits& o = params.base;
    o.set_override("token_bucket", "capacity", Rational(kL));
    o.set_override("leaky_bucket", "queue_size", Rational(kL));
    o.set_override("gcra", "burst", Rational(kL));
    o.set_override("token_bucket", "refill_rate",
                   Rational(b::kMaxRationalPart, b::kMaxRationalDen - 1));
    o.set_override("leaky_bucket", "drain_interval",
                   Rational(b::kMaxRationalPart - 1, b::kMaxRationalDen));
    o.set_override("gcra", "emission_interval", Rational(1, b::kMaxRationalDen));
    CHECK(validate(params).empty());

    const auto refused = [&](auto spoil) {
        Params p = params;
        spoil(p);
        return validate(p).size() == 1;
    };
    CHECK(refused([](Params& p) { p.base.limit = kL + 1; }));
    CHECK(refused([](Params& p) { p.base.window = b::kMaxWindow + 1; }));
    CHECK(refused(
        [](Params& p) { p.base.set_override("leaky_bucket", "queue_size", Rational(kL + 1)); }));
    CHECK(refused([](Params& p) {
        p.base.set_override("token_bucket", "refill_rate", Rational(b::kMaxRationalPart + 1));
    }));
    CHECK(refused([](Params& p) {
        p.base.set_override("gcra", "emission_interval", Rational(1, b::kMaxRationalDen + 1));
    }));
    CHECK(refused([](Params& p) { p.keys["pro"] = {1, b::kMaxWindow + 1, {}}; }));

    Trace trace = *trace_of({{0, kCost}, {b::kMaxTick, kCost}});
    CHECK(validate(trace).empty());
    trace.requests.back().tick = b::kMaxTick + 1;
    CHECK(validate(trace).size() == 1);
    trace.requests.back() = {b::kMaxTick, kCost + 1, 0};
    CHECK(validate(trace).size() == 1);
    // Each rule on its own, at the start, in the middle and at the end of a longer trace.
    for (const std::size_t at : {std::size_t{0}, std::size_t{500}, std::size_t{999}}) {
        const auto spoilt = [at](void (*spoil)(Request&, Tick)) {
            Trace t = *trace_of({});
            for (Tick tick = 0; tick < 1000; ++tick)
                t.requests.push_back(Request{tick * 2, 1, 0});
            spoil(t.requests[at], t.requests[at].tick);
            return validate(t);
        };
        CHECK(spoilt([](Request&, Tick) {}).empty());
        const auto one = [&](void (*spoil)(Request&, Tick), const std::string& words) {
            const auto errors = spoilt(spoil);
            REQUIRE(errors.size() == 1);
            INFO(errors.front());
            CHECK(errors.front().rfind("request " + std::to_string(at) + ": ", 0) == 0);
            CHECK(errors.front().find(words) != std::string::npos);
        };
        one([](Request& r, Tick) { r.cost = 0; }, "cost 0");
        one([](Request& r, Tick) { r.key = 1; }, "unknown key id 1");
        one([](Request& r, Tick) { r.tick = -1; }, "tick -1 outside");
        if (at > 0)
            one([](Request& r, Tick tick) { r.tick = tick - 3; }, "is before the previous");
    }
}

TEST_CASE("hardening/bounds: a long trace is checked in parts, its problems told in one order") {
    // 60,000 requests are checked in two halves side by side (on two cores): the problems come
    // as one pass would find them, every duration first, then every request, each once, and at
    // most 20. Request 30,000, the first of the second half, is out of order.
    Trace t = *trace_of({});
    for (Tick tick = 0; tick < 60'000; ++tick)
        t.requests.push_back(Request{tick * 2, 1, 0});
    t.durations.assign(t.requests.size(), 0);
    t.durations[10] = -1;
    t.durations[50'000] = -1;
    t.requests[5].cost = 0;
    t.requests[30'000].tick = t.requests[29'999].tick - 1;
    t.requests[40'000].cost = 0;
    const std::vector<std::string> problems = validate(t);
    REQUIRE(problems.size() == 5);
    const std::vector<std::string> at{"10", "50000", "5", "30000", "40000"};
    for (std::size_t i = 0; i < at.size(); ++i) {
        INFO(problems[i]);
        CHECK(problems[i].rfind("request " + at[i] + ": ", 0) == 0);
    }
    CHECK(problems[3].find("is before the previous") != std::string::npos);
    // Only some requests, as after an edit: the one after them is checked too.
    const std::vector<std::string> edited = validate(t, 29'990, 30'000);
    REQUIRE(edited.size() == 1);
    CHECK(edited.front().rfind("request 30000: ", 0) == 0);

    // Thirty bad costs in each half: the first twenty of the first half.
    t.durations.clear();
    t.requests[30'000].tick = t.requests[29'999].tick;
    for (std::size_t i = 0; i < 30; ++i) {
        t.requests[100 + i].cost = 0;
        t.requests[40'100 + i].cost = 0;
    }
    const std::vector<std::string> many = validate(t);
    REQUIRE(many.size() == 20);
    CHECK(many.front().rfind("request 5: ", 0) == 0);
    CHECK(many.back().rfind("request 118: ", 0) == 0);
}

TEST_CASE("hardening/bounds: the last ticks with W = 10^12, L = 10^6 and the largest cost") {
    // Tick 0 spends the whole allowance; the requests just before 10^12 find it still spent.
    const auto trace = trace_of(
        {{0, kCost}, {b::kMaxTick - 2, kCost}, {b::kMaxTick - 1, kCost}, {b::kMaxTick, kCost}});
    Params params;
    params.base = {kL, b::kMaxWindow, {}};
    const auto result = simulate(trace, params);

    CHECK(decisions(*result, "fixed_window") == V{"A", "R2", "R1", "A"});
    CHECK(decisions(*result, "sliding_log") == V{"A", "R2", "R1", "A"});
    CHECK(decisions(*result, "token_bucket") == V{"A", "R2", "R1", "A"});
    CHECK(decisions(*result, "gcra") == V{"A", "R2", "R1", "A"});
    // The whole window 0 still weighs on window 1: only at 2 * 10^12 is it forgotten.
    CHECK(decisions(*result, "sliding_counter") ==
          V{"A", "R1000000000002", "R1000000000001", "R1000000000000"});
    // One unit every W/L = 10^6 ticks: the first request drains until 10^12 - 10^6.
    CHECK(decisions(*result, "leaky_bucket") == V{"A", "A", "R999999000001", "R999999000000"});
    const AlgorithmRun& leaky = *result->find("leaky_bucket");
    CHECK(*leaky.decision(*trace, 1).release == Rational(2 * b::kMaxTick - 1'000'000));
    CHECK(leaky.totals.max_delay == Rational(b::kMaxTick - 1'000'000 + 2));
    for (const AlgorithmRun& run : result->runs) {
        INFO(run.id);
        CHECK(run.worst_burst.cost == kL);
    }
}

TEST_CASE("hardening/bounds: rejections that count pile up far past L without overflow") {
    // 20,000 requests of the largest cost on one tick: every counter holds 2 * 10^10, and the
    // sliding counter's products reach 10^22 before they are compared.
    std::vector<R> requests(20'000, R{0, kCost});
    const Tick w = b::kMaxWindow / 2;
    requests.push_back({w, kCost});
    requests.push_back({2 * w, kCost});
    const auto trace = trace_of(requests);
    Params params;
    params.base = {kL, w, {}};
    params.rejections_count = true;
    const auto result = simulate(trace, params);

    const auto pattern = [&](const std::string& id) {
        const V all = decisions(*result, id);
        for (std::size_t i = 2; i < 20'000; ++i)
            REQUIRE(all[i] == all[1]);  // the pile-up is decided alike throughout
        return V{all[0], all[1], all[20'000], all[20'001]};
    };
    CHECK(pattern("fixed_window") == V{"A", "R500000000000", "A", "A"});
    CHECK(pattern("sliding_log") == V{"A", "R500000000000", "A", "A"});
    // The previous window's 2 * 10^10 counted units keep the next window shut; the counted
    // rejection at W then keeps the one after it shut too.
    CHECK(pattern("sliding_counter") ==
          V{"A", "R1000000000000", "R1000000000000", "R1000000000000"});
    CHECK(pattern("token_bucket") == V{"A", "R500000000000", "A", "A"});
    CHECK(pattern("gcra") == V{"A", "R500000000000", "A", "A"});
    CHECK(pattern("leaky_bucket") == V{"A", "R499999500000", "A", "A"});
    CHECK(result->find("fixed_window")->totals.rejected_cost == 19'999 * b::kMaxCost);
}

TEST_CASE("hardening/bounds: rates and intervals at their largest numerators and denominators") {
    Params params;
    params.base = {kL, b::kMaxWindow, {}};
    Limits& o = params.base;
    o.set_override("token_bucket", "capacity", Rational(kL));
    // Refills the bucket within a tick.
    o.set_override("token_bucket", "refill_rate", Rational(b::kMaxRationalPart));
    o.set_override("gcra", "burst", Rational(kL));
    // One unit per 10^12 ticks.
    o.set_override("gcra", "emission_interval", Rational(b::kMaxRationalPart));
    o.set_override("leaky_bucket", "queue_size", Rational(kL));
    // In lowest terms.
    o.set_override("leaky_bucket", "drain_interval",
                   Rational(b::kMaxRationalPart - 1, b::kMaxRationalDen));
    const auto result = simulate(trace_of({{0, kCost}, {0, 1}, {1, kCost}}), params);
    CHECK(decisions(*result, "token_bucket") == V{"A", "R1/1000000000000", "A"});

    // GCRA: a full burst at tick 0 books the schedule until 10^18 scaled ticks.
    const auto gcra =
        simulate(trace_of({{0, kCost}, {b::kMaxTick, kCost}, {b::kMaxTick, 1}}), params, {"gcra"});
    CHECK(decisions(*gcra, "gcra") == V{"A", "R999999000000000000", "A"});

    // Leaky bucket at the last tick with a drain interval of (10^12 - 1) / 10^6 ticks: times
    // are kept in millionths of a tick, up to about 2 * 10^18 of them.
    const auto leaky =
        simulate(trace_of({{b::kMaxTick, kCost}, {b::kMaxTick, 1}, {b::kMaxTick, 1}}), params,
                 {"leaky_bucket"});
    CHECK(decisions(*leaky, "leaky_bucket") == V{"A", "A", "R999999999999/1000000"});
    const Rational d = std::get<Rational>(*o.override_of("leaky_bucket", "drain_interval"));
    CHECK(*leaky->runs[0].decision(*leaky->trace, 1).release ==
          Rational(b::kMaxTick) + d * Rational(kL));
    // The drain interval is a hair under W/L, so L + 1 units start within one window.
    CHECK(leaky->runs[0].worst_burst.cost == kL + 1);
}

TEST_CASE("hardening/bounds: parsing a rational never overflows, whatever the text") {
    for (const char* text :
         {"-9223372036854775808/-1", "1/-9223372036854775808", "9223372036854775808",
          "-9223372036854775809/1", "5/0", "", "/", "1/", "/1", "1/2/3", " 1", "+1"}) {
        INFO(text);
        const auto value = Rational::parse(text);
        CHECK_FALSE(value.has_value());
    }
    CHECK(Rational::parse("-9223372036854775808/-9223372036854775808") == Rational(1));
    CHECK(Rational::parse("-9223372036854775808/2") == Rational(-4611686018427387904));
    CHECK(Rational::parse("9223372036854775807/-9223372036854775807") == Rational(-1));
    CHECK(Rational::parse("-9223372036854775808")->to_fixed(2) == "-9223372036854775808.00");
}
