// Key figures counted again only where they change (ratelab/key_figures.h): after an edit, the
// keys it touched; after a clock step, the keys it passed and a shaper's keys whose units left
// meanwhile. On seeded random traces, each must equal counting every key. A failure prints the
// seed; set RATELAB_PROPERTY_SEED to replay one.
#include <algorithm>
#include <random>

#include "catch.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using namespace ratelab::test;

TEST_CASE("after an edit only the touched keys are counted again, with the same figures") {
    const std::uint64_t seed = base_seed();
    for (std::uint64_t round = 0; round < 8; ++round) {
        INFO("seed " << seed + round);
        std::mt19937_64 rng(seed + round);
        TraceBuilder builder;
        for (int k = 0; k < 12; ++k)
            builder.intern("k" + std::to_string(k));  // k11 has no request yet
        Tick tick = 0;
        for (int i = 0; i < 6'000; ++i) {
            tick += static_cast<Tick>(rng() % 3);
            builder.add(tick, 1 + static_cast<std::uint32_t>(rng() % 3),
                        "k" + std::to_string(rng() % 10));
        }
        builder.add(tick, 1, "k10");  // k10's only request
        Params params = limits(3 + static_cast<std::int64_t>(rng() % 5), 8);
        params.keys["k2"].limit = 2;
        params.keys["k4"].window = 30;
        for (const AlgorithmInfo* info : Registry::instance().all())
            params.lanes.push_back(Lane{info->id, {}, {}, false});
        // Half the rounds count the touched keys by key from an index, half by reading the trace.
        RunOptions options;
        options.index_keys = round % 2 == 1;
        auto result =
            simulate(std::make_shared<const Trace>(std::move(builder).take()), params, {}, options);
        auto keys = every_lane_key_figures(*result);
        for (int edit = 0; edit < 5; ++edit) {
            INFO("edit " << edit);
            Trace trace = *result->trace;
            const std::size_t at = rng() % (trace.requests.size() - 1);
            if (edit == 0) {  // the last request of k10 goes
                trace.requests.erase(trace.requests.end() - 1);
            } else if (edit == 1) {  // k11's first request comes
                trace.requests.insert(trace.requests.begin() + static_cast<std::ptrdiff_t>(at),
                                      Request{trace.requests[at].tick, 2, 11});
            } else if (edit == 2) {
                trace.requests.erase(trace.requests.begin() + static_cast<std::ptrdiff_t>(at));
            } else {
                trace.requests[at].cost = trace.requests[at].cost % 3 + 1;
                trace.requests[at].key = static_cast<KeyId>(rng() % 12);
            }
            const auto edited =
                resimulate(*result, std::make_shared<const Trace>(std::move(trace)), options);
            const auto patched = every_lane_key_figures_after_edit(*edited, *result, keys);
            CHECK(patched == every_lane_key_figures(*edited));
            result = edited;
            keys = patched;
        }
        // Figures of another result than the one edited are not taken: all are counted again.
        const auto other = simulate(result->trace, limits(1, 3));
        CHECK(every_lane_key_figures_after_edit(*result, *other, every_lane_key_figures(*other)) ==
              every_lane_key_figures(*result));
    }
}

TEST_CASE("after an edit the worst key is found among the untouched worst and the touched keys") {
    // Keys under one tier (L 2, W 10) on a fixed window, with an index as the app keeps it.
    RunOptions options;
    options.index_keys = true;
    const auto run = [&](const std::vector<std::pair<Tick, const char*>>& requests) {
        TraceBuilder builder;
        for (const auto& [tick, key] : requests)
            builder.add(tick, 1, key);
        return simulate(std::make_shared<const Trace>(std::move(builder).take()), limits(2, 10),
                        {"fixed_window"}, options);
    };
    // `result` with requests of `key` added at `ticks`: its figures counted after the edit,
    // checked against counting every key.
    const auto edited = [&](const std::shared_ptr<const SimulationResult>& result, const char* key,
                            const std::vector<Tick>& ticks) {
        Trace trace = *result->trace;
        const KeyId id = *trace.find_key(key);
        for (const Tick tick : ticks) {
            const auto at = std::upper_bound(trace.requests.begin(), trace.requests.end(), tick,
                                             [](Tick t, const Request& r) { return t < r.tick; });
            trace.requests.insert(at, Request{tick, 1, id});
        }
        const auto after = resimulate(*result, std::make_shared<const Trace>(std::move(trace)));
        auto patched =
            every_lane_key_figures_after_edit(*after, *result, every_lane_key_figures(*result));
        CHECK(patched == every_lane_key_figures(*after));
        return std::move(*patched[0]);
    };
    const auto worst_of = [](const std::shared_ptr<const SimulationResult>& result,
                             const LaneKeys& keys) {
        return result->trace->key_name(keys.worst_key()->key);
    };
    // "c" has the worst burst, 2; "a", "b" and "d" have 1.
    const auto ties = run({{0, "a"}, {0, "b"}, {0, "c"}, {1, "c"}, {2, "d"}});
    REQUIRE(worst_of(ties, *every_lane_key_figures(*ties)[0]) == "c");
    // "a" ties with "c" and comes first by name: it is the worst now.
    const LaneKeys a_ties = edited(ties, "a", {1});
    CHECK(worst_of(ties, a_ties) == "a");
    CHECK_FALSE(a_ties.over_limit);
    // "d" ties with "c" but comes after it: "c" stays the worst.
    CHECK(worst_of(ties, edited(ties, "d", {3})) == "c");
    // "d" gets two in the window at 10 after one at 9: four within W, over its L of 2.
    const LaneKeys d_over = edited(ties, "d", {9, 10, 11});
    CHECK(worst_of(ties, d_over) == "d");
    CHECK(d_over.over_limit);

    // "c" is over its L (two at 8 and 9, two more at 10 and 11) and stays so when "a" changes.
    const auto over = run({{0, "a"}, {0, "b"}, {8, "c"}, {9, "c"}, {10, "c"}, {11, "c"}});
    const LaneKeys a_grows = edited(over, "a", {1});
    CHECK(worst_of(over, a_grows) == "c");
    CHECK(a_grows.over_limit);
}

TEST_CASE("after an edit the figures share every chunk but those of the touched keys") {
    // 3,000 keys with ten requests each, and one with one: three chunks of figures a lane.
    constexpr int kKeys = 3'000;
    TraceBuilder builder;
    for (int round = 0; round < 10; ++round) {
        for (int k = 0; k < kKeys; ++k)
            builder.add(round * 10, 1 + static_cast<std::uint32_t>(k % 3),
                        "key" + std::to_string(k));
    }
    builder.add(100, 1, "a-solo");  // the last request, of the key first by name
    RunOptions options;
    options.index_keys = true;
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()),
                                 limits(2, 10), {}, options);
    const auto keys = every_lane_key_figures(*result);
    const std::size_t chunks =
        (kKeys + SharedColumn<KeyFigures>::kChunk - 1) / SharedColumn<KeyFigures>::kChunk;
    REQUIRE(chunks == 3);
    const auto edited = [&](Trace trace) {
        const auto after =
            resimulate(*result, std::make_shared<const Trace>(std::move(trace)), options);
        auto patched = every_lane_key_figures_after_edit(*after, *result, keys);
        CHECK(patched == every_lane_key_figures(*after));
        return patched;
    };
    {
        // One request of "key7" costs more: only its chunk of each lane is copied.
        Trace trace = *result->trace;
        const std::size_t at = 5 * kKeys + 7;
        REQUIRE(trace.key_name(trace.requests[at].key) == "key7");
        trace.requests[at].cost = 3;
        const auto patched = edited(std::move(trace));
        for (std::size_t lane = 0; lane < patched.size(); ++lane) {
            INFO("lane " << lane);
            REQUIRE(patched[lane]);
            CHECK(patched[lane]->keys.shared_with(keys[lane]->keys) == chunks - 1);
        }
    }
    {
        // "a-solo" loses its only request: every other key moves up a place, in every chunk.
        Trace trace = *result->trace;
        REQUIRE(trace.key_name(trace.requests.back().key) == "a-solo");
        trace.requests.erase(trace.requests.end() - 1);
        const auto patched = edited(std::move(trace));
        REQUIRE(patched[0]);
        CHECK(patched[0]->keys.size() == kKeys);
    }
}

TEST_CASE("after a clock step only the keys it passed are counted again, with the same figures") {
    {
        // Between ticks 0 and 6 no request comes, but the queue of "a" lets its second unit
        // through at 5: its worst burst so far goes from 1 to 2.
        TraceBuilder builder;
        for (int i = 0; i < 6; ++i)
            builder.add(0, 1, "a");
        for (const char* key : {"b", "c", "d", "e", "f"})
            builder.add(0, 1, key);
        builder.add(20, 1, "b");
        const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()),
                                     limits(2, 10), {"leaky_bucket"});
        const KeyScope at_0{11, Tick{0}};
        const KeyScope at_6{11, Tick{6}};
        const auto before = every_lane_key_figures(*result, at_0);
        REQUIRE(before[0]->keys.front().worst_burst.cost == 1);
        const auto moved = every_lane_key_figures_moved(*result, at_0, before, at_6);
        CHECK(moved[0]->keys.front().worst_burst.cost == 2);
        CHECK(moved == every_lane_key_figures(*result, at_6));
    }
    const std::uint64_t seed = base_seed();
    for (std::uint64_t round = 0; round < 6; ++round) {
        INFO("seed " << seed + round);
        std::mt19937_64 rng(seed + round);
        // Half the rounds walk from the start, half from the middle.
        const bool from_start = round % 4 < 2;
        TraceBuilder builder;
        Tick tick = 0;
        Tick start = 0;
        for (int i = 0; i < 6'000; ++i) {
            tick += static_cast<Tick>(rng() % 3);
            builder.add(tick, 1 + static_cast<std::uint32_t>(rng() % 3),
                        "k" + std::to_string(rng() % 10));
            // Where the walk starts, "q" asks five times at once, more than its queue holds,
            // then never again: the walk passes its units leaving one by one while it asks
            // nothing, and its worst burst grows.
            if (i == (from_start ? 2 : 3'000)) {
                start = from_start ? 0 : tick;
                for (int q = 0; q < 5; ++q)
                    builder.add(tick, 1, "q");
            }
        }
        // Long queues: a shaper lets units through far after their requests.
        Params params =
            limits(2 + static_cast<std::int64_t>(rng() % 4), 8 + static_cast<Tick>(rng() % 60));
        params.keys["k2"].limit = 1;
        params.keys["k4"].window = 90;
        params.keys["q"].limit = 3;
        params.keys["q"].window = 30;
        params.lanes = every_lane();
        RunOptions options;
        options.index_keys = round % 2 == 1;
        const auto result =
            simulate(std::make_shared<const Trace>(std::move(builder).take()), params, {}, options);
        const Trace& trace = *result->trace;
        const Tick end = trace.requests.back().tick;
        // The clock at `now`: the requests on or before it, and the units let through by then.
        const auto at = [&](Tick now) {
            const auto after =
                std::upper_bound(trace.requests.begin(), trace.requests.end(), now,
                                 [](Tick t, const Request& r) { return t < r.tick; });
            return KeyScope{static_cast<std::size_t>(after - trace.requests.begin()), now};
        };
        KeyScope from;  // the whole trace
        auto keys = every_lane_key_figures(*result);
        Tick now = start;
        for (int step = 0; step < 40; ++step) {
            KeyScope scope;
            switch (rng() % 8) {
                case 0:  // a jump
                    now = static_cast<Tick>(rng() % static_cast<std::uint64_t>(end + 1));
                    scope = at(now);
                    break;
                case 1:  // everything, let through
                    scope = KeyScope{};
                    break;
                case 2:  // a step back
                    now = std::max<Tick>(0, now - 1 - static_cast<Tick>(rng() % 3));
                    scope = at(now);
                    break;
                case 3:  // past the last request, units still leaving
                    now = end + static_cast<Tick>(rng() % 40);
                    scope = at(now);
                    break;
                default:  // a step forward
                    now += 1 + static_cast<Tick>(rng() % 3);
                    scope = at(now);
            }
            INFO("step " << step << ": first " << scope.count.value_or(trace.requests.size())
                         << " requests, clock " << scope.released_by.value_or(-1));
            const auto moved = every_lane_key_figures_moved(*result, from, keys, scope);
            CHECK(moved == every_lane_key_figures(*result, scope));
            from = scope;
            keys = moved;
        }
    }
}
