// Sweep throughput: 200 points of L times the six default lanes over a 1M-request trace, the
// figure of docs/performance.md ("Sweeps"). Not a test: run it from a Release build.
//   ./build-release/tests/benchmarks/bench_sweep [requests [points [threads [algorithm]]]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "huge_page_malloc.h"
#include "ratelab/sweep.h"

namespace {

using namespace ratelab;

/// Poisson-like arrivals at about two requests per tick on one key, cost 1.
Trace poisson(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> gap(2.0);
    Trace trace;
    trace.requests.reserve(count);
    double now = 0;
    for (std::size_t i = 0; i < count; ++i) {
        now += gap(rng);
        trace.requests.push_back(Request{static_cast<Tick>(now), 1, 0});
    }
    return trace;
}

}  // namespace

int main(int argc, char** argv) {
    ratelab::app::restartWithHugePageMalloc(argv);
    const std::size_t requests = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    const std::int64_t points = argc > 2 ? std::atoll(argv[2]) : 200;
    const unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0;
    const Trace trace = poisson(requests, 42);
    Params params;
    if (argc > 4)
        params.lanes = {Lane{argv[4], {}, {}, false}};  // one lane only, to see where time goes
    params.base.window = 100;  // about 200 requests arrive per window: L = 1..200 spans it
    SweepAxis limits{SweepTarget{SweepTarget::Kind::limit, {}, {}}, {}};
    for (std::int64_t limit = 1; limit <= points; ++limit)
        limits.values.emplace_back(Rational(limit));
    SweepOptions options;
    options.threads = threads;
    const auto start = std::chrono::steady_clock::now();
    const SweepResult result = sweep(trace, params, {limits}, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double decisions =
        static_cast<double>(result.rows.size()) * static_cast<double>(trace.requests.size());
    std::printf(
        "sweep: %lld points x %zu lanes over %zu requests (threads %u, 0 = one per core): "
        "%.2f s, %.0f M decisions/s\n",
        static_cast<long long>(points), result.lanes.size(), trace.requests.size(), threads,
        seconds, decisions / seconds / 1e6);
    // Something from the rows, so that no part of the work is optimised away.
    std::printf("rejected at L = 1: %lld of %zu (fixed window)\n",
                static_cast<long long>(result.rows.front().totals.rejected), trace.requests.size());
    return 0;
}
