// Sweeps: every row is what a separate simulate() gives at that point, whatever the threads.
#include <algorithm>
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/key_figures.h"
#include "ratelab/sweep.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;
using namespace ratelab::test;

namespace {

/// Bursts, gaps, mixed costs, and with `keys` > 1 several keys, one of them with its own tier.
std::shared_ptr<const Trace> random_trace(std::mt19937_64& rng, int keys) {
    auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    TraceBuilder builder;
    Tick tick = pick(0, 5);
    const auto count = pick(1, 150);
    for (std::int64_t i = 0; i < count; ++i) {
        const auto gap = pick(0, 9);
        tick += gap < 4 ? 0 : gap < 8 ? pick(1, 3) : pick(4, 40);
        builder.add(tick, static_cast<std::uint32_t>(pick(1, 10) == 1 ? pick(2, 6) : 1),
                    keys > 1 ? std::to_string(pick(1, keys)) : "");
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

SweepAxis axis(SweepTarget::Kind kind, std::vector<ParamValue> values, std::string algorithm = {},
               std::string parameter = {}) {
    return SweepAxis{SweepTarget{kind, std::move(algorithm), std::move(parameter)},
                     std::move(values)};
}

std::vector<ParamValue> whole(std::initializer_list<std::int64_t> list) {
    std::vector<ParamValue> values;
    for (std::int64_t v : list)
        values.emplace_back(Rational(v));
    return values;
}

/// The 95th percentile of a run's delays by sorting them all.
std::optional<Rational> sorted_p95(const Trace& trace, const AlgorithmRun& run) {
    std::vector<Rational> delays;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (run.accepted(i))
            delays.push_back(*run.decision(trace, i).delay);
    }
    if (delays.empty())
        return std::nullopt;
    std::sort(delays.begin(), delays.end());
    const std::size_t rank = (95 * delays.size() + 99) / 100;
    return delays[rank - 1];
}

/// Checks every row of `result` against simulate() at the row's point.
void check_against_simulate(const std::shared_ptr<const Trace>& trace, const Params& params,
                            const SweepResult& result) {
    REQUIRE(result.rows.size() == result.points * result.lanes.size());
    for (std::size_t p = 0; p < result.points; ++p) {
        const Params point = sweep_point_params(params, result.axes, p);
        const auto expected = simulate(trace, point);
        REQUIRE(expected->runs.size() == result.lanes.size());
        for (std::size_t l = 0; l < result.lanes.size(); ++l) {
            const AlgorithmRun& run = expected->runs[l];
            const SweepRow& row = result.row(p, l);
            INFO("point " << p << ", lane " << run.label);
            CHECK(row.point == p);
            CHECK(row.lane == l);
            CHECK(row.values == sweep_point_values(result.axes, p));
            CHECK(row.totals == run.totals);
            CHECK(row.worst_burst == run.worst_burst);
            CHECK(row.limit == point.base.limit);
            CHECK(row.releases == run.releases);
            // Each key against its own tier, as the report judges it.
            const LaneKeys keys = key_figures(*expected, l);
            std::int64_t over = 0;
            for (const KeyFigures& key : keys.keys)
                over += key.over_limit() ? 1 : 0;
            CHECK(row.keys == static_cast<std::int64_t>(keys.keys.size()));
            CHECK(row.keys_over_limit == over);
            CHECK(row.judged == judged_burst(*expected, l, &keys, run));
            CHECK(row.several_keys == (!expected->sole_key && !trace->requests.empty()));
            if (run.releases) {
                CHECK(row.p95_delay == sorted_p95(*trace, run));
            } else {
                CHECK(!row.p95_delay);
            }
        }
    }
}

}  // namespace

TEST_CASE("sweep: rows equal separate simulate runs on seeded traces") {
    const std::uint64_t seed0 = base_seed();
    for (int n = 0; n < 25; ++n) {
        const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        std::mt19937_64 rng(seed);
        const int keys = n % 3 == 0 ? 3 : 1;
        const auto trace = random_trace(rng, keys);
        Params params = limits(4, 10);
        if (keys > 1) {
            params.keys["2"].limit = 2;
            params.keys["2"].window = 7;
        }
        std::vector<SweepAxis> axes;
        switch (n % 4) {
            case 0:  // L and W over the default lanes
                axes = {axis(SweepTarget::Kind::limit, whole({1, 3, 6})),
                        axis(SweepTarget::Kind::window, whole({5, 10}))};
                break;
            case 1:  // a whole lane parameter and a rational one, over two lanes of their own
                params.lanes = {Lane{"token_bucket", {{"refill_rate", Rational(1, 3)}}, {}, false},
                                Lane{"leaky_bucket", {}, {}, false},
                                Lane{"sliding_log", {}, {}, false}};
                axes = {axis(SweepTarget::Kind::lane_parameter, whole({1, 2, 5, 9}), "token_bucket",
                             "capacity"),
                        axis(SweepTarget::Kind::lane_parameter,
                             {Rational(1, 2), Rational(5, 2), Rational(4)}, "leaky_bucket",
                             "drain_interval")};
                break;
            case 2:  // two lanes of one algorithm, both moved by the axis
                params.lanes = {Lane{"gcra", {}, {}, false},
                                Lane{"gcra", {{"emission_interval", Rational(7, 2)}}, {}, false},
                                Lane{"fixed_window", {}, {}, false}};
                axes = {
                    axis(SweepTarget::Kind::lane_parameter, whole({1, 2, 4, 8}), "gcra", "burst"),
                    axis(SweepTarget::Kind::limit, whole({2, 5}))};
                break;
            default:  // L with a shaper, whose delays need the decisions
                axes = {axis(SweepTarget::Kind::limit, whole({1, 2, 3, 4, 5, 6, 7, 8}))};
                params.lanes = {Lane{"leaky_bucket", {}, {}, false},
                                Lane{"sliding_counter", {}, {}, false}};
                break;
        }
        SweepOptions options;
        options.threads = 1 + static_cast<unsigned>(n % 3);
        const SweepResult result = sweep(*trace, params, axes, options);
        check_against_simulate(trace, params, result);
    }
}

TEST_CASE("sweep: the rows come out in the same order whatever the threads") {
    std::mt19937_64 rng(2026);
    const auto trace = random_trace(rng, 2);
    const std::vector<SweepAxis> axes = {
        axis(SweepTarget::Kind::limit, whole({1, 2, 3, 4, 5, 6, 7, 8, 9, 10})),
        axis(SweepTarget::Kind::window, whole({3, 9, 27}))};
    std::vector<std::size_t> reported;
    SweepOptions one;
    one.threads = 1;
    const SweepResult alone = sweep(*trace, limits(4, 10), axes, one);
    SweepOptions four;
    four.threads = 4;
    four.progress = [&reported](std::size_t done, std::size_t total) {
        CHECK(total == 30 * 6);
        reported.push_back(done);
    };
    const SweepResult shared = sweep(*trace, limits(4, 10), axes, four);
    CHECK(alone.rows == shared.rows);
    CHECK(alone.labels == shared.labels);
    CHECK(shared.labels.front() == "Fixed window");
    // Progress is counted once per run, in order, from whichever thread.
    REQUIRE(reported.size() == 30 * 6);
    for (std::size_t i = 0; i < reported.size(); ++i)
        CHECK(reported[i] == i + 1);
    // The last axis varies fastest.
    CHECK(shared.row(1, 0).values == whole({1, 9}));
    CHECK(shared.row(3, 0).values == whole({2, 3}));
}

TEST_CASE("sweep: a lane no axis moves runs once, and its rows repeat") {
    const auto trace = ticks({0, 0, 0, 1, 2, 2, 3, 9, 9, 9, 9, 10});
    Params params = limits(3, 4);
    params.lanes = {Lane{"token_bucket", {}, {}, false}, Lane{"gcra", {}, {}, false}};
    const std::vector<SweepAxis> axes = {
        axis(SweepTarget::Kind::lane_parameter, whole({1, 2, 3, 4, 5}), "gcra", "burst")};
    std::size_t runs = 0;
    SweepOptions options;
    options.progress = [&runs](std::size_t, std::size_t total) { runs = total; };
    const SweepResult result = sweep(*trace, params, axes, options);
    CHECK(runs == 5 + 1);  // five gcra points, one token bucket run
    for (std::size_t p = 1; p < 5; ++p) {
        CHECK(result.row(p, 0).totals == result.row(0, 0).totals);
        CHECK(result.row(p, 0).values == whole({static_cast<std::int64_t>(p + 1)}));
    }
    // A larger burst lets more through, up to all twelve.
    CHECK(result.row(0, 1).totals.accepted < result.row(4, 1).totals.accepted);
    check_against_simulate(trace, params, result);
}

TEST_CASE("sweep: told to stop, it starts no more runs and says it was cancelled") {
    const auto trace = ticks({0, 1, 2, 3, 4, 5, 6, 7});
    const std::vector<SweepAxis> axes = {
        axis(SweepTarget::Kind::limit, whole({1, 2, 3, 4, 5, 6, 7, 8}))};
    RunControl control;
    std::size_t runs = 0;
    SweepOptions options;
    options.threads = 1;
    options.control = &control;
    options.progress = [&](std::size_t done, std::size_t) {
        runs = done;
        if (done == 2)
            control.stop = true;
    };
    CHECK_THROWS_AS(sweep(*trace, limits(3, 4), axes, options), SimulationCancelled);
    CHECK(runs == 2);
    // Not stopped, the same control lets every run through.
    control.stop = false;
    runs = 0;
    options.progress = [&](std::size_t done, std::size_t) { runs = done; };
    CHECK(sweep(*trace, limits(3, 4), axes, options).rows.size() == 8 * 6);
    CHECK(runs == 8 * 6);
}

TEST_CASE("sweep: without lanes, lane parameters pick their own algorithms") {
    const std::vector<SweepAxis> only_lanes = {
        axis(SweepTarget::Kind::lane_parameter, whole({1}), "gcra", "burst"),
        axis(SweepTarget::Kind::lane_parameter, whole({2}), "token_bucket", "capacity"),
        axis(SweepTarget::Kind::lane_parameter, whole({3}), "gcra", "burst")};
    const std::vector<Lane> lanes = sweep_lanes(limits(4, 10), only_lanes);
    REQUIRE(lanes.size() == 2);
    CHECK(lanes[0].algorithm == "gcra");
    CHECK(lanes[1].algorithm == "token_bucket");
    // Lanes of its own (the trace's, or --lane) come first.
    Params own = limits(4, 10);
    own.lanes = {Lane{"sliding_log", {}, {}, false}, Lane{"gcra", {}, {}, false}};
    CHECK(sweep_lanes(own, only_lanes) == own.lanes);
    const std::vector<SweepAxis> with_limit = {axis(SweepTarget::Kind::limit, whole({1}))};
    CHECK(sweep_lanes(limits(4, 10), with_limit).size() == default_lanes().size());
}

TEST_CASE("sweep: refuses what it cannot run, naming it") {
    const auto trace = default_trace();
    Params params = limits(4, 10);
    params.lanes = {Lane{"token_bucket", {}, {}, false}};
    const auto message = [&](const std::vector<SweepAxis>& axes) {
        try {
            (void)sweep(trace, params, axes);
        } catch (const SimulationError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    CHECK(message({axis(SweepTarget::Kind::lane_parameter, whole({1}), "gcra", "burst")}) ==
          "gcra.burst varies gcra, which no lane runs");
    CHECK(message({axis(SweepTarget::Kind::limit, {})}) == "limit has no values");
    CHECK(message({axis(SweepTarget::Kind::limit, whole({3, 0}))})
              .starts_with("point 2 (limit=0): limit must be between 1"));
    std::vector<ParamValue> many(101, Rational(1));
    CHECK(message({axis(SweepTarget::Kind::limit, many), axis(SweepTarget::Kind::window, many)}) ==
          "a sweep has at most 10000 points");
}

TEST_CASE("sweep: the 95th percentile is the nearest rank") {
    const struct {
        std::vector<std::int64_t> values;
        std::int64_t expected;
    } cases[] = {
        {{5}, 5},
        {{2, 1}, 2},  // rank ceil(1.9) = 2
        {{3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 19},  // rank 19
        {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}, 0},  // rank 20 of 21
    };
    for (const auto& c : cases) {
        std::vector<Rational> values(c.values.begin(), c.values.end());
        CHECK(percentile_95(values) == Rational(c.expected));
    }
    std::vector<Rational> none;
    CHECK(!percentile_95(none));
    std::vector<Rational> halves = {Rational(1, 2), Rational(3, 2)};
    CHECK(percentile_95(halves) == Rational(3, 2));
}

TEST_CASE("sweep: a shaper's 95th-percentile delay, counted or selected") {
    // Three requests on tick 0 through a queue that lets one unit out every D ticks: delays
    // 0, D and 2D. Few delays over a wide range are selected, many over a narrow one counted.
    const auto three = ticks({0, 0, 0});
    Params params = limits(4, 10);
    params.lanes = {Lane{"leaky_bucket", {{"queue_size", Rational(3)}}, {}, false}};
    const std::vector<SweepAxis> intervals = {axis(SweepTarget::Kind::lane_parameter,
                                                   {Rational(100), Rational(1, 3)}, "leaky_bucket",
                                                   "drain_interval")};
    const SweepResult few = sweep(*three, params, intervals);
    CHECK(few.row(0, 0).p95_delay == Rational(200));
    CHECK(few.row(1, 0).p95_delay == Rational(2, 3));
    CHECK(few.row(1, 0).totals.max_delay == Rational(2, 3));
    // Forty on one tick, one unit every 1/2 tick: delays 0, 1/2, ..., 39/2; the 38th is 37/2.
    TraceBuilder builder;
    for (int i = 0; i < 40; ++i)
        builder.add(5);
    params.lanes = {Lane{"leaky_bucket", {{"queue_size", Rational(40)}}, {}, false}};
    const SweepResult many = sweep(std::move(builder).take(), params,
                                   {axis(SweepTarget::Kind::lane_parameter, {Rational(1, 2)},
                                         "leaky_bucket", "drain_interval")});
    CHECK(many.row(0, 0).p95_delay == Rational(37, 2));
    CHECK(many.row(0, 0).totals.max_delay == Rational(39, 2));
}

TEST_CASE("smallest limits: each group of keys against its own share, worked by hand") {
    // Fixed window, W = 10, everything at tick 0: a window's worth at once. Keys a (5 requests)
    // and b (1) take the base limits; pro (3) has limits of its own.
    TraceBuilder builder;
    for (int i = 0; i < 5; ++i)
        builder.add(0, 1, "a");
    builder.add(0, 1, "b");
    for (int i = 0; i < 3; ++i)
        builder.add(0, 1, "pro");
    const Trace trace = std::move(builder).take();
    Params params;
    params.base = Limits{4, 10, {}};
    params.keys["pro"] = Limits{1, 10, {}};
    const Lane lane{"fixed_window", {}, {}, false};
    const std::vector<std::int64_t> candidates = {1, 2, 3, 4, 5, 6};

    // No rejections: a needs 5, pro needs 3.
    auto fits = smallest_limits(trace, params, lane, candidates, Rational(0));
    REQUIRE(fits.size() == 2);
    CHECK(fits[0].key.empty());
    CHECK_FALSE(fits[0].has_own_limits);
    CHECK(fits[0].requests == 6);
    CHECK(fits[0].limit == 5);
    CHECK(fits[1].key == "pro");
    CHECK(fits[1].has_own_limits);
    CHECK(fits[1].requests == 3);
    CHECK(fits[1].limit == 3);

    // At most 20%: L = 4 rejects one of a's six-with-b (1/6); pro at 2 rejects 1/3 > 20%.
    fits = smallest_limits(trace, params, lane, candidates, Rational(20));
    CHECK(fits[0].limit == 4);
    CHECK(fits[0].rejected_percent == Rational(100, 6));
    CHECK(fits[1].limit == 3);
    // At most 40%: pro at 2 (1 of 3 rejected) fits.
    fits = smallest_limits(trace, params, lane, candidates, Rational(40));
    CHECK(fits[1].limit == 2);
    CHECK(fits[1].rejected_percent == Rational(100, 3));

    // No candidate large enough: nothing, not the largest.
    fits = smallest_limits(trace, params, lane, {1, 2}, Rational(0));
    CHECK_FALSE(fits[0].limit.has_value());
    CHECK_FALSE(fits[1].limit.has_value());
}

TEST_CASE("sweep: the point of the document's own setting") {
    Params params = limits(4, 10);
    const std::vector<SweepAxis> axes = {
        axis(SweepTarget::Kind::limit, whole({2, 4, 6})),
        axis(SweepTarget::Kind::lane_parameter, whole({1, 2, 3, 4, 5, 6, 7, 8}), "token_bucket",
             "capacity")};
    Lane bucket{"token_bucket", {}, {}, false};
    // The capacity defaults to L = 4: the second limit, the fourth capacity.
    CHECK(sweep_point_of(axes, params, bucket) == 1 * 8 + 3);
    bucket.params["capacity"] = Rational(7);
    CHECK(sweep_point_of(axes, params, bucket) == 1 * 8 + 6);
    // An L the sweep never takes, or a lane the capacity axis is not about: no point.
    params.base.limit = 5;
    CHECK_FALSE(sweep_point_of(axes, params, bucket).has_value());
    params.base.limit = 6;
    CHECK(sweep_point_of(axes, params, bucket) == 2 * 8 + 6);
    CHECK_FALSE(sweep_point_of(axes, params, Lane{"gcra", {}, {}, false}).has_value());
    // The point's parameters are the setting again.
    const std::size_t point = *sweep_point_of(axes, params, bucket);
    Params at = params;
    at.lanes = {bucket};
    CHECK(sweep_point_params(at, axes, point).base.limit == 6);
}
