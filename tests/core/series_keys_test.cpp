// The chart series of a trace of several keys: filtered to some keys (one against its own tier,
// several as a sum, each the series of those keys' requests alone), and each key's own queue and
// bucket level beside the total, on hand-made and seeded random traces.
#include <algorithm>
#include <random>

#include "catch.h"
#include "ratelab/series.h"
#include "series_text.h"
#include "test_support.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

/// `requests` requests over two to four keys named "a", "b", ..., some of which have a tier of
/// their own; the default key makes none.
std::shared_ptr<const SimulationResult> random_tiered(std::mt19937_64& random, int requests) {
    const auto pick = [&](int lo, int hi) {
        return std::uniform_int_distribution<int>(lo, hi)(random);
    };
    TraceBuilder builder;
    Tick tick = pick(0, 3);
    const int keys = pick(2, 4);
    for (int i = 0; i < requests; ++i) {
        tick += pick(0, 2);
        builder.add(tick, static_cast<std::uint32_t>(pick(1, 3)),
                    std::string(1, static_cast<char>('a' + pick(0, keys - 1))));
    }
    Params params = limits(pick(2, 6), pick(2, 10));
    for (int k = 0; k < keys; ++k) {
        if (pick(0, 1) == 0)
            continue;  // this key keeps the base limits
        Limits& tier = params.keys[std::string(1, static_cast<char>('a' + k))];
        tier = params.base;
        tier.limit = pick(1, 8);
        tier.window = pick(1, 12);
    }
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
}

/// The requests of `trace` whose key is in `keys`, alone, in their order.
std::shared_ptr<const Trace> restricted(const Trace& trace, const std::vector<KeyId>& keys) {
    TraceBuilder builder;
    for (const Request& r : trace.requests) {
        if (std::find(keys.begin(), keys.end(), r.key) != keys.end())
            builder.add(r.tick, r.cost, trace.key_name(r.key));
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

}  // namespace

TEST_CASE("series: a key filter shows one key against its own tier, several as a sum") {
    // Two per tick for five ticks from each of three keys, as the bundled key-tiers trace but
    // with pro allowed 8 in 5 ticks.
    TraceBuilder builder;
    for (Tick t = 0; t < 5; ++t) {
        for (const char* key : {"free", "free", "pro", "pro", "guest", "guest"})
            builder.add(t, 1, key);
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params = limits(4, 10);
    params.keys["free"] = params.base;
    params.keys["free"].limit = 2;
    params.keys["pro"] = params.base;
    params.keys["pro"].limit = 8;
    params.keys["pro"].window = 5;  // 8 per 5 ticks
    const auto result = simulate(trace, params);

    const ResultSeries all = compute_series(*result);
    CHECK(all.summed);
    CHECK_FALSE(all.one_key);
    CHECK(all.limit == 4);
    CHECK(all.find("sliding_log")->load.max() == 14);  // 2 + 8 + 4, each key within its own L

    const KeyId pro = *trace->find_key("pro");
    const ResultSeries one = compute_series(*result, SeriesOptions{{}, {pro}, {}});
    CHECK_FALSE(one.summed);
    REQUIRE(one.one_key == pro);
    CHECK(one.keys == std::vector<KeyId>{pro});
    CHECK(one.limit == 8);
    CHECK(one.window == 5);
    CHECK(one.level_key == pro);
    const AlgorithmSeries& log = *one.find("sliding_log");
    CHECK(values(log.accepted, 0, 5) == "2 4 6 8 8 8");
    CHECK(values(log.rejected, 0, 5) == "0 0 0 0 2 2");
    CHECK(values(log.load, 3, 8) == "8 8 6 4 2 0");  // over pro's own 5 ticks
    CHECK(log.worst_burst == Burst{8, Rational(0)});
    CHECK(one.find("fixed_window")->worst_burst.cost == 8);

    const KeyId free = *trace->find_key("free");
    const ResultSeries two = compute_series(*result, SeriesOptions{{}, {pro, free, 99}, {}});
    CHECK(two.summed);
    CHECK_FALSE(two.one_key);
    CHECK(two.keys.size() == 2);
    CHECK(two.limit == 4);  // the base L, for reference only: no one L judges a sum
    CHECK(two.find("sliding_log")->load.max() == 10);
    CHECK(two.find("sliding_log")->worst_burst.cost == 10);
}

TEST_CASE("series: filtered to some keys, they are the series of those keys' requests alone") {
    const std::uint64_t first = base_seed();
    for (std::uint64_t seed = first; seed < first + 16; ++seed) {
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED replays it)");
        std::mt19937_64 random(seed);
        const auto pick = [&](int lo, int hi) {
            return std::uniform_int_distribution<int>(lo, hi)(random);
        };
        const auto result = random_tiered(random, 50);
        const auto& trace = result->trace;
        const Params& params = result->params;

        // Key 0, the default key, made no request here.
        std::vector<KeyId> shown;
        for (KeyId k = 1; k < trace->keys.size(); ++k) {
            if (pick(0, 1) == 1)
                shown.push_back(k);
        }
        if (shown.empty())
            shown.push_back(static_cast<KeyId>(pick(1, static_cast<int>(trace->keys.size()) - 1)));
        INFO(shown.size() << " of " << trace->keys.size() - 1 << " keys shown");
        CHECK(compute_series(*result, SeriesOptions{{}, shown, {}}).keys_in_trace ==
              trace->keys.size() - 1);
        const ResultSeries filtered = compute_series(*result, SeriesOptions{{}, shown, {}});
        const auto alone_trace = restricted(*trace, shown);
        const ResultSeries alone = compute_series(*simulate(alone_trace, params));

        CHECK(filtered.summed == alone.summed);
        CHECK(filtered.one_key.has_value() == alone.one_key.has_value());
        CHECK(filtered.limit == alone.limit);
        CHECK(filtered.window == alone.window);
        CHECK(filtered.from == alone.from);
        CHECK(filtered.to >= alone.to);  // the whole trace's span, to stay in step with it
        const bool same_level_key =
            trace->key_name(filtered.level_key) == alone_trace->key_name(alone.level_key);
        CHECK(same_level_key);
        for (const AlgorithmSeries& s : filtered.algorithms) {
            INFO(s.id);
            const AlgorithmSeries& a = *alone.find(s.id);
            const Tick end = filtered.to + 2;
            CHECK(values(s.accepted, filtered.from, end) == values(a.accepted, alone.from, end));
            CHECK(values(s.rejected, filtered.from, end) == values(a.rejected, alone.from, end));
            CHECK(values(s.load, filtered.from, end) == values(a.load, alone.from, end));
            CHECK(values(s.queue, filtered.from, end) == values(a.queue, alone.from, end));
            CHECK(s.delays.size() == a.delays.size());
            if (filtered.one_key)
                CHECK(s.worst_burst == a.worst_burst);
            else
                CHECK(s.worst_burst.cost == a.load.max());
            if (same_level_key && !a.level.empty()) {
                for (Tick t = filtered.from; t <= end; ++t) {
                    const double time = static_cast<double>(t);
                    REQUIRE(s.level.value_at(time) == Approx(a.level.value_at(time)).margin(1e-9));
                }
            }
        }
    }
}

TEST_CASE("series: each key's own queue and level, beside the total and the level key's") {
    const std::uint64_t first = base_seed();
    for (std::uint64_t seed = first; seed < first + 16; ++seed) {
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED replays it)");
        std::mt19937_64 random(seed);
        const auto result = random_tiered(random, 60);
        const auto& trace = result->trace;
        const Params& params = result->params;
        std::vector<KeyId> lines;
        for (KeyId k = 1; k < trace->keys.size(); ++k)
            lines.push_back(k);
        lines.push_back(lines.front());  // a repeat is traced once
        lines.push_back(99);             // and an id the trace does not have, not at all
        SeriesOptions options;
        options.key_lines = lines;
        const ResultSeries series = compute_series(*result, options);

        for (const AlgorithmSeries& s : series.algorithms) {
            INFO(s.id);
            if (!s.releases && s.level_capacity == 0) {
                CHECK(s.by_key.empty());
                continue;
            }
            REQUIRE(s.by_key.size() == trace->keys.size() - 1);
            for (std::size_t i = 0; i < s.by_key.size(); ++i) {
                const KeySeries& line = s.by_key[i];
                CHECK(line.key == i + 1);
                const Limits& own = params.for_key(trace->key_name(line.key));
                if (s.releases) {
                    CHECK(line.queue_capacity == own.limit);
                    CHECK(line.queue.max() <= own.limit);
                } else {
                    CHECK(line.queue.empty());
                    CHECK(line.level_capacity == own.limit);
                    SeriesOptions level_of_key;
                    level_of_key.level_key = line.key;
                    const ResultSeries alone = compute_series(*result, level_of_key);
                    CHECK(line.level == alone.find(s.id)->level);
                }
            }
            if (s.releases) {
                // Each unit waits in its own key's queue: the keys' queues add up to the total.
                for (Tick t = series.from; t <= series.to; ++t) {
                    std::int64_t sum = 0;
                    for (const KeySeries& line : s.by_key)
                        sum += line.queue.value_at(t);
                    INFO("tick " << t);
                    CHECK(sum == s.queue.value_at(t));
                }
            }
        }
    }
}

TEST_CASE("series: only the span gives the span and headings of the whole series") {
    const std::uint64_t first = base_seed();
    int released_late = 0;  // cases whose span ends with a release after the last request
    for (std::uint64_t seed = first; seed < first + 24; ++seed) {
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED replays it)");
        std::mt19937_64 random(seed);
        const auto result = random_tiered(random, 60);
        const Trace& trace = *result->trace;
        const KeyId some = static_cast<KeyId>(1 + seed % (trace.keys.size() - 1));
        for (const std::vector<KeyId>& keys :
             {std::vector<KeyId>{}, std::vector<KeyId>{some}, std::vector<KeyId>{1, 2}}) {
            SeriesOptions options;
            options.keys = keys;
            const ResultSeries whole = compute_series(*result, options);
            options.only_span = true;
            const ResultSeries span = compute_series(*result, options);
            INFO(keys.size() << " keys chosen");
            CHECK(span.from == whole.from);
            CHECK(span.to == whole.to);
            CHECK(span.limit == whole.limit);
            CHECK(span.window == whole.window);
            CHECK(span.level_key == whole.level_key);
            CHECK(span.keys == whole.keys);
            CHECK(span.one_key == whole.one_key);
            CHECK(span.summed == whole.summed);
            CHECK(span.keys_in_trace == whole.keys_in_trace);
            REQUIRE(span.algorithms.size() == whole.algorithms.size());
            for (std::size_t lane = 0; lane < span.algorithms.size(); ++lane) {
                CHECK(span.algorithms[lane].id == whole.algorithms[lane].id);
                CHECK(span.algorithms[lane].accepted.empty());
                CHECK(span.algorithms[lane].level.empty());
            }
            // It ends a window after the last request, or after the last release counted.
            Tick last = trace.requests.back().tick;
            for (const AlgorithmRun& run : result->runs) {
                for (std::size_t i = 0; run.releases && i < trace.requests.size(); ++i) {
                    const bool counted =
                        keys.empty() ||
                        std::find(keys.begin(), keys.end(), trace.requests[i].key) != keys.end();
                    if (counted && run.accepted(i))
                        last = std::max(last, run.release(trace, i).ceil());
                }
            }
            CHECK(span.to == last + whole.window);
            if (last > trace.requests.back().tick)
                ++released_late;
        }
    }
    CHECK(released_late > 0);
}
