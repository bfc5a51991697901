// The whole command-line pipeline at scale: writes a 10-million-request trace in the compact
// format, then times `ratelab-cli simulate --summary` on it (load, all six algorithms, report) and
// reads the child's peak resident memory from the kernel. Not a test: it prints figures.
//   ./build-release/tests/benchmarks/bench_pipeline PATH/TO/ratelab-cli [requests]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "ratelab/io/trace_file.h"

namespace {

using Clock = std::chrono::steady_clock;

ratelab::io::TraceDocument make_document(std::size_t count) {
    ratelab::io::TraceDocument doc;
    doc.name = "pipeline benchmark";
    doc.params.base.limit = 100;
    doc.params.base.window = 1000;
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> gap(0.2);
    doc.trace.requests.reserve(count);
    double now = 0;
    for (std::size_t i = 0; i < count; ++i) {
        now += gap(rng);
        doc.trace.requests.push_back(ratelab::Request{static_cast<ratelab::Tick>(now), 1, 0});
    }
    return doc;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PATH/TO/ratelab-cli [requests]\n", argv[0]);
        return 2;
    }
    const std::size_t count = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10'000'000;
    const auto file = std::filesystem::temp_directory_path() / "ratelab-pipeline-bench.json";

    auto start = Clock::now();
    ratelab::io::save_trace(make_document(count), file);
    std::printf("wrote %zu requests (compact form, %.1f MB) in %.2f s\n", count,
                static_cast<double>(std::filesystem::file_size(file)) / 1e6,
                std::chrono::duration<double>(Clock::now() - start).count());

    std::fflush(stdout);  // or the child inherits the buffered line and prints it again
    start = Clock::now();
    const pid_t child = fork();
    if (child == 0) {
        std::freopen("/dev/null", "w", stdout);
        execl(argv[1], argv[1], "simulate", file.c_str(), "--summary", static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::filesystem::remove(file);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "ratelab-cli failed (status %d)\n", status);
        return 1;
    }
    std::printf(
        "ratelab-cli simulate --summary, all six algorithms: %.2f s wall, %.2f s user, peak memory "
        "%.0f MB\n",
        seconds,
        static_cast<double>(usage.ru_utime.tv_sec) +
            static_cast<double>(usage.ru_utime.tv_usec) / 1e6,
        static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}
