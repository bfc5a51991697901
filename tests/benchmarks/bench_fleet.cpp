// Fleet throughput: 1M requests over 1000 keys on 20 servers, every placement mode, one core:
// the figure of docs/performance.md ("Fleets"). Not a test: run it from a Release build.
//   ./build-release/tests/benchmarks/bench_fleet [requests [servers [algorithm]]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "huge_page_malloc.h"
#include "ratelab/fleet.h"

namespace {

using namespace ratelab;

/// Poisson-like arrivals at about twenty requests per tick, over 1000 keys of which a few are
/// hot (a key drawn as the square of a uniform number), cost 1.
std::shared_ptr<const Trace> traffic(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> gap(20.0);
    std::uniform_real_distribution<double> unit(0, 1);
    TraceBuilder builder;
    for (int k = 0; k < 1000; ++k)
        builder.intern("key" + std::to_string(k));
    builder.reserve(count);
    double now = 0;
    for (std::size_t i = 0; i < count; ++i) {
        now += gap(rng);
        const double u = unit(rng);
        builder.add(static_cast<Tick>(now), 1,
                    "key" + std::to_string(static_cast<int>(u * u * 1000)));
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    ratelab::app::restartWithHugePageMalloc(argv);
    const std::size_t requests = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    const int servers = argc > 2 ? std::atoi(argv[2]) : 20;
    const Lane lane{argc > 3 ? argv[3] : "token_bucket", {}, {}, false};
    const auto trace = traffic(requests, 42);
    Params params;
    params.base.limit = 20;  // per key per 100 ticks: the hot keys go over, the cold stay under
    params.base.window = 100;
    FleetSettings settings;
    settings.servers = servers;
    settings.store_latency = 2;
    settings.sync_every = 10;
    std::printf("fleet: %zu requests, %zu keys, %d servers, lane %s, one core\n",
                trace->requests.size(), trace->keys.size() - 1, servers, lane.algorithm.c_str());
    for (const FleetMode mode : all_fleet_modes()) {
        settings.modes = {mode};
        const auto start = std::chrono::steady_clock::now();
        const auto result = simulate_fleet(trace, params, lane, settings);
        std::printf("  %-14s %.3f s (accepted %lld, overshoot %.2f; includes the single limiter)\n",
                    std::string(mode_name(mode)).c_str(), seconds_since(start),
                    static_cast<long long>(result->modes.front().totals.accepted),
                    result->modes.front().worst.overshoot().to_double());
    }
    settings.modes = {};
    const auto start = std::chrono::steady_clock::now();
    const auto all = simulate_fleet(trace, params, lane, settings);
    std::printf("all five modes: %.3f s\n", seconds_since(start));
    return all->modes.size() == 5 ? 0 : 1;
}
