// Files that would make a loader read forever or take gigabytes are refused at once, from what
// can be known before reading (size, kind of file) or as soon as a count passes its maximum.
#include <chrono>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "catch.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"

namespace fs = std::filesystem;
using namespace ratelab;
using namespace ratelab::io;
using Clock = std::chrono::steady_clock;

namespace {

struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("ratelab-limits-" + std::to_string(::getpid()));
    Scratch() { fs::create_directories(dir); }
    ~Scratch() { fs::remove_all(dir); }
};

std::string rule_of(const fs::path& file) {
    try {
        load_trace(file);
    } catch (const TraceFileError& error) {
        return error.rule();
    }
    return "loaded";
}

const char* const kHead = R"({"format": "ratelab-trace", "version": 1, "limit": 1, "window": 1, )";

}  // namespace

TEST_CASE("hardening/limits: endless devices fail at their first bytes") {
    // Pipes and devices are read as streams (so `validate /dev/stdin` works); one that is not
    // a JSON object from its first byte must not be read up to the 512 MiB limit.
    Scratch scratch;
    const fs::path zero = scratch.dir / "zero.json";
    fs::create_symlink("/dev/zero", zero);
    const auto start = Clock::now();
    CHECK(rule_of(zero) == "not-json");
    CHECK(Clock::now() - start < std::chrono::seconds(1));
}

TEST_CASE("hardening/limits: a sparse file just past the maximum size is refused unread") {
    Scratch scratch;
    const fs::path file = scratch.dir / "big.json";
    std::ofstream(file) << kHead << R"("requests": [)";
    fs::resize_file(file, kMaxTraceFileBytes + 1);  // sparse: costs no disk and no reading
    const auto start = Clock::now();
    CHECK(rule_of(file) == "file-too-large");
    CHECK(Clock::now() - start < std::chrono::milliseconds(200));
}

TEST_CASE("hardening/limits: a key table longer than the maximum stops at the first extra key") {
    // Three bytes a key; the error comes while streaming, before any request is built.
    std::string text = std::string(kHead) + R"("columns": {"tick_deltas": [], "key_table": [)";
    text.reserve(text.size() + 3 * (bounds::kMaxKeys + 1) + 8);
    for (std::size_t i = 0; i <= bounds::kMaxKeys; ++i)
        text += i == 0 ? "\"\"" : ",\"\"";
    text += "]}}";
    try {
        parse_trace(text, "keys.json");
        FAIL("loaded");
    } catch (const TraceFileError& error) {
        CHECK(error.rule() == "too-many-keys");
        CHECK(error.location() == "$.columns.key_table[" + std::to_string(bounds::kMaxKeys) + "]");
    }
}
