// Measures saving and loading a large trace in the compact columnar form.
//   bench_trace_io [REQUESTS]   (default one million; build in Release for meaningful figures)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "ratelab/io/trace_file.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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
    auto start = std::chrono::steady_clock::now();
    ratelab::io::save_trace(doc, file);
    const double save_s = seconds_since(start);
    const auto bytes = std::filesystem::file_size(file);

    start = std::chrono::steady_clock::now();
    const auto loaded = ratelab::io::load_trace(file);
    const double load_s = seconds_since(start);
    std::filesystem::remove(file);

    const bool same = loaded == doc;
    std::printf("%zu requests, %.1f MB compact file: save %.3f s, load %.3f s, identical: %s\n",
                count, static_cast<double>(bytes) / 1e6, save_s, load_s, same ? "yes" : "NO");
    return same ? 0 : 1;
}
