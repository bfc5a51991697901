// Hostile and malformed trace files: every one is refused with one clean TraceFileError that
// names its rule and place, and nothing else ever escapes the loader.
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "catch.h"
#include "expectations_table.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"

namespace fs = std::filesystem;
using namespace ratelab;
using namespace ratelab::io;

namespace {

const fs::path kBadDir = fs::path(RATELAB_HARDENING_DIR) / "bad";

std::map<std::string, ratelab::test::ExpectedError> read_expectations() {
    return ratelab::test::read_expectations(kBadDir / "expected.tsv");
}

/// Parses `text`; returns the error, or a TraceFileError with rule "loaded" if it loaded.
/// Any other exception escapes and fails the test.
TraceFileError outcome(std::string_view text) {
    try {
        const TraceDocument doc = parse_trace(text, "input.json");
        // Whatever loads must be something the simulator accepts.
        CHECK(validate(doc.params).empty());
        CHECK(validate(doc.trace).empty());
    } catch (const TraceFileError& error) {
        return error;
    }
    return TraceFileError("input.json", "", "loaded", "");
}

const char* const kGoodObjectForm = R"({
  "format": "ratelab-trace",
  "version": 1,
  "name": "Élève's trace",
  "limit": 4,
  "window": 10,
  "algorithms": {"token_bucket": {"refill_rate": "5/2"}},
  "keys": {"pro": {"limit": 8, "window": 10}},
  "requests": [
    {"tick": 6},
    {"tick": 7, "cost": 2, "key": "pro"}
  ]
}
)";

const char* const kGoodColumnForm = R"({
  "format": "ratelab-trace",
  "version": 1,
  "limit": 3,
  "window": 7,
  "columns": {
    "key_table": ["", "alice"],
    "tick_deltas": [0, 1, 6],
    "costs": [1, 2, 1],
    "keys": [0, 1, 1]
  }
}
)";

}  // namespace

TEST_CASE("hardening/bad: every hostile file gives its intended error") {
    const auto expected = read_expectations();
    REQUIRE(expected.size() >= 30);
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(kBadDir)) {
        const std::string name = entry.path().filename().string();
        if (name == "expected.tsv")
            continue;
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
            const std::string message = error.what();
            CHECK(message.find('\n') == std::string::npos);
            CHECK(message.rfind(entry.path().string() + ": " + error.location() + ": ", 0) == 0);
        }
        ++checked;
    }
    CHECK(checked == expected.size());
}

TEST_CASE("hardening/bad: every truncation of a good file is refused as a syntax error") {
    for (const std::string text : {kGoodObjectForm, kGoodColumnForm}) {
        REQUIRE(outcome(text).rule() == "loaded");
        const std::size_t end = text.rfind('}');
        for (std::size_t length = 0; length <= end; ++length) {
            INFO("first " << length << " bytes");
            const TraceFileError error = outcome(std::string_view(text).substr(0, length));
            if (length == 0) {
                CHECK(error.rule() == "file-empty");
            } else {
                // A cut inside "É" leaves half a UTF-8 sequence.
                CHECK((error.rule() == "not-json" || error.rule() == "invalid-utf8"));
                CHECK(error.location().find(':') != std::string::npos);  // line:column
            }
        }
    }
}

TEST_CASE("hardening/bad: random damage to a good file never escapes as anything else") {
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    std::size_t loaded = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text = round % 2 == 0 ? kGoodObjectForm : kGoodColumnForm;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % text.size();
            switch (rng() % 4) {
                case 0:
                    text[at] = static_cast<char>(rng() % 256);
                    break;
                case 1:
                    text.erase(at, 1 + rng() % 8);
                    break;
                case 2:
                    text.insert(at,
                                std::string(1 + rng() % 3, "0123456789-.e\"[]{},:/"[rng() % 21]));
                    break;
                default:
                    text.insert(at, text.substr(rng() % text.size(), rng() % 16));
            }
        }
        const TraceFileError error = outcome(text);
        loaded += error.rule() == "loaded" ? 1 : 0;
        if (error.rule() != "loaded") {
            CHECK_FALSE(error.detail().empty());
        }
    }
    CHECK(loaded > 0);  // the damage is not always fatal, so the checks above saw both kinds
}

TEST_CASE("hardening/bad: deep nesting is refused at once, whatever its depth") {
    // Each level used to keep its own copy of the path: 30,000 levels took 1.3 GB.
    const std::string head = R"({"format": "ratelab-trace", "version": 1, "limit": 1, "window": 1,
                                 "requests": [], "x-deep": )";
    for (const std::size_t depth : {kMaxNesting, kMaxNesting + 1, std::size_t{1'000'000}}) {
        INFO("depth " << depth);
        const std::string text = head + std::string(depth, '[') + std::string(depth, ']') + "}";
        const TraceFileError error = outcome(text);
        CHECK(error.rule() == (depth <= kMaxNesting ? "loaded" : "too-deep"));
    }
}

TEST_CASE("hardening/bad: a flood of values outside the requests is refused") {
    // 20 million numbers in an unknown field took 1 GB of memory and were kept to be saved back.
    std::string text = R"({"format": "ratelab-trace", "version": 1, "limit": 1, "window": 1,
                           "requests": [], "x-flood": [0)";
    // format, version, limit, window and the array itself count too.
    const std::size_t room = kMaxOtherValues - 5;
    text.reserve(text.size() + 2 * room + 8);
    for (std::size_t i = 1; i < room; ++i)
        text += ",0";
    CHECK(outcome(text + "]}").rule() == "loaded");
    const TraceFileError error = outcome(text + ",0]}");
    CHECK(error.rule() == "too-many-values");
    CHECK(error.location() == "$.x-flood[" + std::to_string(room) + "]");
}

TEST_CASE("hardening/bad: a UTF-8 byte order mark, as some editors write, is accepted") {
    CHECK(outcome("\xEF\xBB\xBF" + std::string(kGoodObjectForm)).rule() == "loaded");
}
