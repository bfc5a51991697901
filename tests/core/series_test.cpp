// The chart series: exact values on the default scenario and small hand-made traces, and
// agreement with the core's own state and bursts on seeded random traces. The series of some
// keys, and of each key, are in series_keys_test.cpp.
#include <algorithm>
#include <random>

#include "catch.h"
#include "ratelab/series.h"
#include "series_text.h"
#include "test_support.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

std::shared_ptr<const SimulationResult> default_result() {
    return simulate(std::make_shared<const Trace>(default_trace()), default_params());
}

Rational field(const LimiterState& state, const std::string& name) {
    for (const StateField& f : state.fields) {
        if (f.name == name)
            return f.value;
    }
    FAIL("no state field " << name);
    return {};
}

/// Accepted cost in (t - W, t], counted the slow way: arrivals, or released units for a shaper.
std::int64_t brute_load(const SimulationResult& result, const AlgorithmRun& run, Tick t) {
    const Trace& trace = *result.trace;
    const Tick w = result.params.base.window;
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& r = trace.requests[i];
        if (!run.accepted(i))
            continue;
        if (!run.releases) {
            sum += (r.tick > t - w && r.tick <= t) ? r.cost : 0;
            continue;
        }
        const Limits& limits = result.params.for_key(trace.key_name(r.key));
        const auto set = limits.override_of("leaky_bucket", "drain_interval");
        const Rational drain =
            set ? std::get<Rational>(*set) : Rational(limits.window, limits.limit);
        for (std::int64_t k = 0; k < r.cost; ++k) {
            const Tick leaves = (run.release(trace, i) - drain * Rational(k)).ceil();
            sum += (leaves > t - w && leaves <= t) ? 1 : 0;
        }
    }
    return sum;
}

}  // namespace

TEST_CASE("series: the default scenario's load, tick by tick") {
    const auto result = default_result();
    const ResultSeries series = compute_series(*result);
    CHECK(series.from == 6);
    CHECK(series.to == 31);  // the leaky bucket's last release at 21, plus W
    CHECK(series.limit == 4);
    CHECK(series.window == 10);
    // Ticks 4..24.
    CHECK(values(series.find("fixed_window")->load, 4, 24) ==
          "0 0 1 2 3 4 5 6 7 8 8 8 7 6 5 4 3 2 1 0 0");
    CHECK(values(series.find("sliding_log")->load, 4, 24) ==
          "0 0 1 2 3 4 4 4 4 4 4 4 3 2 1 0 0 0 0 0 0");
    CHECK(values(series.find("token_bucket")->load, 4, 24) ==
          "0 0 1 2 3 4 5 6 6 6 6 6 5 4 3 2 1 0 0 0 0");
    // Released at 6, 8.5, 11, 13.5, 16, 18.5, 21: counted at ticks 6, 9, 11, 14, 16, 19, 21.
    CHECK(values(series.find("leaky_bucket")->load, 4, 32) ==
          "0 0 1 1 1 2 2 3 3 3 4 4 4 4 4 4 4 4 4 4 3 3 2 2 2 1 1 0 0");
    for (const AlgorithmRun& run : result->runs) {
        INFO(run.id);
        CHECK(series.find(run.id)->load.max() == run.worst_burst.cost);
    }
}

TEST_CASE("series: the default scenario's cumulative totals") {
    const ResultSeries series = compute_series(*default_result());
    CHECK(values(series.find("fixed_window")->accepted, 5, 14) == "0 1 2 3 4 5 6 7 8 8");
    CHECK(series.find("fixed_window")->rejected.empty());
    CHECK(values(series.find("sliding_log")->accepted, 5, 14) == "0 1 2 3 4 4 4 4 4 4");
    CHECK(values(series.find("sliding_log")->rejected, 5, 14) == "0 0 0 0 0 1 2 3 4 4");
    CHECK(values(series.find("sliding_counter")->rejected, 5, 14) == "0 0 0 0 0 1 2 3 3 3");
}

TEST_CASE("series: the default scenario's leaky-bucket queue and delays") {
    const auto result = default_result();
    const ResultSeries series = compute_series(*result);
    const AlgorithmSeries& leaky = *series.find("leaky_bucket");
    CHECK(values(leaky.queue, 5, 22) == "0 0 1 2 2 3 3 4 4 3 3 2 2 2 1 1 0 0");
    for (Tick t = 0; t <= 35; ++t) {
        INFO("tick " << t);
        CHECK(Rational(leaky.queue.value_at(t)) ==
              field(state_at(*result, lane_of(*result, "leaky_bucket"), 0, t), "queued"));
    }
    const std::vector<PlotPoint> delays{{6, 0},  {7, 1.5},  {8, 3}, {9, 4.5},
                                        {10, 6}, {11, 7.5}, {12, 9}};
    CHECK(leaky.delays == delays);
    CHECK(series.find("token_bucket")->queue.empty());
    CHECK(series.find("token_bucket")->delays.empty());
}

TEST_CASE("series: token-bucket tokens and GCRA allowance coincide on the default scenario") {
    const auto result = default_result();
    const ResultSeries series = compute_series(*result);
    const AlgorithmSeries& tokens = *series.find("token_bucket");
    const AlgorithmSeries& allowance = *series.find("gcra");
    CHECK(tokens.level_capacity == 4);
    CHECK(allowance.level_capacity == 4);
    CHECK(tokens.level == allowance.level);
    // Full until 6, then -1 +0.4 per tick: 3, 2.4, 1.8, 1.2, 0.6, 0 after 6..11; 12 and 13 are
    // rejected, so it refills to 4 at 11 + 4 / 0.4 = 21.
    CHECK(tokens.level.value_at(5) == 4.0);
    CHECK(tokens.level.value_at(6) == 3.0);
    CHECK(tokens.level.value_at(8) == Approx(1.8).margin(1e-12));
    CHECK(tokens.level.value_at(11) == Approx(0.0).margin(1e-12));
    CHECK(tokens.level.value_at(16) == Approx(2.0).margin(1e-12));
    CHECK(tokens.level.value_at(21) == 4.0);
    CHECK(tokens.level.vertices.back() == PlotPoint{21, 4});
    for (Tick t = 0; t <= 30; ++t) {
        INFO("tick " << t);
        CHECK(tokens.level.value_at(static_cast<double>(t)) ==
              Approx(field(state_at(*result, lane_of(*result, "token_bucket"), 0, t), "tokens")
                         .to_double())
                  .margin(1e-9));
        CHECK(allowance.level.value_at(static_cast<double>(t)) ==
              Approx(
                  field(state_at(*result, lane_of(*result, "gcra"), 0, t), "allowance").to_double())
                  .margin(1e-9));
    }
    CHECK(series.find("sliding_log")->level.empty());
}

TEST_CASE("series: costs, and units released faster than one per tick") {
    // L = 4, W = 2: the leaky bucket drains one unit every 1/2 tick.
    const auto trace = make_trace({{0, 3, ""}, {0, 1, ""}, {1, 2, ""}, {5, 1, ""}});
    const auto result = simulate(trace, limits(4, 2));
    const ResultSeries series = compute_series(*result);
    const AlgorithmSeries& leaky = *series.find("leaky_bucket");
    // Units leave at 0, 0.5, 1 | 1.5 | 2, 2.5 | 5, counted at ticks 0, 1, 1, 2, 2, 3, 5.
    CHECK(values(leaky.load, 0, 7) == "1 3 4 3 1 1 1 0");
    // 4 units arrive at 0 and 2 at 1; 1 has left by 0, 3 by 1, 5 by 2, 6 by 3.
    CHECK(values(leaky.queue, 0, 6) == "3 3 1 0 0 0 0");
    for (Tick t = 0; t <= 8; ++t) {
        INFO("tick " << t);
        CHECK(Rational(leaky.queue.value_at(t)) ==
              field(state_at(*result, lane_of(*result, "leaky_bucket"), 0, t), "queued"));
    }
    const AlgorithmSeries& fixed = *series.find("fixed_window");
    CHECK(values(fixed.accepted, 0, 5) == "4 4 4 4 4 5");
    CHECK(values(fixed.rejected, 0, 5) == "0 2 2 2 2 2");
}

TEST_CASE("series: a costly release takes a bounded number of steps, never ahead of the units") {
    // Two keys, one request each of cost 10^6 (L = 10^6, W = 10^12): each queue lets a unit
    // through every 10^6 ticks, 10^6 of them. One step per unit would be 2 * 10^6 per series.
    TraceBuilder builder;
    builder.add(0, 1'000'000, "a");
    builder.add(500'000, 1'000'000, "b");
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()),
                                 limits(1'000'000, 1'000'000'000'000), {"leaky_bucket"});
    const ResultSeries series = compute_series(*result);
    const AlgorithmSeries& leaky = series.algorithms[0];
    CHECK(leaky.queue.ticks.size() <= 2 * static_cast<std::size_t>(kMaxReleaseSteps) + 2);
    CHECK(leaky.load.ticks.size() <= 4 * static_cast<std::size_t>(kMaxReleaseSteps) + 4);
    // Queued units as the state has them, against the series: never fewer, and equal where a
    // run of units ends (every 245th unit of key a here, at 245 * 10^6 - 10^6 ticks, ...).
    const std::int64_t per_run = (1'000'000 + kMaxReleaseSteps - 1) / kMaxReleaseSteps;
    for (const Tick t : {Tick{0}, Tick{1'000'000}, per_run * 1'000'000 - 1'000'000,
                         Tick{400'000'000'000}, Tick{999'999'000'000}, Tick{1'000'000'000'000}}) {
        INFO("tick " << t);
        std::int64_t queued = 0;
        for (KeyId key = 0; key < result->trace->keys.size(); ++key)
            queued += field(state_at(*result, 0, key, t), "queued").num();
        CHECK(leaky.queue.value_at(t) >= queued);
        CHECK(leaky.queue.value_at(t) <= queued + 2 * per_run);
    }
    CHECK(leaky.queue.value_at(1'000'000'000'000) == 0);
}

TEST_CASE("series: trailing sums over repeated and far-apart ticks") {
    const StepSeries sum = trailing_sum({0, 0, 3, 10}, {1, 2, 1, 5}, 5);
    CHECK(sum.ticks == std::vector<Tick>{0, 3, 5, 8, 10, 15});
    CHECK(sum.values == std::vector<std::int64_t>{3, 4, 1, 0, 5, 0});
    CHECK(trailing_sum({}, {}, 5).empty());
    // A window of one tick: each cost counts on its own tick only.
    CHECK(values(trailing_sum({2, 3}, {1, 1}, 1), 1, 5) == "0 1 1 0 0");
}

TEST_CASE("series: a trace spanning 10^12 ticks stays small") {
    const auto result = simulate(ticks({0, 1'000'000'000'000}), limits(1, 1'000'000));
    const ResultSeries series = compute_series(*result);
    CHECK(series.to == 1'000'000'000'000 + 1'000'000);
    const AlgorithmSeries& fixed = *series.find("fixed_window");
    CHECK(fixed.load.ticks.size() == 4);
    CHECK(fixed.load.value_at(999'999) == 1);
    CHECK(fixed.load.value_at(1'000'000) == 0);
    const std::vector<PlotPoint> line = decimate(fixed.load, 0.0, 2e12, 100);
    REQUIRE(line.size() >= 3);
    CHECK(line[0] == PlotPoint{0, 0});  // the jump at the first request
    CHECK(line[1] == PlotPoint{0, 1});
    CHECK(line.back() == PlotPoint{2e12, 0});
}

TEST_CASE("series: lanes computed side by side equal lanes computed one after another") {
    // Past the size where lanes get threads of their own, over keys with tiers of their own,
    // with some keys chosen and a line each for two of them.
    std::mt19937 random(static_cast<std::uint32_t>(base_seed() + 5));
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 30'000; ++i) {
        tick += random() % 3;
        builder.add(tick, static_cast<std::uint32_t>(1 + random() % 3),
                    std::string(1, static_cast<char>('a' + random() % 4)));
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params = limits(20, 50);
    params.keys["b"] = Limits{5, 10, {}};
    const auto result = simulate(trace, params);
    for (const std::vector<KeyId>& keys : {std::vector<KeyId>{}, std::vector<KeyId>{0, 1}}) {
        SeriesOptions options;
        options.keys = keys;
        options.key_lines = {1, 2};
        options.threads = 1;
        const ResultSeries alone = compute_series(*result, options);
        options.threads = 2;
        const ResultSeries side_by_side = compute_series(*result, options);
        REQUIRE(side_by_side.algorithms.size() == alone.algorithms.size());
        CHECK(side_by_side.to == alone.to);
        for (std::size_t lane = 0; lane < alone.algorithms.size(); ++lane) {
            const AlgorithmSeries& a = alone.algorithms[lane];
            const AlgorithmSeries& b = side_by_side.algorithms[lane];
            INFO(a.id << " over " << keys.size() << " chosen keys");
            CHECK(b.id == a.id);
            CHECK(b.load == a.load);
            CHECK(b.accepted == a.accepted);
            CHECK(b.rejected == a.rejected);
            CHECK(b.queue == a.queue);
            CHECK(b.delays == a.delays);
            CHECK(b.level == a.level);
            CHECK(b.by_key == a.by_key);
            CHECK(b.worst_burst.cost == a.worst_burst.cost);
            CHECK_FALSE(a.accepted.empty());
        }
    }
}

TEST_CASE("series: a stop asked for through the control cancels the computation") {
    const auto result = default_result();
    RunControl control;
    SeriesOptions options;
    options.control = &control;
    CHECK_NOTHROW(compute_series(*result, options));
    control.stop = true;
    CHECK_THROWS_AS(compute_series(*result, options), SimulationCancelled);
}

TEST_CASE("series: worst so far follows the load until the end, then the core's burst") {
    const ResultSeries series = compute_series(*default_result());
    const AlgorithmSeries& fixed = *series.find("fixed_window");
    CHECK(worst_so_far(fixed, 5, series.to) == 0);
    CHECK(worst_so_far(fixed, 9, series.to) == 4);
    CHECK(worst_so_far(fixed, 20, series.to) == 8);
    CHECK(worst_so_far(fixed, series.to, series.to) == 8);
}

TEST_CASE("series: runs without decisions give empty series but keep worst bursts") {
    RunOptions options;
    options.keep_decisions = false;
    const auto result =
        simulate(std::make_shared<const Trace>(default_trace()), default_params(), {}, options);
    const ResultSeries series = compute_series(*result);
    CHECK_FALSE(series.has_decisions);
    CHECK(series.find("fixed_window")->load.empty());
    CHECK(series.find("fixed_window")->worst_burst.cost == 8);
}

TEST_CASE("series: agree with the core's state and bursts on random traces") {
    const std::uint32_t seeds[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    for (const std::uint32_t seed : seeds) {
        INFO("seed " << seed);
        std::mt19937 random(seed);
        const auto pick = [&](int lo, int hi) {
            return std::uniform_int_distribution<int>(lo, hi)(random);
        };
        TraceBuilder builder;
        Tick tick = pick(0, 3);
        const int keys = pick(1, 3);
        for (int i = 0; i < 60; ++i) {
            tick += pick(0, 3);
            builder.add(tick, static_cast<std::uint32_t>(pick(1, 3)),
                        std::string(1, static_cast<char>('a' + pick(0, keys - 1))));
        }
        Params params = limits(pick(2, 6), pick(1, 12));
        if (seed % 3 == 0)
            params.base.set_override("leaky_bucket", "drain_interval",
                                     Rational(pick(1, 7), pick(1, 4)));
        if (seed % 4 == 0)
            params.base.set_override("token_bucket", "refill_rate",
                                     Rational(pick(1, 5), pick(1, 6)));
        const auto trace = std::make_shared<const Trace>(std::move(builder).take());
        const auto result = simulate(trace, params);
        const ResultSeries series = compute_series(*result);
        for (const AlgorithmRun& run : result->runs) {
            INFO(run.id);
            const AlgorithmSeries& s = *series.find(run.id);
            for (Tick t = series.from; t <= series.to + 2; ++t) {
                INFO("tick " << t);
                REQUIRE(s.load.value_at(t) == brute_load(*result, run, t));
            }
            if (!run.releases)
                CHECK(s.load.max() == run.worst_burst.cost);
            CHECK(s.load.max() <= run.worst_burst.cost);
            CHECK(s.accepted.value_at(series.to) == run.totals.accepted_cost);
            CHECK(s.rejected.value_at(series.to) == run.totals.rejected_cost);
        }
        const KeyId key = series.level_key;
        for (Tick t = series.from; t <= series.to; ++t) {
            INFO("tick " << t);
            Rational queued;
            for (KeyId k = 0; k < trace->keys.size(); ++k)
                queued = queued +
                         field(state_at(*result, lane_of(*result, "leaky_bucket"), k, t), "queued");
            REQUIRE(Rational(series.find("leaky_bucket")->queue.value_at(t)) == queued);
            const double time = static_cast<double>(t);
            REQUIRE(
                series.find("token_bucket")->level.value_at(time) ==
                Approx(field(state_at(*result, lane_of(*result, "token_bucket"), key, t), "tokens")
                           .to_double())
                    .margin(1e-9));
            REQUIRE(series.find("gcra")->level.value_at(time) ==
                    Approx(field(state_at(*result, lane_of(*result, "gcra"), key, t), "allowance")
                               .to_double())
                        .margin(1e-9));
        }
    }
}

TEST_CASE("decimate: few vertices come back exactly, framed by the range") {
    StepSeries steps;
    steps.ticks = {2, 5};
    steps.values = {3, 1};
    const std::vector<PlotPoint> expected{{0, 0}, {2, 0}, {2, 3}, {5, 3}, {5, 1}, {10, 1}};
    CHECK(decimate(steps, 0, 10, 100) == expected);
    const std::vector<PlotPoint> inner{{3, 3}, {5, 3}, {5, 1}, {6, 1}};
    CHECK(decimate(steps, 3, 6, 100) == inner);
    const std::vector<PlotPoint> zero{{0, 0}, {4, 0}};
    CHECK(decimate(StepSeries{}, 0, 4, 10) == zero);

    LevelSeries ramp;
    ramp.vertices = {{0, 0}, {10, 10}};
    const std::vector<PlotPoint> middle{{2.5, 2.5}, {7.5, 7.5}};
    CHECK(decimate(ramp, 2.5, 7.5, 10) == middle);
}

TEST_CASE("decimate: many vertices keep each column's lowest and highest value") {
    std::mt19937 random(42);
    StepSeries steps;
    for (Tick t = 0; t < 100'000; ++t) {
        steps.ticks.push_back(t);
        steps.values.push_back(std::uniform_int_distribution<std::int64_t>(0, 1000)(random) +
                               (t == 51'234 ? 5000 : 0));
    }
    const int columns = 200;
    const std::vector<PlotPoint> line = decimate(steps, 0, 100'000, columns);
    CHECK(line.size() <= 4 * columns + 2);
    CHECK(std::is_sorted(line.begin(), line.end(),
                         [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; }));
    // Every column's extremes survive: compare per column against the full series.
    for (int column = 0; column < columns; ++column) {
        const Tick lo = column * 500;
        std::int64_t low = steps.values[static_cast<std::size_t>(lo)];
        std::int64_t high = low;
        for (Tick t = lo; t < lo + 500; ++t) {
            low = std::min(low, steps.value_at(t));
            high = std::max(high, steps.value_at(t));
        }
        double drawn_low = 1e9;
        double drawn_high = -1e9;
        for (const PlotPoint& p : line) {
            if (p.x >= static_cast<double>(lo) && p.x < static_cast<double>(lo + 500)) {
                drawn_low = std::min(drawn_low, p.y);
                drawn_high = std::max(drawn_high, p.y);
            }
        }
        INFO("column " << column);
        CHECK(drawn_high == static_cast<double>(high));
        CHECK(drawn_low <= static_cast<double>(low));
    }
    CHECK(std::any_of(line.begin(), line.end(), [](const PlotPoint& p) { return p.y > 5000; }));
}

TEST_CASE("decimate: lines with block extremes draw as they do without them") {
    // Decimation takes whole blocks of a summarized line from their extremes: the same points
    // as reading every vertex, ties (the first lowest and highest) and all, for any span and
    // width, on lines with long flat stretches, repeated values and jumps.
    std::mt19937 random(7);
    auto pick = [&random](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(random);
    };
    for (int round = 0; round < 40; ++round) {
        StepSeries steps;
        LevelSeries level;
        Tick tick = 0;
        const std::int64_t spread = round % 4 == 0 ? 2 : 1000;  // few values: many ties
        const int changes = static_cast<int>(pick(1, 20'000));
        for (int c = 0; c < changes; ++c) {
            tick += pick(1, round % 3 == 0 ? 1 : 50);
            steps.ticks.push_back(tick);
            steps.values.push_back(pick(0, spread));
            level.vertices.push_back(
                PlotPoint{static_cast<double>(tick), static_cast<double>(pick(0, spread))});
            if (pick(0, 9) == 0)  // a jump: two vertices at one x
                level.vertices.push_back(PlotPoint{static_cast<double>(tick), 0.5});
        }
        StepSeries summarized_steps = steps;
        LevelSeries summarized_level = level;
        summarized_steps.summarize();
        summarized_level.summarize();
        REQUIRE(!summarized_steps.extremes.empty());
        for (int view = 0; view < 6; ++view) {
            const double from = static_cast<double>(pick(0, tick / 2));
            const double to = from + static_cast<double>(pick(1, tick + 10));
            const int columns = static_cast<int>(pick(1, 1500));
            INFO("round " << round << ", " << changes << " changes, span " << from << " to " << to
                          << ", " << columns << " columns");
            CHECK(decimate(summarized_steps, from, to, columns) ==
                  decimate(steps, from, to, columns));
            CHECK(decimate(summarized_level, from, to, columns) ==
                  decimate(level, from, to, columns));
        }
    }
}

TEST_CASE("decimate: scattered points keep the lowest and highest per column") {
    std::vector<PlotPoint> points;
    for (int i = 0; i < 10'000; ++i)
        points.push_back(PlotPoint{i * 0.01, static_cast<double>(i % 97)});
    const std::vector<PlotPoint> kept = decimate(points, 0, 100, 10);
    CHECK(kept.size() <= 20);
    CHECK(std::count_if(kept.begin(), kept.end(), [](const PlotPoint& p) { return p.y == 96; }) ==
          10);
    CHECK(decimate(points, 0, 0.05, 10).size() == 6);  // few in range: all kept
}
