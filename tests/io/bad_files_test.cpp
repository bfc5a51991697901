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

TEST_CASE("io/bad: a file cut short says where it ends, in words") {
    using ratelab::io::parse_trace;
    const std::string good =
        "{\n  \"format\": \"ratelab-trace\",\n  \"version\": 1,\n  \"description\": \"" +
        std::string(300, 'x') + "\",\n  \"requests\": [\n    {\"tick\": 1}\n  ]\n}\n";
    struct Cut {
        std::size_t length;
        std::string expected;
    };
    // Inside the long description, and after a request, on the last line read.
    const std::size_t in_description = good.find("xxx") + 100;
    const std::size_t after_request = good.find("{\"tick\": 1}") + 11;
    for (const Cut& cut :
         {Cut{in_description, "the file ends early, at line 4 in the middle of a string"},
          Cut{after_request, "the file ends early, at line 6"}}) {
        INFO("cut at " << cut.length);
        try {
            parse_trace(good.substr(0, cut.length), "cut.json");
            FAIL("a cut file loaded");
        } catch (const TraceFileError& error) {
            CHECK(error.rule() == "not-json");
            CHECK(error.detail().find(cut.expected) != std::string::npos);
            // No parser jargon and no echo of the file's text.
            CHECK(error.detail().find("last read") == std::string::npos);
            CHECK(error.detail().find("syntax error") == std::string::npos);
            CHECK(error.detail().find("xxxxx") == std::string::npos);
            CHECK(error.detail().size() < 120);
        }
    }
}

TEST_CASE("io/bad: other syntax errors drop the parser's echo of the file") {
    using ratelab::io::parse_trace;
    try {
        parse_trace("{\"format\": \"ratelab-trace\", \"name\": \"" + std::string(200, 'y') +
                        "\" \"version\": 1}",
                    "bad.json");
        FAIL("a bad file loaded");
    } catch (const TraceFileError& error) {
        CHECK(error.detail().rfind("not valid JSON: ", 0) == 0);
        CHECK(error.detail().find("last read") == std::string::npos);
        CHECK(error.detail().find("yyyyy") == std::string::npos);
        CHECK(error.detail().find("syntax error while parsing") == std::string::npos);
    }
}
