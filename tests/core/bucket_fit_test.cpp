// The closed forms of the token bucket and GCRA against brute force, simulate() and a sweep.
#include <algorithm>
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/bucket_fit.h"
#include "ratelab/limits.h"
#include "ratelab/sweep.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;
using namespace ratelab::test;

namespace {

std::shared_ptr<const Trace> random_trace(std::mt19937_64& rng, int keys) {
    auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    TraceBuilder builder;
    Tick tick = pick(0, 5);
    const auto count = pick(1, 80);
    for (std::int64_t i = 0; i < count; ++i) {
        const auto gap = pick(0, 9);
        tick += gap < 4 ? 0 : gap < 8 ? pick(1, 3) : pick(4, 30);
        builder.add(tick, static_cast<std::uint32_t>(pick(1, 8) == 1 ? pick(2, 5) : 1),
                    keys > 1 ? std::to_string(pick(1, keys)) : "");
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

/// The specification: every span of requests i..j, its cost against C + r (t_j - t_i).
Rational brute_excess(std::span<const Request> requests, const Rational& rate) {
    Rational worst(0);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        std::int64_t cost = 0;
        for (std::size_t j = i; j < requests.size(); ++j) {
            cost += requests[j].cost;
            worst = std::max(worst,
                             Rational(cost) - rate * Rational(requests[j].tick - requests[i].tick));
        }
    }
    return worst;
}

std::optional<Rational> brute_rate(std::span<const Request> requests, std::int64_t capacity) {
    Rational worst(0);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        std::int64_t cost = 0;
        for (std::size_t j = i; j < requests.size(); ++j) {
            cost += requests[j].cost;
            const Tick length = requests[j].tick - requests[i].tick;
            if (cost <= capacity)
                continue;
            if (length == 0)
                return std::nullopt;
            worst = std::max(worst, Rational(cost - capacity, length));
        }
    }
    return worst;
}

/// Rejections of one token_bucket (or gcra) lane with these values, by simulate().
std::int64_t rejected(const std::shared_ptr<const Trace>& trace, Params params, const Lane& lane) {
    params.lanes = {lane};
    return simulate(trace, params)->runs.front().totals.rejected;
}

Lane bucket(std::int64_t capacity, const Rational& rate) {
    return Lane{
        "token_bucket", {{"capacity", Rational(capacity)}, {"refill_rate", rate}}, {}, false};
}

Lane gcra(std::int64_t burst, const Rational& interval) {
    return Lane{"gcra", {{"burst", Rational(burst)}, {"emission_interval", interval}}, {}, false};
}

/// The largest fraction below `value` that a rational parameter can hold.
Rational just_below(const Rational& value) {
    return round_down_to_den(value - Rational(1, 2 * bounds::kMaxRationalPart),
                             bounds::kMaxRationalDen);
}

/// The smallest fraction above `value` that a rational parameter can hold.
Rational just_above(const Rational& value) {
    return round_up_to_den(value + Rational(1, 2 * bounds::kMaxRationalPart),
                           bounds::kMaxRationalDen);
}

}  // namespace

TEST_CASE("bucket fit: the boundary burst, worked out by hand") {
    // One request on each of ticks 6 to 13. At 2/5 a tick, the whole run of eight is the worst
    // span: 8 - 2/5 x 7 = 5.2 tokens, so 6 are needed. With 4 tokens the worst ratio is the
    // whole run again: (8 - 4) / 7.
    const Trace trace = default_trace();
    CHECK(smallest_capacity(flat(trace.requests), Rational(2, 5)) == 6);
    CHECK(smallest_rate(flat(trace.requests), 4) == Rational(4, 7));
    CHECK(smallest_rate(flat(trace.requests), 8) == Rational(0));  // eight tokens need no refill
    const auto same_tick = ticks({3, 3, 3});
    CHECK(!smallest_rate(flat(same_tick->requests), 2));  // three on one tick never fit in two
    CHECK(smallest_capacity(flat(same_tick->requests), Rational(1000)) == 3);
    CHECK(smallest_capacity({}, Rational(1)) == 0);
}

TEST_CASE("bucket fit: one pass agrees with every span by brute force") {
    const std::uint64_t seed0 = base_seed();
    const Rational rates[] = {Rational(1, 7), Rational(2, 5), Rational(1), Rational(7, 3)};
    for (int n = 0; n < 60; ++n) {
        const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        std::mt19937_64 rng(seed);
        const auto trace = random_trace(rng, 1);
        const auto requests = flat(trace->requests);
        for (const Rational& rate : rates) {
            CHECK(smallest_capacity(requests, rate) == brute_excess(requests, rate).ceil());
        }
        for (std::int64_t capacity : {1, 2, 3, 5, 8, 20}) {
            CHECK(smallest_rate(requests, capacity) == brute_rate(requests, capacity));
        }
    }
}

TEST_CASE("bucket fit: the answers are where simulate starts and stops rejecting") {
    const std::uint64_t seed0 = base_seed();
    for (int n = 0; n < 40; ++n) {
        const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        std::mt19937_64 rng(seed);
        const auto trace = random_trace(rng, 1);
        const Params params = limits(4, 10);
        const Rational rate(1 + n % 3, 1 + n % 4);
        const std::int64_t capacity = smallest_capacity(flat(trace->requests), rate);
        CHECK(rejected(trace, params, bucket(capacity, rate)) == 0);
        CHECK(rejected(trace, params, gcra(capacity, Rational(1) / rate)) == 0);
        if (capacity > 1) {
            CHECK(rejected(trace, params, bucket(capacity - 1, rate)) > 0);
            CHECK(rejected(trace, params, gcra(capacity - 1, Rational(1) / rate)) > 0);
        }
        const std::int64_t held = 2 + n % 4;
        const std::optional<Rational> least = smallest_rate(flat(trace->requests), held);
        if (!least) {
            // Some tick's requests cost more than the bucket holds: even a fast refill rejects.
            CHECK(rejected(trace, params, bucket(held, Rational(bounds::kMaxRationalPart))) > 0);
        } else if (*least > Rational(0)) {
            CHECK(rejected(trace, params, bucket(held, *least)) == 0);
            CHECK(rejected(trace, params, bucket(held, just_below(*least))) > 0);
            CHECK(rejected(trace, params, gcra(held, Rational(1) / *least)) == 0);
        } else {
            CHECK(rejected(trace, params, bucket(held, Rational(1, bounds::kMaxRationalDen))) == 0);
        }
    }
}

TEST_CASE("bucket fit: the closed form is the first zero-rejection point of a sweep") {
    const std::uint64_t seed0 = base_seed();
    for (int n = 0; n < 20; ++n) {
        const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        std::mt19937_64 rng(seed);
        const auto trace = random_trace(rng, n % 2 == 0 ? 1 : 3);
        Params params = limits(3, 7);
        if (n % 2 == 1)
            params.keys["2"] = Limits{2, 5, {}};
        for (const char* id : {"token_bucket", "gcra"}) {
            INFO(id);
            const std::string capacity = std::string(id) == "gcra" ? "burst" : "capacity";
            const LaneFit fit = fit_zero_rejections(*trace, params, Lane{id, {}, {}, false});
            std::vector<ParamValue> values;
            for (std::int64_t c = 1; c <= fit.fleet.capacity + 3; ++c)
                values.emplace_back(Rational(c));
            params.lanes = {Lane{id, {}, {}, false}};
            const SweepResult swept = sweep(
                *trace, params,
                {SweepAxis{SweepTarget{SweepTarget::Kind::lane_parameter, id, capacity}, values}});
            params.lanes.clear();
            std::size_t first = swept.points;
            for (std::size_t p = 0; p < swept.points && first == swept.points; ++p) {
                if (swept.row(p, 0).totals.rejected == 0)
                    first = p;
            }
            REQUIRE(first < swept.points);
            CHECK(std::get<Rational>(swept.row(first, 0).values.front()) ==
                  Rational(fit.fleet.capacity));
        }
    }
}

TEST_CASE("bucket fit: with key tiers, each tier gets its own answer and the fleet the largest") {
    // Key "a" is on a tier of 2 per 10 ticks (rate 1/5); "b" and "c" on the base 5 per 10.
    std::vector<Req> requests;
    for (Tick t : {0, 0, 1, 2, 30, 31})
        requests.emplace_back(t, 1, "a");
    for (Tick t : {0, 0, 0, 0, 0, 0, 1, 20})
        requests.emplace_back(t, 1, "b");
    for (Tick t : {5, 6, 7})
        requests.emplace_back(t, 2, "c");
    std::stable_sort(requests.begin(), requests.end(),
                     [](const Req& x, const Req& y) { return x.tick < y.tick; });
    TraceBuilder builder;
    for (const Req& r : requests)
        builder.add(r.tick, r.cost, r.key);
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params = limits(5, 10);
    params.keys["a"] = Limits{2, 10, {}};
    const LaneFit fit = fit_zero_rejections(*trace, params, Lane{"token_bucket", {}, {}, false});
    REQUIRE(fit.tiers.size() == 2);
    const TierFit& base = fit.tiers[0];
    const TierFit& tier_a = fit.tiers[1];
    CHECK(base.tier.empty());
    CHECK(base.keys == 2);
    CHECK(tier_a.tier == "a");
    CHECK(tier_a.keys == 1);
    // a at 1/5: ticks 0, 0, 1, 2 cost 4 over 2 ticks: 4 - 2/5 = 3.6, so 4.
    CHECK(tier_a.capacity == 4);
    CHECK(tier_a.at_rate_parameter == Rational(1, 5));
    CHECK(tier_a.at_capacity == 2);
    // b at 1/2: six at tick 0 and one at tick 1: 7 - 1/2 = 6.5, so 7; c costs 6 over 2 ticks.
    CHECK(base.capacity == 7);
    CHECK(base.at_rate_parameter == Rational(1, 2));
    CHECK(fit.fleet.capacity == 7);
    CHECK(fit.fleet.keys == 3);
    CHECK(!fit.fleet.at_rate_parameter);  // its keys run at 1/5 and 1/2
    // b's six on one tick never fit in a capacity of 5: no rate helps the base tier.
    CHECK(!base.rate);
    CHECK(!fit.fleet.rate);
    // a with 2 tokens: 4 over ticks 0..2 needs (4 - 2) / 2 = 1 a tick.
    CHECK(tier_a.rate == Rational(1));
    // The fleet's capacity on the lane, over every key at its own rate, rejects nothing.
    Lane lane{"token_bucket", {{"capacity", Rational(fit.fleet.capacity)}}, {}, false};
    CHECK(rejected(trace, params, lane) == 0);
    lane.params["capacity"] = Rational(fit.fleet.capacity - 1);
    CHECK(rejected(trace, params, lane) > 0);
}

TEST_CASE("bucket fit: GCRA answers with its own parameters") {
    const Trace trace = default_trace();
    const LaneFit fit = fit_zero_rejections(trace, default_params(), Lane{"gcra", {}, {}, false});
    CHECK(fit.capacity_parameter == "burst");
    CHECK(fit.rate_parameter == "emission_interval");
    CHECK(fit.fleet.capacity == 6);                        // as the token bucket at 2/5
    CHECK(fit.fleet.rate == Rational(4, 7));               // burst 4: one unit per 7/4 ticks
    CHECK(fit.settable_rate_parameter == Rational(7, 4));  // the emission interval, at most
    CHECK(fit.tiers.empty());
    CHECK_THROWS_AS(
        fit_zero_rejections(trace, default_params(), Lane{"fixed_window", {}, {}, false}),
        SimulationError);
}

TEST_CASE("bucket fit: bounded denominators round to the nearest fraction on each side") {
    std::mt19937_64 rng(7);
    for (int n = 0; n < 300; ++n) {
        const std::int64_t den = std::uniform_int_distribution<std::int64_t>(1, 5000)(rng);
        const std::int64_t num = std::uniform_int_distribution<std::int64_t>(0, 3 * den)(rng);
        const Rational value(num, den);
        const std::int64_t max_den = std::uniform_int_distribution<std::int64_t>(1, 40)(rng);
        INFO(value.to_string() << " within " << max_den);
        // Brute force: for each denominator, the fractions on either side.
        Rational up(1000000), down(-1);
        for (std::int64_t d = 1; d <= max_den; ++d) {
            const Rational scaled = value * Rational(d);
            up = std::min(up, Rational(scaled.ceil(), d));
            down = std::max(down, Rational(scaled.floor(), d));
        }
        CHECK(round_up_to_den(value, max_den) == up);
        CHECK(round_down_to_den(value, max_den) == down);
    }
    CHECK(round_up_to_den(Rational(1, 3), 1000) == Rational(1, 3));
}

TEST_CASE("bucket fit: over a sweep, each point's answer is fit_zero_rejections' there") {
    std::mt19937_64 rng(11);
    const auto trace = random_trace(rng, 3);
    Params params = limits(3, 7);
    params.keys["1"] = Limits{5, 9, {}};
    params.lanes = {Lane{"token_bucket", {}, {}, false}, Lane{"sliding_log", {}, {}, false},
                    Lane{"gcra", {}, {}, false}};
    std::vector<ParamValue> limits_values, bursts;
    for (std::int64_t v = 1; v <= 6; ++v) {
        limits_values.emplace_back(Rational(v));
        bursts.emplace_back(Rational(v + 2));
    }
    const std::vector<SweepAxis> axes = {
        SweepAxis{SweepTarget{SweepTarget::Kind::limit, {}, {}}, limits_values},
        SweepAxis{SweepTarget{SweepTarget::Kind::lane_parameter, "gcra", "burst"}, bursts}};
    std::size_t fits = 0;
    SweepOptions options;
    options.threads = 3;
    options.progress = [&fits](std::size_t, std::size_t total) { fits = total; };
    const FitSweepResult result = sweep_fits(*trace, params, axes, options);
    CHECK(fits == 6 + 36);  // the token bucket's answers do not move with gcra.burst
    REQUIRE(result.rows.size() == 36 * 2);  // the sliding log has no closed form
    for (const FitSweepRow& row : result.rows) {
        const Params point = sweep_point_params(params, axes, row.point);
        INFO("point " << row.point << ", lane " << row.lane);
        CHECK(row.values == sweep_point_values(axes, row.point));
        CHECK(result.lanes[row.lane].algorithm != "sliding_log");
        const LaneFit expected = fit_zero_rejections(*trace, point, point.lanes[row.lane]);
        CHECK(row.fit.fleet == expected.fleet);
        CHECK(row.fit.tiers == expected.tiers);
        CHECK(row.fit.settable_rate_parameter == expected.settable_rate_parameter);
    }
    options.threads = 1;
    const FitSweepResult alone = sweep_fits(*trace, params, axes, options);
    REQUIRE(alone.rows.size() == result.rows.size());
    for (std::size_t i = 0; i < alone.rows.size(); ++i)
        CHECK(alone.rows[i].fit.fleet == result.rows[i].fit.fleet);
    params.lanes = {Lane{"sliding_log", {}, {}, false}};
    CHECK_THROWS_AS(sweep_fits(*trace, params, {}), SimulationError);
}

TEST_CASE("bucket fit: a sweep's frontier is where each of its rows stops rejecting") {
    const std::uint64_t seed0 = base_seed();
    const auto axis = [](const char* id, const char* parameter, std::vector<Rational> values) {
        return SweepAxis{SweepTarget{SweepTarget::Kind::lane_parameter, id, parameter},
                         {values.begin(), values.end()}};
    };
    const std::vector<Rational> capacities = {Rational(1), Rational(3), Rational(6)};
    const std::vector<Rational> rates = {Rational(1, 3), Rational(1, 2), Rational(2)};
    for (int n = 0; n < 20; ++n) {
        const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        std::mt19937_64 rng(seed);
        const auto trace = random_trace(rng, 1);
        Params params = limits(3, 7);
        params.lanes = {Lane{"sliding_log", {}, {}, false}, Lane{"token_bucket", {}, {}, false},
                        Lane{"gcra", {}, {}, false}};

        // Capacity along x, one row per rate: the smallest capacity at that row's rate.
        const auto by_capacity =
            zero_rejection_frontier(*trace, params,
                                    {axis("token_bucket", "capacity", {Rational(1), Rational(2)}),
                                     axis("token_bucket", "refill_rate", rates)},
                                    1);
        REQUIRE(by_capacity);
        CHECK_FALSE(by_capacity->at_most);
        REQUIRE(by_capacity->rows.size() == rates.size());
        for (std::size_t row = 0; row < rates.size(); ++row) {
            REQUIRE(by_capacity->rows[row]);
            const std::int64_t c = by_capacity->rows[row]->floor();
            CHECK(rejected(trace, params, bucket(c, rates[row])) == 0);
            if (c > 1)
                CHECK(rejected(trace, params, bucket(c - 1, rates[row])) > 0);
        }

        // The emission interval along x, one row per burst: the longest that rejects nothing.
        const auto by_interval = zero_rejection_frontier(
            *trace, params,
            {axis("gcra", "emission_interval", {Rational(1)}), axis("gcra", "burst", capacities)},
            2);
        REQUIRE(by_interval);
        CHECK(by_interval->at_most);
        REQUIRE(by_interval->rows.size() == capacities.size());
        for (std::size_t row = 0; row < capacities.size(); ++row) {
            const std::int64_t burst = capacities[row].floor();
            const auto least = smallest_rate(flat(trace->requests), burst);
            INFO("burst " << burst);
            if (!least || *least == Rational(0)) {
                CHECK_FALSE(by_interval->rows[row]);  // none, or any, would do
                continue;
            }
            REQUIRE(by_interval->rows[row]);
            const Rational interval = *by_interval->rows[row];
            CHECK(interval == Rational(1) / *least);
            if (interval == round_down_to_den(interval, bounds::kMaxRationalDen))
                CHECK(rejected(trace, params, gcra(burst, interval)) == 0);  // settable
            CHECK(rejected(trace, params, gcra(burst, just_above(interval))) > 0);
        }
    }
}

TEST_CASE("bucket fit: no frontier where no closed form answers the first axis") {
    const auto trace = ticks({1, 1, 2, 5});
    Params params = limits(3, 7);
    params.lanes = {Lane{"sliding_log", {}, {}, false}, Lane{"token_bucket", {}, {}, false}};
    const SweepAxis limit{SweepTarget{SweepTarget::Kind::limit, {}, {}}, {Rational(2)}};
    const SweepAxis capacity{
        SweepTarget{SweepTarget::Kind::lane_parameter, "token_bucket", "capacity"}, {Rational(2)}};
    CHECK_FALSE(zero_rejection_frontier(*trace, params, {limit}, 1));
    CHECK_FALSE(zero_rejection_frontier(*trace, params, {capacity}, 0));  // the sliding log's
    CHECK_FALSE(zero_rejection_frontier(*trace, params, {}, 1));
    const auto answered = zero_rejection_frontier(*trace, params, {capacity, limit}, 1);
    REQUIRE(answered);
    // At L = 2 the refill is 2/7 a tick: ticks 1, 1 and 2 need 3 - 2/7 tokens, ticks 1 to 5
    // need 4 - 8/7: so 3.
    CHECK(answered->rows == std::vector<std::optional<Rational>>{Rational(3)});
}
