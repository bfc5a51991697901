// Loading, saving and round-tripping trace files (format version 1).
#include <chrono>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "catch.h"
#include "ratelab/io/trace_file.h"

namespace fs = std::filesystem;
using namespace ratelab;
using namespace ratelab::io;

namespace {

/// A fresh, empty folder for one test.
fs::path scratch_dir(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("ratelab-io-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string rule_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const TraceFileError& error) {
        return error.rule();
    }
    return "no error";
}

TraceDocument sample_document(std::size_t requests) {
    TraceDocument doc;
    doc.name = "Sample";
    doc.description = "Two keys, \"quoted\" text and ünïcode.";
    doc.tick_ms = 250;
    doc.params.base = {5, 20, {}};
    doc.params.base.set_override("token_bucket", "refill_rate", Rational(5, 2));
    doc.params.base.set_override("leaky_bucket", "queue_size", Rational(7));
    doc.params.keys["premium"] = {10, 20, {}};
    doc.params.keys["premium"].set_override("gcra", "emission_interval", Rational(3, 2));
    doc.params.rejections_count = true;
    TraceBuilder builder;
    for (std::size_t i = 0; i < requests; ++i) {
        const auto tick = static_cast<Tick>(i / 3 * 2);
        builder.add(tick, static_cast<std::uint32_t>(1 + i % 4), i % 5 == 0 ? "premium" : "");
    }
    doc.trace = std::move(builder).take();
    return doc;
}

}  // namespace

TEST_CASE("io/trace: the minimal form of the foundation issue loads") {
    const auto doc = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "requests": [{"tick": 6}, {"tick": 7, "cost": 2, "key": "alice"}]})",
        "minimal");
    CHECK(doc.params.base.limit == 4);
    CHECK(doc.params.base.window == 10);
    CHECK(doc.tick_ms == 1000);
    CHECK_FALSE(doc.duration);
    REQUIRE(doc.trace.requests.size() == 2);
    CHECK(doc.trace.requests[0] == Request{6, 1, 0});
    CHECK(doc.trace.requests[1].tick == 7);
    CHECK(doc.trace.requests[1].cost == 2);
    CHECK(doc.trace.key_name(doc.trace.requests[1].key) == "alice");
    CHECK(effective_duration(doc) == 7 + 10);  // as the app's timeline opens: last + W
    CHECK(doc.warnings.empty());
}

TEST_CASE("io/trace: every field of version 1 is read") {
    const auto doc = parse_trace(R"({
        "format": "ratelab-trace", "version": 1, "name": "N", "description": "D",
        "tick_ms": 100, "duration": 50, "limit": 3, "window": 12, "rejections_count": true,
        "algorithms": {"token_bucket": {"capacity": 6, "refill_rate": "1/4"},
                       "leaky_bucket": {"queue_size": 2, "drain_interval": 4},
                       "gcra": {"burst": 5, "emission_interval": "10/4"}},
        "keys": {"gold": {"limit": 9, "window": 3, "algorithms": {"gcra": {"burst": 2}}}},
        "requests": [{"tick": 0, "key": "gold"}]})",
                                 "full");
    CHECK(doc.name == "N");
    CHECK(doc.description == "D");
    CHECK(doc.tick_ms == 100);
    CHECK(doc.duration == 50);
    CHECK(effective_duration(doc) == 50);
    CHECK(doc.params.rejections_count);
    const Limits& o = doc.params.base;
    CHECK(o.override_of("token_bucket", "capacity") == ParamValue(Rational(6)));
    CHECK(o.override_of("token_bucket", "refill_rate") == ParamValue(Rational(1, 4)));
    CHECK(o.override_of("leaky_bucket", "queue_size") == ParamValue(Rational(2)));
    CHECK(o.override_of("leaky_bucket", "drain_interval") == ParamValue(Rational(4)));
    CHECK(o.override_of("gcra", "burst") == ParamValue(Rational(5)));
    CHECK(o.override_of("gcra", "emission_interval") == ParamValue(Rational(5, 2)));
    const Limits& gold = doc.params.for_key("gold");
    CHECK(gold.limit == 9);
    CHECK(gold.window == 3);
    CHECK(gold.override_of("gcra", "burst") == ParamValue(Rational(2)));
    CHECK_FALSE(gold.override_of("token_bucket", "capacity"));
}

TEST_CASE("io/trace: saving then loading gives the same document, and the same bytes again") {
    for (std::size_t count : {std::size_t{0}, std::size_t{7}, kCompactThreshold + 5}) {
        INFO(count << " requests");
        const TraceDocument doc = sample_document(count);
        const std::string text = serialize_trace(doc);
        const TraceDocument loaded = parse_trace(text, "round-trip");
        CHECK(loaded == doc);
        CHECK(serialize_trace(loaded) == text);
        const bool compact = text.find("\"columns\"") != std::string::npos;
        CHECK(compact == (count > kCompactThreshold));
    }
}

TEST_CASE("io/trace: requests that set their own duration keep it through both forms") {
    for (std::size_t count : {std::size_t{7}, kCompactThreshold + 5}) {
        INFO(count << " requests");
        TraceDocument doc = sample_document(count);
        doc.trace.set_duration(1, 30);
        doc.trace.set_duration(count - 1, 1'000'000'000'000);
        const std::string text = serialize_trace(doc);
        const TraceDocument loaded = parse_trace(text, "durations");
        CHECK(loaded.trace.durations.size() == count);
        CHECK(loaded.trace.duration(0) == 0);
        CHECK(loaded.trace.duration(1) == 30);
        CHECK(loaded.trace.duration(count - 1) == 1'000'000'000'000);
        CHECK(loaded == doc);
        CHECK(serialize_trace(loaded) == text);
        // Version 3, so that a RateLab that predates durations says to update, not what it misses.
        CHECK(text.find("\"version\": 3,") != std::string::npos);
    }
    const std::string object_form = serialize_trace([] {
        TraceDocument doc = sample_document(2);
        doc.trace.set_duration(1, 30);
        return doc;
    }());
    CHECK(object_form.find("{\"tick\": 0, \"cost\": 2, \"duration\": 30}") != std::string::npos);
    // A column of zeros sets nothing.
    const auto zeros = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "columns": {"tick_deltas": [1, 2], "durations": [0, 0]}})",
        "zeros");
    CHECK(zeros.trace.durations.empty());
}

TEST_CASE("io/trace: long columns read side by side load as the same trace") {
    // Over 4 MB of text per column: the columns are read on threads of their own.
    TraceDocument doc;
    doc.name = "long";
    doc.params.base = {5, 20, {}};
    TraceBuilder builder;
    for (std::size_t i = 0; i < 1'200'000; ++i)
        builder.add(static_cast<Tick>(i / 3), static_cast<std::uint32_t>(1 + i % 999'999),
                    "k" + std::to_string(i % 1'000'003));
    doc.trace = std::move(builder).take();
    const std::string text = serialize_trace(doc);
    REQUIRE(text.find("\"columns\"") != std::string::npos);
    CHECK(parse_trace(text, "long") == doc);

    // A bad value far into the second long column is reported as the JSON parser finds it.
    std::string bad = text;
    const std::size_t costs = bad.find("\"costs\": [");
    REQUIRE(costs != std::string::npos);
    const std::size_t late = bad.find(',', costs + 3'000'000);
    bad.replace(late, 1, ", 0,");
    CHECK(rule_of([&] { parse_trace(bad, "bad"); }) == "out-of-range");
    bad.replace(late, 4, ", 1.5,");
    CHECK(rule_of([&] { parse_trace(bad, "bad"); }) == "not-integer");
}

TEST_CASE("io/trace: a column with a bracket in a string is left to the JSON parser") {
    // The first `]` after the `[` of "keys" is inside a string, and what follows it looks like
    // more columns: none of it may be read as one.
    const std::string text =
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "columns": {"key_table": ["a"], "tick_deltas": [1, 2],
                        "keys": ["]", "costs": [7, 7]"]}})";
    CHECK(rule_of([&] { parse_trace(text, "bracket"); }) != "no error");
    const auto doc = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "columns": {"tick_deltas": [1, 2], "costs": [3, 4]}, "note": "]"})",
        "bracket after");
    REQUIRE(doc.trace.requests.size() == 2);
    CHECK(doc.trace.requests[1].cost == 4);
}

TEST_CASE("io/trace: the object form writes one request per line") {
    const std::string text = serialize_trace(sample_document(3));
    CHECK(text.find("  \"requests\": [\n"
                    "    {\"tick\": 0, \"key\": \"premium\"},\n"
                    "    {\"tick\": 0, \"cost\": 2},\n"
                    "    {\"tick\": 0, \"cost\": 3}\n"
                    "  ]\n}\n") != std::string::npos);
    CHECK(text.find("\"algorithms\": {\"token_bucket\": {\"refill_rate\": \"5/2\"}, "
                    "\"leaky_bucket\": {\"queue_size\": 7}}") != std::string::npos);
}

TEST_CASE("io/trace: a hand-written key table without the default key still maps keys") {
    const auto doc = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "columns": {"key_table": ["bob", "alice"], "tick_deltas": [3, 0, 2],
                        "keys": [1, 0, 1], "costs": [1, 5, 1]}})",
        "columns");
    REQUIRE(doc.trace.requests.size() == 3);
    CHECK(doc.trace.requests[0].tick == 3);
    CHECK(doc.trace.requests[1].tick == 3);
    CHECK(doc.trace.requests[2].tick == 5);
    CHECK(doc.trace.requests[1].cost == 5);
    CHECK(doc.trace.key_name(doc.trace.requests[0].key) == "alice");
    CHECK(doc.trace.key_name(doc.trace.requests[1].key) == "bob");
    CHECK(doc.trace.keys[0].empty());
}

TEST_CASE("io/trace: unknown top-level fields are kept, reported and saved back") {
    const auto doc = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "x-author": "Ada",
            "x-notes": {"slides": [3, 4], "ok": true}, "limit": 4, "window": 10,
            "requests": []})",
        "unknown");
    REQUIRE(doc.warnings.size() == 2);
    CHECK(doc.warnings[0].find("x-author") != std::string::npos);
    const std::string text = serialize_trace(doc);
    CHECK(text.find(
              "  \"x-author\": \"Ada\",\n  \"x-notes\": {\"slides\": [3, 4], \"ok\": true},\n") !=
          std::string::npos);
    CHECK(parse_trace(text, "again").unknown_fields == doc.unknown_fields);
}

TEST_CASE("io/trace: an error names the file, the place and the rule on one line") {
    try {
        parse_trace(R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
                        "requests": [{"tick": 6}, {"tick": 5}]})",
                    "lesson.json");
        FAIL("no error");
    } catch (const TraceFileError& error) {
        CHECK(std::string(error.what()) ==
              "lesson.json: $.requests[1].tick: ticks must not decrease: 5 comes after 6 "
              "(sort the requests by tick) [tick-order]");
    }
}

TEST_CASE("io/trace: unusable files are refused with their own rule") {
    const fs::path dir = scratch_dir("files");
    CHECK(rule_of([&] { load_trace(dir / "absent.json"); }) == "file-missing");
    CHECK(rule_of([&] { load_trace(dir); }) == "file-is-directory");

    // A sparse file far past the maximum: refused from its size alone, without reading it.
    const fs::path huge = dir / "huge.json";
    std::ofstream(huge).put('{');
    fs::resize_file(huge, kMaxTraceFileBytes * 8);
    const auto start = std::chrono::steady_clock::now();
    CHECK(rule_of([&] { load_trace(huge); }) == "file-too-large");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(200));

    const fs::path locked = dir / "locked.json";
    save_trace(sample_document(2), locked);
    fs::permissions(locked, fs::perms::none);
    if (::geteuid() != 0) {  // root reads files whatever their permissions
        CHECK(rule_of([&] { load_trace(locked); }) == "file-unreadable");
    }
    fs::remove_all(dir);
}

TEST_CASE("io/trace: saving is atomic and reports failures") {
    const fs::path dir = scratch_dir("save");
    const fs::path file = dir / "trace.json";
    save_trace(sample_document(4), file);
    save_trace(sample_document(9), file);  // replaces the previous content whole
    CHECK(load_trace(file) == sample_document(9));
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) {
        ++entries;
    }
    CHECK(entries == 1);  // no temporary file left behind
    CHECK(rule_of([&] { save_trace(sample_document(1), dir / "no-such-dir" / "t.json"); }) ==
          "write-failed");
    fs::remove_all(dir);
}

TEST_CASE("io/trace: notes are read in tick order and written back") {
    const auto doc = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "notes": [{"tick": 10, "text": "the window turns over"},
                      {"tick": 2, "text": "a burst \"starts\" ✓"},
                      {"tick": 10, "text": "second on 10"}],
            "requests": [{"tick": 6}]})",
        "notes");
    REQUIRE(doc.notes.size() == 3);
    CHECK(doc.notes[0] == TraceNote{2, "a burst \"starts\" ✓"});
    // Notes on one tick keep their order in the file.
    CHECK(doc.notes[1] == TraceNote{10, "the window turns over"});
    CHECK(doc.notes[2] == TraceNote{10, "second on 10"});
    CHECK(doc.warnings.empty());  // a field this version knows
    const std::string text = serialize_trace(doc);
    CHECK(text.find("\"notes\": [\n    {\"tick\": 2, \"text\": ") != std::string::npos);
    CHECK(parse_trace(text, "again") == doc);
    // A document without notes writes no "notes" field.
    TraceDocument bare = doc;
    bare.notes.clear();
    CHECK(serialize_trace(bare).find("\"notes\"") == std::string::npos);
}

TEST_CASE("io/trace: a note's text is checked before anything is written") {
    TraceDocument doc = sample_document(3);
    doc.notes.push_back({1, std::string("bad \xff byte")});
    try {
        (void)serialize_trace(doc);
        FAIL("serialized text that is not UTF-8");
    } catch (const TraceFileError& error) {
        CHECK(error.rule() == "invalid-utf8");
        CHECK(error.location() == "$.notes[0].text");
    }
}
