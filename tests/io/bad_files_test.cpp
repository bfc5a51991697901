// Every malformed file in tests/io/bad/ must fail with the rule and location listed for it in
// tests/io/bad/expected.tsv, and must never load half-way.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "catch.h"
#include "expectations_table.h"
#include "ratelab/io/trace_file.h"

namespace fs = std::filesystem;
using ratelab::io::load_trace;
using ratelab::io::TraceFileError;

namespace {

const fs::path kBadDir = fs::path(RATELAB_IO_TEST_DIR) / "bad";

std::map<std::string, ratelab::test::ExpectedError> read_expectations() {
    return ratelab::test::read_expectations(kBadDir / "expected.tsv");
}

}  // namespace

TEST_CASE("io/bad: every malformed file gives its intended error") {
    const auto expected = read_expectations();
    REQUIRE(expected.size() >= 40);
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(kBadDir)) {
        const std::string name = entry.path().filename().string();
        if (name == "expected.tsv") {
            continue;
        }
        INFO("file " << name);
        const auto it = expected.find(name);
        REQUIRE(it != expected.end());  // a new bad file needs its expectation
        try {
            load_trace(entry.path());
            FAIL("loaded without an error");
        } catch (const TraceFileError& error) {
            INFO(error.what());
            CHECK(error.rule() == it->second.rule);
            CHECK(error.location() == it->second.location);
            CHECK(error.file() == entry.path().string());
            // One line, naming the file, for the command line's stderr.
            const std::string message = error.what();
            CHECK(message.find('\n') == std::string::npos);
            CHECK(message.rfind(entry.path().string(), 0) == 0);
        }
        ++checked;
    }
    CHECK(checked == expected.size());
}
