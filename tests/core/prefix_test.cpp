// simulate_prefix() at a clock: a shaper's units count only once let through, whether the prefix
// resumes from a checkpoint, from a prefix mark or is counted from the decisions the full run
// kept. Seeded random traces; a failure prints the seed.
#include <algorithm>
#include <optional>
#include <random>

#include "catch.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using test::random_trace;

namespace {

/// The most leaky-bucket units in any [u, u + W) among the units let through by `now`, from the
/// full run's release times: a count over every unit.
std::int64_t units_burst_by(const SimulationResult& result, const AlgorithmRun& run,
                            std::size_t count, Tick now) {
    const Params& params = result.params;
    const Rational drain(params.base.window, params.base.limit);  // the default D = W / L
    std::vector<Rational> units;
    for (std::size_t i = 0; i < count; ++i) {
        if (!run.accepted(i))
            continue;
        for (std::int64_t j = 0; j < result.trace->requests[i].cost; ++j) {
            const Rational unit = run.release(*result.trace, i) - drain * Rational(j);
            if (unit <= Rational(now))
                units.push_back(unit);
        }
    }
    std::sort(units.begin(), units.end());
    std::int64_t best = 0;
    std::size_t end = 0;
    for (std::size_t i = 0; i < units.size(); ++i) {
        while (end < units.size() && units[end] < units[i] + Rational(params.base.window))
            ++end;
        best = std::max<std::int64_t>(best, static_cast<std::int64_t>(end - i));
    }
    return best;
}

}  // namespace

TEST_CASE("simulate_prefix at a clock counts only the units a shaper has let through") {
    // The default scenario at t = 10: requests at 6..10 are in, but the queue has let through
    // only the units at 6 and 8.5; those at 11, 13.5 and 16 are still waiting.
    const auto scenario = simulate(std::make_shared<const Trace>(default_trace()), default_params(),
                                   {"leaky_bucket"});
    CHECK(simulate_prefix(*scenario, 5, Tick{10})->runs[0].worst_burst == Burst{2, Rational(6)});
    CHECK(simulate_prefix(*scenario, 5)->runs[0].worst_burst.cost == 4);  // every unit counted

    // A burst just before a checkpoint (every 4,096 requests) fills the queue: resuming from
    // that checkpoint would count its queued units as let through.
    TraceBuilder builder;
    for (Tick i = 0; i < 4'092; ++i)
        builder.add(i * 100);
    const Tick burst = 4'092 * 100;
    for (int i = 0; i < 8; ++i)
        builder.add(burst);
    const auto queued = simulate(std::make_shared<const Trace>(std::move(builder).take()),
                                 test::limits(4, 10), {"leaky_bucket"});
    CHECK(simulate_prefix(*queued, 4'097, burst)->runs[0].worst_burst.cost == 1);
    CHECK(simulate_prefix(*queued, 4'097, burst + 5)->runs[0].worst_burst.cost == 3);
    CHECK(simulate_prefix(*queued, 4'097)->runs[0].worst_burst.cost == 4);

    const std::uint64_t base = std::random_device{}();
    // One and two keys resume from checkpoints, which must not hold units still queued; five
    // keys decide the prefix from the start.
    for (const int keys : {1, 2, 5}) {
        const std::uint64_t seed = base + static_cast<std::uint64_t>(keys);
        INFO("seed " << seed << ", " << keys << " keys");
        std::mt19937_64 rng(seed);
        // L well above the arrival rate keeps long queues: units stay queued across checkpoints.
        const Params params = test::limits(static_cast<std::int64_t>(40 + rng() % 40),
                                           static_cast<Tick>(60 + rng() % 60));
        const auto result = simulate(random_trace(rng, 13'000, keys), params, {"leaky_bucket"});
        const AlgorithmRun& run = result->runs[0];
        const std::size_t size = result->trace->requests.size();
        for (const std::size_t count : {std::size_t{1}, std::size_t{4097}, std::size_t{8193},
                                        static_cast<std::size_t>(rng() % size), size}) {
            const Tick last = result->trace->requests[count - 1].tick;
            for (const Tick now : {last, last + 7, last + 1'000'000}) {
                INFO("first " << count << " requests, clock at " << now);
                CHECK(simulate_prefix(*result, count, now)->runs[0].worst_burst.cost ==
                      units_burst_by(*result, run, count, now));
            }
        }
    }
}

TEST_CASE("with many keys simulate_prefix counts from the decisions what deciding again gives") {
    // Runs over many keys keep no checkpoints: the prefix's totals, worst burst and longest delay
    // are counted from the decisions the full run kept. A run that kept none decides the prefix
    // again from the first request: the two must agree in every lane, presets and shapers with
    // their units cut at the clock included.
    const std::uint64_t base = std::random_device{}();
    for (int round = 0; round < 3; ++round) {
        const std::uint64_t seed = base + static_cast<std::uint64_t>(round);
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        Params params = test::limits(static_cast<std::int64_t>(2 + rng() % 12),
                                     static_cast<Tick>(3 + rng() % 40));
        params.lanes = test::every_lane();
        params.rejections_count = round == 1;
        // Keys of their own limits and windows: a shaper lets them through at other paces.
        params.keys["k2"].limit = 1 + static_cast<std::int64_t>(rng() % 5);
        params.keys["k5"].window = 1 + static_cast<Tick>(rng() % 90);
        // Long enough for the places a prefix starts from after its first call (PrefixMarks,
        // every 16,384 requests).
        const auto trace = random_trace(rng, 40'000, 8);
        const auto kept = simulate(trace, params);
        RunOptions summary;
        summary.keep_decisions = false;
        const auto decided = simulate(trace, params, {}, summary);
        REQUIRE_FALSE(kept->kept_checkpoints());
        const std::size_t size = trace->requests.size();
        for (const std::size_t count :
             {std::size_t{0}, std::size_t{1}, std::size_t{4097}, std::size_t{16'384},
              std::size_t{16'385}, std::size_t{32'769}, static_cast<std::size_t>(rng() % size),
              size}) {
            const Tick last = count == 0 ? 0 : trace->requests[count - 1].tick;
            for (const std::optional<Tick> now :
                 {std::optional<Tick>(), std::optional<Tick>(last),
                  std::optional<Tick>(last + static_cast<Tick>(rng() % 50)),
                  std::optional<Tick>(last / 2)}) {
                INFO("first " << count << " requests, clock at " << now.value_or(-1));
                const auto from_decisions = simulate_prefix(*kept, count, now);
                const auto again = simulate_prefix(*decided, count, now);
                for (std::size_t lane = 0; lane < kept->runs.size(); ++lane) {
                    INFO(kept->runs[lane].id);
                    CHECK(from_decisions->runs[lane].requests_decided == 0);
                    CHECK(again->runs[lane].requests_decided == count);
                    CHECK(from_decisions->runs[lane].totals == again->runs[lane].totals);
                    CHECK(from_decisions->runs[lane].worst_burst == again->runs[lane].worst_burst);
                    // Past the first marks, they were made and kept for the next call.
                    REQUIRE(kept->runs[lane].prefix_cache);
                    if (count > 16'384)
                        CHECK(kept->runs[lane].prefix_cache->marks);
                }
            }
        }
    }
}
