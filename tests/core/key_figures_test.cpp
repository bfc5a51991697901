// Per-key figures (ratelab/key_figures.h): hand-worked cases with tiers, and on seeded random
// traces the figures of every key equal a simulation of that key's requests alone under its
// own tier, whole and for prefixes. A failure prints the seed; set RATELAB_PROPERTY_SEED to
// replay one.
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;
using namespace ratelab::test;

namespace {

std::string key_of(const SimulationResult& result, const KeyFigures& figures) {
    return result.trace->key_name(figures.key);
}

/// Two requests a tick for five ticks from each of three keys: free (L = 2), pro (L = 8) and
/// guest, which has no tier (L = 4): bundled as traces/key-tiers.json.
std::shared_ptr<const SimulationResult> key_tiers(const std::string& algorithm) {
    TraceBuilder builder;
    for (Tick tick = 0; tick < 5; ++tick) {
        for (const char* key : {"free", "pro", "guest"}) {
            builder.add(tick, 1, key);
            builder.add(tick, 1, key);
        }
    }
    Params params = limits(4, 10);
    params.keys["free"].limit = 2;
    params.keys["pro"].limit = 8;
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), params, {algorithm});
}

}  // namespace

TEST_CASE("each key is judged against its own tier, not the sum against the trace's L") {
    const auto result = key_tiers("sliding_log");
    // Summed over keys the log let through 2 + 8 + 4 in ten ticks: more than the trace's L = 4.
    CHECK(result->runs[0].worst_burst.cost == 14);
    const LaneKeys lane = key_figures(*result, 0);
    REQUIRE(lane.keys.size() == 3);
    CHECK(key_of(*result, lane.keys[0]) == "free");
    CHECK(key_of(*result, lane.keys[1]) == "guest");
    CHECK(key_of(*result, lane.keys[2]) == "pro");
    const std::int64_t accepted[] = {2, 4, 8};
    for (std::size_t i = 0; i < 3; ++i) {
        const KeyFigures& key = lane.keys[i];
        CHECK(key.requests == 10);
        CHECK(key.limit == accepted[i]);
        CHECK(key.window == 10);
        CHECK(key.totals.accepted == accepted[i]);
        CHECK(key.totals.rejected == 10 - accepted[i]);
        CHECK(key.totals.rejected_cost == 10 - accepted[i]);
        CHECK(key.worst_burst == Burst{accepted[i], Rational(0)});
        CHECK_FALSE(key.over_limit());
    }
    CHECK_FALSE(lane.over_limit);
    // All three used their whole limit: the first by name is the worst.
    REQUIRE(lane.worst_key() != nullptr);
    CHECK(key_of(*result, *lane.worst_key()) == "free");
}

TEST_CASE("a key over its own limit is the lane's worst, relative to its L") {
    // The fixed window lets free's 2 through at ticks 8 and 9 and 2 more at 10 and 11: 4 in
    // ten ticks against its L of 2. Pro's 8 (at most) and guest's 4 stay within theirs.
    TraceBuilder builder;
    for (Tick tick : {8, 9, 10, 11}) {
        builder.add(tick, 1, "free");
        builder.add(tick, 2, "pro");
    }
    Params params = limits(4, 10);
    params.keys["free"].limit = 2;
    params.keys["pro"].limit = 8;
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params,
                                 {"fixed_window"});
    const LaneKeys lane = key_figures(*result, 0);
    REQUIRE(lane.keys.size() == 2);
    CHECK(lane.keys[0].worst_burst == Burst{4, Rational(8)});
    CHECK(lane.keys[0].over_limit());
    CHECK(lane.keys[1].worst_burst.cost == 8);  // 2 + 2 before tick 10, 2 + 2 after
    CHECK_FALSE(lane.keys[1].over_limit());
    CHECK(lane.over_limit);
    REQUIRE(lane.worst_key() != nullptr);
    CHECK(key_of(*result, *lane.worst_key()) == "free");  // 4/2 beats pro's 8/8
}

TEST_CASE("some keys alone: their figures, their worst and their sum") {
    // The fixed window on free (over its L of 2) and pro, as above, with a quiet guest.
    TraceBuilder builder;
    for (Tick tick : {8, 9, 10, 11}) {
        builder.add(tick, 1, "free");
        builder.add(tick, 2, "pro");
    }
    builder.add(12, 3, "guest");
    Params params = limits(4, 10);
    params.keys["free"].limit = 2;
    params.keys["pro"].limit = 8;
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params,
                                 {"fixed_window"});
    const Trace& trace = *result->trace;
    const LaneKeys lane = key_figures(*result, 0);
    REQUIRE(lane.keys.size() == 3);
    std::vector<char> shown(trace.keys.size(), 0);
    shown[*trace.find_key("pro")] = 1;
    shown[*trace.find_key("guest")] = 1;
    const LaneKeys some = only_keys(lane, shown);
    REQUIRE(some.keys.size() == 2);
    CHECK(key_of(*result, some.keys[0]) == "guest");
    CHECK(key_of(*result, some.keys[1]) == "pro");
    CHECK(some.keys[1] == lane.keys[2]);
    // Without free, nobody is over: pro's 8 of 8 beats guest's 3 of 4.
    CHECK_FALSE(some.over_limit);
    REQUIRE(some.worst_key() != nullptr);
    CHECK(key_of(*result, *some.worst_key()) == "pro");
    const Totals sum = sum_totals(some);
    CHECK(sum.accepted == 5);  // pro's four and guest's one
    CHECK(sum.accepted_cost == 11);
    CHECK(sum.rejected == 0);
    CHECK(sum_totals(lane) == result->runs[0].totals);
    // A mask shorter than the key table, or empty, keeps only what it names.
    CHECK(only_keys(lane, {}).keys.empty());
    CHECK_FALSE(only_keys(lane, {}).worst);
}

TEST_CASE("a key's worst burst is counted over its own window") {
    // free: L = 2 per W = 5. Two requests at 0 and two at 5 are all accepted by the fixed
    // window: 2 in any five ticks, though 4 in the trace's ten.
    const auto trace = make_trace({{0, 1, "free"}, {0, 1, "free"}, {5, 1, "free"}, {5, 1, "free"}});
    Params params = limits(4, 10);
    params.keys["free"].limit = 2;
    params.keys["free"].window = 5;
    const auto result = simulate(trace, params, {"fixed_window"});
    CHECK(result->runs[0].worst_burst.cost == 4);
    const LaneKeys lane = key_figures(*result, 0);
    REQUIRE(lane.keys.size() == 1);
    CHECK(lane.keys[0].window == 5);
    CHECK(lane.keys[0].totals.accepted == 4);
    CHECK(lane.keys[0].worst_burst.cost == 2);
    CHECK_FALSE(lane.over_limit);
}

TEST_CASE("a shaper's key figures count the units it let through, and its longest delay") {
    // L = 2 per 10 ticks: a queue of 2 units, one let through every 5 ticks. Key a's three
    // requests at tick 0 leave at 0, 5 and 10; at tick 1 its queue is full. b's one request
    // leaves at once: each key has its own queue.
    const auto trace =
        make_trace({{0, 1, "a"}, {0, 1, "a"}, {0, 1, "b"}, {0, 1, "a"}, {1, 1, "a"}});
    const auto result = simulate(trace, limits(2, 10), {"leaky_bucket"});
    const LaneKeys lane = key_figures(*result, 0);
    REQUIRE(lane.keys.size() == 2);
    const KeyFigures& a = lane.keys[0];
    CHECK(a.totals.accepted == 3);
    CHECK(a.totals.rejected == 1);
    CHECK(a.totals.max_delay == Rational(10));
    CHECK(a.worst_burst == Burst{2, Rational(0)});
    CHECK(lane.keys[1].totals.max_delay == Rational(0));
    // By tick 3 only a's first unit has left.
    const LaneKeys by3 = key_figures(*result, 0, KeyScope{{}, Tick{3}});
    CHECK(by3.keys[0].worst_burst.cost == 1);
}

TEST_CASE("a trace of one key has its figures without decisions") {
    const auto trace = make_trace({{0, 1, "solo"}, {1, 1, "solo"}, {2, 3, "solo"}, {9, 1, "solo"}});
    Params params = limits(4, 10);
    params.keys["solo"].limit = 3;
    RunOptions summary;
    summary.keep_decisions = false;
    const auto kept = simulate(trace, params);
    const auto bare = simulate(trace, params, {}, summary);
    for (std::size_t lane = 0; lane < kept->runs.size(); ++lane) {
        INFO(kept->runs[lane].id);
        REQUIRE(has_key_figures(*bare, lane));
        const LaneKeys from_decisions = key_figures(*kept, lane);
        CHECK(key_figures(*bare, lane) == from_decisions);
        CHECK(from_decisions.keys.at(0).limit == 3);
        // A prefix needs the prefix's run.
        CHECK_THROWS_AS(key_figures(*bare, lane, KeyScope{2, {}}), SimulationError);
        const auto head = simulate_prefix(*kept, 2);
        CHECK(key_figures(*bare, lane, KeyScope{2, {}}, &head->runs[lane]) ==
              key_figures(*kept, lane, KeyScope{2, {}}));
    }
    // Two keys, or one with a W of its own, need the decisions.
    params.keys["solo"].window = 5;
    CHECK_FALSE(has_key_figures(*simulate(trace, params, {}, summary), 0));
    CHECK_THROWS_AS(key_figures(*simulate(trace, params, {}, summary), 0), SimulationError);
}

namespace {

/// `result` restricted to the first `count` requests of key `name`, simulated alone under the
/// key's own tier (so that the worst burst is counted over its W).
std::shared_ptr<const SimulationResult> alone(const SimulationResult& result,
                                              const std::string& name, std::size_t count,
                                              std::optional<Tick> released_by) {
    TraceBuilder builder;
    for (std::size_t i = 0; i < count; ++i) {
        const Request& r = result.trace->requests[i];
        if (result.trace->key_name(r.key) == name)
            builder.add(r.tick, r.cost, name);
    }
    Params own;
    own.base = result.params.for_key(name);
    own.rejections_count = result.params.rejections_count;
    own.lanes = result.lanes;
    const auto whole = simulate(std::make_shared<const Trace>(std::move(builder).take()), own);
    return released_by ? simulate_prefix(*whole, whole->trace->requests.size(), released_by)
                       : whole;
}

}  // namespace

TEST_CASE("every key's figures equal its requests simulated alone under its tier") {
    const std::uint64_t seed = base_seed();
    for (std::uint64_t n = 0; n < 120; ++n) {
        std::mt19937_64 rng(seed + n);
        auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
            return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
        };
        Params params = limits(pick(1, 6), std::vector<Tick>{1, 3, 10, 25}[pick(0, 3)]);
        params.rejections_count = pick(0, 3) == 0;
        // Past kCheckpointedKeys keys, half the rounds count key by key from an index.
        const int keys = static_cast<int>(pick(1, 8));
        for (int k = 1; k < keys; ++k) {
            if (pick(0, 1) == 1) {
                Limits& tier = params.keys["k" + std::to_string(k)];
                tier.limit = pick(1, 8);
                tier.window = std::vector<Tick>{1, 4, 10, 30}[pick(0, 3)];
            }
        }
        for (const AlgorithmInfo* info : Registry::instance().all())
            params.lanes.push_back(Lane{info->id, {}, {}, false});
        TraceBuilder builder;
        Tick tick = 0;
        const std::int64_t requests = pick(1, 200);
        for (std::int64_t i = 0; i < requests; ++i) {
            tick += pick(0, 3) == 0 ? pick(0, 20) : pick(0, 1);
            const std::int64_t key = pick(0, keys - 1);
            builder.add(tick, static_cast<std::uint32_t>(pick(0, 5) == 0 ? pick(1, 6) : 1),
                        key == 0 ? std::string() : "k" + std::to_string(key));
        }
        RunOptions options;
        options.index_keys = n % 2 == 1;
        const auto result =
            simulate(std::make_shared<const Trace>(std::move(builder).take()), params, {}, options);
        const std::size_t total = result->trace->requests.size();
        const std::size_t count =
            static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(total)));
        const std::optional<Tick> released_by =
            pick(0, 1) == 1 ? std::optional<Tick>(pick(0, tick + 10)) : std::nullopt;
        for (const auto& [scope_count, scope_by] :
             {std::pair{total, std::optional<Tick>()}, std::pair{count, released_by}}) {
            INFO("seed " << seed + n << ", first " << scope_count << " requests, "
                         << (result->runs.front().key_index ? "by key" : "in order"));
            for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
                INFO(result->runs[lane].id);
                const LaneKeys figures =
                    key_figures(*result, lane, KeyScope{scope_count, scope_by});
                bool over = false;
                for (const KeyFigures& key : figures.keys) {
                    const std::string& name = result->trace->key_name(key.key);
                    INFO("key \"" << name << "\"");
                    const auto own = alone(*result, name, scope_count, scope_by);
                    const AlgorithmRun& run = own->runs[lane];
                    CHECK(key.requests == static_cast<std::int64_t>(own->trace->requests.size()));
                    CHECK(key.totals == run.totals);
                    CHECK(key.worst_burst == run.worst_burst);
                    CHECK(key.limit == result->params.for_key(name).limit);
                    over = over || run.worst_burst.cost > key.limit;
                }
                CHECK(figures.over_limit == over);
            }
        }
    }
}

TEST_CASE("key figures read every chunk of decisions, also after an edit shared some") {
    // Long enough for several chunks of decisions; the edit's re-run shares the chunks before
    // and after the requests it inserted, so the chunks it writes are of uneven sizes.
    std::mt19937_64 rng(base_seed());
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 20'000; ++i) {
        tick += static_cast<Tick>(rng() % 3);
        builder.add(tick, 1 + static_cast<std::uint32_t>(rng() % 8 == 0 ? rng() % 4 : 0),
                    "k" + std::to_string(rng() % 7));
    }
    Params params = limits(6, 10);
    params.keys["k3"].limit = 2;
    params.keys["k5"].window = 40;
    for (const AlgorithmInfo* info : Registry::instance().all())
        params.lanes.push_back(Lane{info->id, {}, {}, false});
    const auto before = simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    Trace edited = *before->trace;
    const std::size_t at = 9'000;
    const Tick edited_tick = edited.requests[at].tick;
    const KeyId k3 = *edited.find_key("k3");
    for (int i = 0; i < 300; ++i)
        edited.requests.insert(edited.requests.begin() + at, Request{edited_tick, 1, k3});
    const std::size_t tail = before->trace->requests.size() - at;
    const auto after = resimulate(*before, std::make_shared<const Trace>(std::move(edited)), {},
                                  TraceChange{at, tail});
    REQUIRE(after->runs.front().decisions.chunk_count() > 4);
    const std::size_t total = after->trace->requests.size();
    for (const std::size_t count : {total, std::size_t{12'345}}) {
        INFO("first " << count << " requests");
        for (std::size_t lane = 0; lane < after->runs.size(); ++lane) {
            INFO(after->runs[lane].id);
            const LaneKeys figures = key_figures(*after, lane, KeyScope{count, {}});
            CHECK(figures.keys.size() == 7);
            for (const KeyFigures& key : figures.keys) {
                const std::string& name = after->trace->key_name(key.key);
                INFO("key \"" << name << "\"");
                const auto own = alone(*after, name, count, std::nullopt);
                CHECK(key.requests == static_cast<std::int64_t>(own->trace->requests.size()));
                CHECK(key.totals == own->runs[lane].totals);
                CHECK(key.worst_burst == own->runs[lane].worst_burst);
            }
        }
    }
}

TEST_CASE("every lane counted at once from the key index equals each lane counted in order") {
    // Enough requests for two threads, one key with several batches of requests (a key's
    // requests run on from one batch into the next) and tiers with their own L and W (a
    // shaper's units at their own spacing). Counted in trace order, by a run without an index,
    // the figures must be the same.
    const std::uint64_t seed = base_seed() + 2;
    for (std::uint64_t n = 0; n < 4; ++n) {
        std::mt19937_64 rng(seed + n);
        TraceBuilder builder;
        Tick tick = 0;
        for (int i = 0; i < 30'000; ++i) {
            tick += static_cast<Tick>(rng() % 3);
            const bool busy = rng() % 3 == 0;  // a third of the requests on k0
            builder.add(tick, 1 + static_cast<std::uint32_t>(rng() % 6 == 0 ? rng() % 5 : 0),
                        busy ? "k0" : "k" + std::to_string(1 + rng() % 40));
        }
        Params params = limits(5, 12);
        params.keys["k0"].limit = 40;
        params.keys["k3"].window = 30;
        params.keys["k7"].limit = 3;
        params.keys["k7"].window = 7;
        params.keys["k8"].limit = 1;
        for (const AlgorithmInfo* info : Registry::instance().all())
            params.lanes.push_back(Lane{info->id, {}, {}, false});
        const auto trace = std::make_shared<const Trace>(std::move(builder).take());
        RunOptions indexed;
        indexed.index_keys = true;
        const auto by_key = simulate(trace, params, {}, indexed);
        const auto in_order = simulate(trace, params);
        REQUIRE(by_key->runs.front().key_index);
        REQUIRE_FALSE(in_order->runs.front().key_index);
        const std::size_t total = trace->requests.size();
        const std::size_t some = static_cast<std::size_t>(rng() % total);
        const Tick clock = trace->requests[some].tick;
        for (const KeyScope& scope : {KeyScope{}, KeyScope{some, clock}, KeyScope{total, clock}}) {
            INFO("seed " << seed + n << ", first " << scope.count.value_or(total)
                         << " requests, clock " << scope.released_by.value_or(-1));
            const auto lanes = every_lane_key_figures(*by_key, scope);
            REQUIRE(lanes.size() == in_order->runs.size());
            for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
                INFO(in_order->runs[lane].id);
                REQUIRE(lanes[lane]);
                const LaneKeys expected = key_figures(*in_order, lane, scope);
                CHECK(lanes[lane]->keys.size() == expected.keys.size());
                CHECK(*lanes[lane] == expected);
            }
        }
    }
}

TEST_CASE("keys with a dozen different windows are each counted over their own") {
    // More different windows than the one-pass count follows side by side: counted key by key.
    std::mt19937_64 rng(base_seed() + 1);
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 3'000; ++i) {
        tick += static_cast<Tick>(rng() % 2);
        builder.add(tick, 1 + static_cast<std::uint32_t>(rng() % 3),
                    "k" + std::to_string(rng() % 12));
    }
    Params params = limits(5, 7);
    for (int k = 0; k < 12; ++k)
        params.keys["k" + std::to_string(k)].window = 1 + 3 * k;
    for (const AlgorithmInfo* info : Registry::instance().all())
        params.lanes.push_back(Lane{info->id, {}, {}, false});
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    const std::size_t total = result->trace->requests.size();
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        INFO(result->runs[lane].id);
        const LaneKeys figures = key_figures(*result, lane);
        CHECK(figures.keys.size() == 12);
        for (const KeyFigures& key : figures.keys) {
            const std::string& name = result->trace->key_name(key.key);
            INFO("key \"" << name << "\"");
            const auto own = alone(*result, name, total, std::nullopt);
            CHECK(key.window == params.keys[name].window);
            CHECK(key.totals == own->runs[lane].totals);
            CHECK(key.worst_burst == own->runs[lane].worst_burst);
        }
    }
}

TEST_CASE("a lane's headline burst is its worst key's, or a sum held to no limit") {
    const auto kept = key_tiers("token_bucket");
    const LaneKeys keys = key_figures(*kept, 0);
    const JudgedBurst worst = judged_burst(*kept, 0, &keys, kept->runs[0]);
    REQUIRE(worst.key.has_value());
    CHECK(kept->trace->key_name(*worst.key) == "guest");
    CHECK(worst.burst.cost == 5);  // a bucket of 4 and 0.4 a tick for four ticks
    CHECK(worst.limit == 4);
    CHECK(worst.over_limit());
    CHECK_FALSE(kept->sole_key.has_value());
    // A summary over several keys has no key figures: its sum is compared with nothing.
    RunOptions summary;
    summary.keep_decisions = false;
    const auto bare = simulate(kept->trace, kept->params, {"token_bucket"}, summary);
    REQUIRE_FALSE(has_key_figures(*bare, 0));
    const JudgedBurst sum = judged_burst(*bare, 0, nullptr, bare->runs[0]);
    CHECK(sum.burst.cost == bare->runs[0].worst_burst.cost);
    CHECK(sum.limit == 0);
    CHECK_FALSE(sum.over_limit());
}

TEST_CASE("what each key's state costs: fixed numbers, a log's timestamps, a queue's requests") {
    // The boundary burst: ticks 6 to 13, L = 4 per 10 ticks. The log remembers the four it
    // accepted (6 to 9); counting rejections too it remembers all eight.
    const auto trace = ticks({6, 7, 8, 9, 10, 11, 12, 13});
    for (const bool counted : {false, true}) {
        INFO("rejections count " << counted);
        Params params = limits(4, 10);
        params.rejections_count = counted;
        const auto result = simulate(trace, params);
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            const std::string& id = result->runs[lane].id;
            INFO(id);
            const LaneKeys keys = key_figures(*result, lane);
            const auto cost = state_cost(*result, lane, keys);
            REQUIRE(cost.has_value());
            REQUIRE(cost->peaks.size() == 1);
            CHECK(cost->total == cost->peaks[0]);
            if (id == "sliding_log") {
                CHECK(cost->peaks[0] == (counted ? 8 : 4));
                CHECK(cost->most_per_key ==
                      (counted ? std::nullopt : std::optional<std::int64_t>(4)));
            } else if (id == "leaky_bucket") {
                // One unit every 2.5 ticks: at tick 12 the requests of 9 to 12 wait, to leave
                // at 13.5, 16, 18.5 and 21, a full queue of 4 (13's is turned away).
                CHECK(cost->peaks[0] == 1 + 4);
                CHECK(cost->most_per_key == 1 + 4);
            } else {
                const std::int64_t fixed = id == "sliding_counter" ? 3 : id == "gcra" ? 1 : 2;
                CHECK(cost->peaks[0] == fixed);
                CHECK(cost->most_per_key == fixed);
            }
        }
    }
}

TEST_CASE("the state cost sums every key's peak, each counted over its own window") {
    // a: five at tick 0 under L = 8 (its tier); b: one at 0 and one at 5 under the trace's
    // L = 4 per W = 10. The log holds 5 timestamps for a, and 2 for b at tick 5.
    const auto trace = make_trace({{0, 1, "a"},
                                   {0, 1, "a"},
                                   {0, 1, "b"},
                                   {0, 1, "a"},
                                   {0, 1, "a"},
                                   {0, 1, "a"},
                                   {5, 1, "b"}});
    Params params = limits(4, 10);
    params.keys["a"].limit = 8;
    const auto result = simulate(trace, params, {"sliding_log", "fixed_window"});
    const auto log = state_cost(*result, 0, key_figures(*result, 0));
    REQUIRE(log.has_value());
    CHECK(log->peaks == std::vector<std::int64_t>{5, 2});
    CHECK(log->total == 7);
    const auto window = state_cost(*result, 1, key_figures(*result, 1));
    REQUIRE(window.has_value());
    CHECK(window->total == 4);  // two numbers for each of two keys
    // A prefix: before tick 5, b has one timestamp.
    const KeyScope head{6, {}};
    CHECK(state_cost(*result, 0, key_figures(*result, 0, head), head)->peaks ==
          std::vector<std::int64_t>{5, 1});
    // Without decisions a log cannot be counted; fixed numbers still can.
    RunOptions summary;
    summary.keep_decisions = false;
    const auto one_key = simulate(ticks({1, 2}), limits(4, 10), {"sliding_log", "gcra"}, summary);
    CHECK_FALSE(state_cost(*one_key, 0, key_figures(*one_key, 0)).has_value());
    CHECK(state_cost(*one_key, 1, key_figures(*one_key, 1))->total == 1);
}
