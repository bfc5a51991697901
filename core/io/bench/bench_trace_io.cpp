// Measures saving and loading a large trace in the compact columnar form.
//   bench_trace_io [REQUESTS]   (default one million; build in Release for meaningful figures)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

#include "ratelab/io/trace_file.h"

namespace {

/// Wall-clock and processor seconds: on a busy machine the second is the fairer figure.
struct Stopwatch {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    std::clock_t cpu = std::clock();

    std::string lap() const {
        const double wall_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
        const double cpu_s = static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC;
        char text[64];
        std::snprintf(text, sizeof text, "%.3f s (cpu %.3f s)", wall_s, cpu_s);
        return text;
    }
};

}  // namespace

int main(int argc, char** argv) {
    const std::size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    ratelab::io::TraceDocument doc;
    doc.name = "Benchmark";
    ratelab::TraceBuilder builder;
    builder.reserve(count);
    std::uint64_t state = 42;  // a fixed LCG: the same trace every run
    ratelab::Tick tick = 0;
    for (std::size_t i = 0; i < count; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        tick += static_cast<ratelab::Tick>((state >> 33) % 3);
        const auto cost = static_cast<std::uint32_t>(1 + (state >> 40) % 4);
        builder.add(tick, cost, "client-" + std::to_string((state >> 50) % 100));
    }
    doc.trace = std::move(builder).take();

    const auto file = std::filesystem::temp_directory_path() / "ratelab-bench-trace.json";
    const Stopwatch saving;
    ratelab::io::save_trace(doc, file);
    const std::string save_time = saving.lap();
    const auto bytes = std::filesystem::file_size(file);

    const Stopwatch loading;
    const auto loaded = ratelab::io::load_trace(file);
    const std::string load_time = loading.lap();
    std::filesystem::remove(file);

    const bool same = loaded == doc;
    std::printf("%zu requests, %.1f MB compact file: save %s, load %s, identical: %s\n", count,
                static_cast<double>(bytes) / 1e6, save_time.c_str(), load_time.c_str(),
                same ? "yes" : "NO");
    return same ? 0 : 1;
}
