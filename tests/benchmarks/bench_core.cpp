// Core throughput: decisions per second for every algorithm on large synthetic traces.
// Not a test: run it from a Release build and read the figures.
//   ./build-release/tests/benchmarks/bench_core [requests [workload [algorithm]]]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "huge_page_malloc.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"

namespace {

using namespace ratelab;
using Clock = std::chrono::steady_clock;
constexpr int kRepeats = 3;

struct Workload {
    const char* name;
    std::shared_ptr<const Trace> trace;
    Params params;
};

/// Poisson-like arrivals at about `per_tick` requests per tick, over `keys` keys with Zipf-like
/// popularity (key k drawn with weight 1/k), costs uniform in [1, max_cost].
std::shared_ptr<const Trace> synthetic(std::size_t count, double per_tick, std::uint32_t keys,
                                       std::uint32_t max_cost, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> gap(per_tick);
    std::uniform_int_distribution<std::uint32_t> cost(1, max_cost);
    Trace trace;
    trace.keys.reserve(keys);  // keys[0], the default key "", is there already
    for (std::uint32_t k = 1; k < keys; ++k)
        trace.keys.push_back("k" + std::to_string(k));
    // Zipf-ish: inverse transform of a continuous 1/x density over [1, keys + 1).
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double log_span = std::log(static_cast<double>(keys) + 1.0);
    trace.requests.reserve(count);
    double now = 0;
    for (std::size_t i = 0; i < count; ++i) {
        now += gap(rng);
        const auto key =
            keys == 1 ? 0u
                      : std::min(keys - 1,
                                 static_cast<std::uint32_t>(std::exp(unit(rng) * log_span)) - 1);
        trace.requests.push_back(
            Request{static_cast<Tick>(now), max_cost == 1 ? 1u : cost(rng), key});
    }
    return std::make_shared<const Trace>(std::move(trace));
}

/// Clients of a service, as bench_gui's day of traffic: five requests a tick, a tenth of cost 3,
/// over `keys` keys of which the first are busier (key 1 + keys * u^2, u uniform), so a key's
/// requests lie far apart in the trace.
std::shared_ptr<const Trace> clients(std::size_t count, std::uint32_t keys, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Trace trace;
    for (std::uint32_t k = 0; k < keys; ++k)
        trace.keys.push_back("client-" + std::to_string(k));
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::poisson_distribution<int> arrivals(5.0);
    trace.requests.reserve(count);
    for (Tick t = 0; trace.requests.size() < count; ++t) {
        for (int i = arrivals(rng); i > 0 && trace.requests.size() < count; --i) {
            const double u = unit(rng);
            const auto key = static_cast<KeyId>(
                1 + std::min<double>(keys - 1, std::floor(u * u * static_cast<double>(keys))));
            trace.requests.push_back(Request{t, rng() % 10 == 0 ? 3u : 1u, key});
        }
    }
    return std::make_shared<const Trace>(std::move(trace));
}

/// CPU time of this thread: on a shared machine wall time also counts other people's work.
double thread_cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

Params with_limits(std::int64_t limit, Tick window) {
    Params params;
    params.base.limit = limit;
    params.base.window = window;
    return params;
}

/// What the app does after an edit: one request added in the middle of the trace, then all six
/// algorithms re-simulated from the previous result (checkpoints, and the old run's rest once a
/// run is back in its old state; with many keys, only the keys the edit touched). Then each
/// lane's re-run alone, which tells where the time goes.
void timeEdit(const SimulationResult& full) {
    Trace edited = *full.trace;
    const std::size_t middle = edited.requests.size() / 2;
    edited.requests.insert(edited.requests.begin() + static_cast<std::ptrdiff_t>(middle),
                           edited.requests[middle]);
    auto trace = std::make_shared<const Trace>(std::move(edited));
    const auto start = Clock::now();
    const auto again = resimulate(full, trace);
    std::printf("  one request added in the middle, all six re-simulated: %.1f ms; decided",
                std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    for (const AlgorithmRun& run : again->runs)
        std::printf(" %zu", run.requests_decided);
    std::printf(" of %zu requests each\n   each lane's re-run alone (best of %d):",
                trace->requests.size(), kRepeats);
    for (std::size_t lane = 0; lane < full.runs.size(); ++lane) {
        const auto algorithm = Registry::instance().find(full.runs[lane].id)->make();
        double best = 1e300;
        for (int repeat = 0; repeat < kRepeats; ++repeat) {
            const auto lane_start = Clock::now();
            const AlgorithmRun run =
                algorithm->rerun(*trace, *full.trace, full.lane_params[lane], full.runs[lane],
                                 middle, full.trace->requests.size() - middle, nullptr);
            best = std::min(
                best, std::chrono::duration<double, std::milli>(Clock::now() - lane_start).count());
        }
        std::printf(" %s %.1f ms", full.runs[lane].id.c_str(), best);
    }
    std::printf("\n");
}

/// What the app counts for the keys panel on a trace of many keys: every key's figures in each
/// lane over the whole trace (after opening or an edit of L), and over the first half with a
/// shaper's units cut at the clock there (a clock step). One lane at a time, best of kRepeats.
void timeKeyFigures(const SimulationResult& full) {
    if (!key_figures_need_decisions(full))
        return;
    const std::size_t half = full.trace->requests.size() / 2;
    const KeyScope scopes[] = {KeyScope{}, KeyScope{half, full.trace->requests[half].tick}};
    for (const KeyScope& scope : scopes) {
        std::printf(scope.count ? "  every key's figures up to the middle, each lane (best of %d):"
                                : "  every key's figures, each lane (best of %d):",
                    kRepeats);
        for (std::size_t lane = 0; lane < full.runs.size(); ++lane) {
            double best = 1e300;
            for (int repeat = 0; repeat < kRepeats; ++repeat) {
                const auto start = Clock::now();
                const LaneKeys keys = key_figures(full, lane, scope);
                best = std::min(
                    best, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
                if (keys.keys.empty())
                    std::printf(" (no keys?)");
            }
            std::printf(" %s %.1f ms", full.runs[lane].id.c_str(), best);
        }
        std::printf("\n");
        // As the app counts them: every lane at once, on every core.
        double every_ms = 1e300;
        for (int repeat = 0; repeat < kRepeats; ++repeat) {
            const auto start = Clock::now();
            const auto lanes = every_lane_key_figures(full, scope);
            every_ms = std::min(
                every_ms, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
            if (lanes.empty())
                std::printf(" (no lanes?)");
        }
        std::printf("    every lane at once, as the app counts them (best of %d): %.1f ms\n",
                    kRepeats, every_ms);
    }
    // A clock step in the middle, as the app makes it: the figures so far, then every key's from
    // those one tick earlier.
    const Tick now = full.trace->requests[half].tick;
    const auto at = [&](Tick tick) {
        const auto after =
            std::upper_bound(full.trace->requests.begin(), full.trace->requests.end(), tick,
                             [](Tick t, const Request& r) { return t < r.tick; });
        return KeyScope{static_cast<std::size_t>(after - full.trace->requests.begin()), tick};
    };
    const KeyScope before = at(now - 1);
    const KeyScope after = at(now);
    const auto before_keys = every_lane_key_figures(full, before);
    double prefix_ms = 1e300;
    double moved_ms = 1e300;
    for (int repeat = 0; repeat < kRepeats; ++repeat) {
        auto start = Clock::now();
        const auto prefix = simulate_prefix(full, *after.count, now);
        prefix_ms = std::min(
            prefix_ms, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        start = Clock::now();
        const auto moved = every_lane_key_figures_moved(full, before, before_keys, after);
        moved_ms = std::min(
            moved_ms, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::printf(
        "  a clock step of one tick in the middle: simulate_prefix %.1f ms, every lane's "
        "key figures from the step before %.1f ms (best of %d)\n",
        prefix_ms, moved_ms, kRepeats);
}

}  // namespace

int main(int argc, char** argv) {
    // As ratelab and ratelab-cli do: with malloc's large blocks in huge pages, the columns of
    // decisions kept cost far fewer page faults (GLIBC_TUNABLES=glibc.malloc.hugetlb=0: without).
    ratelab::app::restartWithHugePageMalloc(argv);
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    // Optional, for profiling: a second argument picks one workload by number (1-5), a third
    // one algorithm by id.
    const int only = argc > 2 ? std::atoi(argv[2]) : 0;
    const std::string only_algorithm = argc > 3 ? argv[3] : "";
    std::printf(
        "RateLab core benchmark: %zu requests per workload, summary mode (no per-decision "
        "columns); best of %d runs\n\n",
        n, kRepeats);
    const Workload workloads[] = {
        {"single key, cost 1, L=100 W=1000", synthetic(n, 0.2, 1, 1, 1), with_limits(100, 1000)},
        {"single key, costs 1-5, L=100 W=1000", synthetic(n, 0.2, 1, 5, 2), with_limits(100, 1000)},
        {"1M keys (Zipf), cost 1, L=10 W=100", synthetic(n, 10.0, 1'000'000, 1, 3),
         with_limits(10, 100)},
        {"single key, cost 1, L=1000 W=10000", synthetic(n, 0.2, 1, 1, 4),
         with_limits(1000, 10000)},
        {"100k clients, costs 1 and 3, L=50 W=10", clients(n, 100'000, 5), with_limits(50, 10)},
    };
    RunOptions summary;
    summary.keep_decisions = false;
    const RunOptions with_decisions;  // what the app asks for: every decision and its time
    int number = 0;
    for (const Workload& w : workloads) {
        if (++number != only && only != 0)
            continue;
        std::printf("%s\n", w.name);
        for (const AlgorithmInfo* info : Registry::instance().all()) {
            if (!only_algorithm.empty() && info->id != only_algorithm)
                continue;
            const auto algorithm = info->make();
            // The best of a few runs: on a shared machine the slower ones measure the neighbours.
            double seconds = 1e300;
            double cpu = 1e300;
            double kept_cpu = 1e300;
            AlgorithmRun run;
            AlgorithmRun kept;
            for (int repeat = 0; repeat < kRepeats; ++repeat) {
                const auto start = Clock::now();
                const double cpu_start = thread_cpu_seconds();
                run = algorithm->run(*w.trace, w.params, summary);
                cpu = std::min(cpu, thread_cpu_seconds() - cpu_start);
                seconds =
                    std::min(seconds, std::chrono::duration<double>(Clock::now() - start).count());
                const double kept_start = thread_cpu_seconds();
                kept = algorithm->run(*w.trace, w.params, with_decisions);
                kept_cpu = std::min(kept_cpu, thread_cpu_seconds() - kept_start);
            }
            std::printf(
                "  %-16s %8.1f M decisions/s wall, %8.1f M/s CPU  (%.3f s, accepted %lld); "
                "keeping decisions %6.1f M/s CPU\n",
                info->id.c_str(), static_cast<double>(n) / seconds / 1e6,
                static_cast<double>(n) / cpu / 1e6, seconds,
                static_cast<long long>(run.totals.accepted),
                static_cast<double>(n) / kept_cpu / 1e6);
            if (kept.totals.accepted != run.totals.accepted)
                std::printf("  (the two modes disagree: %lld accepted with decisions kept)\n",
                            static_cast<long long>(kept.totals.accepted));
        }
        if (!only_algorithm.empty())
            continue;
        // As the app runs them: with many keys, each run holds where every key's requests are.
        RunOptions app;
        app.index_keys = true;
        const auto start = Clock::now();
        const auto full = simulate(w.trace, w.params, {}, app);
        std::printf("  all six, keeping decisions: %.3f s\n",
                    std::chrono::duration<double>(Clock::now() - start).count());
        timeEdit(*full);
        timeKeyFigures(*full);
        std::printf("\n");
    }
}
