// Importing CSV files and access logs: detection, overrides, time forms, skipped lines.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.h"
#include "ratelab/io/importers.h"

using namespace ratelab;
using namespace ratelab::io;

namespace {

ImportResult import_text(const std::string& text, ImportOptions options = {}) {
    std::istringstream in(text);
    return import_traffic(in, options);
}

std::vector<Tick> ticks_of(const Trace& trace) {
    std::vector<Tick> ticks;
    for (const Request& request : trace.requests) {
        ticks.push_back(request.tick);
    }
    return ticks;
}

std::string key_of(const Trace& trace, std::size_t i) {
    return trace.key_name(trace.requests[i].key);
}

}  // namespace

TEST_CASE("io/import: times in every accepted form") {
    CHECK(parse_time("1700000000") == 1'700'000'000'000);
    CHECK(parse_time("1700000000.25") == 1'700'000'000'250);
    CHECK(parse_time("1700000000250") == 1'700'000'000'250);  // >= 10^11: milliseconds
    CHECK(parse_time("1970-01-02") == 86'400'000);
    CHECK(parse_time("2024-03-01T12:00:00Z") == 1'709'294'400'000);
    CHECK(parse_time("2024-03-01 12:00:00.5") == 1'709'294'400'500);
    CHECK(parse_time("2024-03-01T14:00:00+02:00") == 1'709'294'400'000);
    CHECK(parse_time("2024-02-29T00:00:00Z"));
    CHECK_FALSE(parse_time("2023-02-29T00:00:00Z"));
    CHECK_FALSE(parse_time("2024-03-01T25:00:00Z"));
    CHECK_FALSE(parse_time("yesterday"));
    CHECK_FALSE(parse_time("12:00"));
    CHECK(parse_time("1700000000", TimeUnit::kMilliseconds) == 1'700'000'000);
    CHECK_FALSE(parse_time("2024-03-01", TimeUnit::kSeconds));
}

TEST_CASE("io/import: CSV with a header, found columns and out-of-order lines") {
    const auto result = import_text(
        "ts;user;weight\n"
        "1700000002;bob;1\n"
        "1700000000;alice;2\n"
        "1700000000.9;alice;1\n"
        "1700000005;\"carol; the third\";4\n",
        [] {
            ImportOptions o;
            o.tick_ms = 500;
            return o;
        }());
    CHECK(result.lines == 4);
    CHECK(result.imported == 4);
    CHECK(result.skipped == 0);
    CHECK(result.origin_ms == 1'700'000'000'000);
    const Trace& trace = result.document.trace;
    CHECK(ticks_of(trace) == std::vector<Tick>{0, 1, 4, 10});
    CHECK(key_of(trace, 0) == "alice");
    CHECK(trace.requests[0].cost == 2);
    CHECK(key_of(trace, 2) == "bob");
    CHECK(key_of(trace, 3) == "carol; the third");
    CHECK(trace.requests[3].cost == 4);
    CHECK(result.document.tick_ms == 500);
}

TEST_CASE("io/import: CSV without a header, columns by number, explicit delimiter") {
    ImportOptions options;
    options.delimiter = '|';
    options.time_column = "2";
    options.key_column = "1";
    options.header = false;
    const auto result = import_text("a|2024-03-01T00:00:10Z\nb|2024-03-01T00:00:00Z\n", options);
    CHECK(ticks_of(result.document.trace) == std::vector<Tick>{0, 10});
    CHECK(key_of(result.document.trace, 0) == "b");

    options.key_column = "client";  // a name needs a header
    CHECK_THROWS_AS(import_text("a|2024-03-01T00:00:10Z\n", options), ImportError);
}

TEST_CASE("io/import: skipped lines are counted, the first few described") {
    std::string text = "time,key\n";
    for (int i = 0; i < 10; ++i) {
        text += "100" + std::to_string(i) + ",k\n";
        text += "not-a-time,k\n";
    }
    text += "1020,\"unclosed\n\n";
    ImportOptions options;
    options.skipped_to_keep = 3;
    const auto result = import_text(text, options);
    CHECK(result.imported == 10);
    CHECK(result.skipped == 11);
    REQUIRE(result.first_skipped.size() == 3);
    CHECK(result.first_skipped[0].line == 3);
    CHECK(result.first_skipped[0].reason == "cannot read the time \"not-a-time\"");
    CHECK(result.first_skipped[2].line == 7);

    const auto tail = import_text("time\n5\n6\n7,8\n\"x\n", options);
    CHECK(tail.first_skipped.back().reason == "a quoted field is not closed");
}

TEST_CASE("io/import: a start time, and lines before it") {
    ImportOptions options;
    options.origin_ms = 10'000;
    const auto result = import_text("time\n5\n12\n15\n", options);
    CHECK(ticks_of(result.document.trace) == std::vector<Tick>{2, 5});
    CHECK(result.skipped == 1);
    CHECK(result.first_skipped[0].reason == "earlier than the chosen start time");
}

TEST_CASE("io/import: access logs in the Common and Combined formats") {
    const std::string log =
        "10.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \"GET /a.gif HTTP/1.0\" 200 2326 "
        "\"http://example.com/\" \"Mozilla/5.0 (X11)\"\n"
        "10.0.0.2 - - [10/Oct/2000:13:55:38 -0700] \"POST /login HTTP/1.1\" 401 12 \"-\" "
        "\"curl/8.0 \\\"quoted\\\"\"\n"
        "garbage line\n"
        "10.0.0.1 - frank [10/Oct/2000:20:55:37 +0000] \"GET /b HTTP/1.0\" 304 - \"-\" \"x\"\n";
    ImportOptions options;
    options.format = ImportFormat::kCombinedLog;
    const auto by_host = import_text(log, options);
    CHECK(by_host.imported == 3);
    CHECK(by_host.skipped == 1);
    CHECK(by_host.first_skipped[0].line == 3);
    const Trace& trace = by_host.document.trace;
    CHECK(ticks_of(trace) == std::vector<Tick>{0, 1, 2});
    CHECK(key_of(trace, 0) == "10.0.0.1");
    CHECK(key_of(trace, 1) == "10.0.0.1");
    CHECK(key_of(trace, 2) == "10.0.0.2");

    options.log_key = "path";
    CHECK(key_of(import_text(log, options).document.trace, 2) == "/login");
    options.log_key = "user_agent";
    CHECK(key_of(import_text(log, options).document.trace, 2) == "curl/8.0 \\\"quoted\\\"");

    // The Common format reads the same lines, ignoring what follows the byte count.
    options.format = ImportFormat::kCommonLog;
    options.log_key = "user";
    const auto by_user = import_text(log, options);
    CHECK(by_user.imported == 3);
    CHECK(key_of(by_user.document.trace, 0) == "frank");
    options.log_key = "referer";
    CHECK_THROWS_AS(import_text(log, options), ImportError);
    options.log_key = "colour";
    CHECK_THROWS_AS(import_text(log, options), ImportError);
}

TEST_CASE("io/import: progress is reported, and nothing usable is an error") {
    std::string text = "time\n";
    for (int i = 0; i < 40'000; ++i) {
        text += std::to_string(1000 + i / 10) + "\n";
    }
    ImportOptions options;
    std::vector<ImportProgress> reports;
    options.progress = [&](const ImportProgress& p) { reports.push_back(p); };
    std::istringstream in(text);
    const auto result = import_traffic(in, options, text.size());
    CHECK(result.imported == 40'000);
    REQUIRE(reports.size() >= 3);
    CHECK(reports.back().bytes == text.size());
    CHECK(reports.back().total_bytes == text.size());
    CHECK(reports.front().lines < reports.back().lines);

    CHECK_THROWS_AS(import_text(""), ImportError);
    CHECK_THROWS_AS(import_text("time\nnever\n"), ImportError);
    ImportOptions bad_tick;
    bad_tick.tick_ms = 0;
    CHECK_THROWS_AS(import_text("time\n5\n", bad_tick), ImportError);
}

TEST_CASE("io/import: a quoted CSV field goes on over line ends and never makes a request") {
    // RFC 4180: a line end inside quotes belongs to the field. Read line by line, the text in
    // the quotes used to become a request of its own (mallory's, at 1700000005).
    const auto result = import_text(
        "time,key,cost\n"
        "1700000000,\"a note\n"
        "1700000005,mallory\n"
        "\",1\n"
        "1700000001,bob,2\n"
        "1700000002,\"never closed\n"
        "1700000009,eve\n");
    CHECK(result.lines == 3);  // records, not lines
    CHECK(result.imported == 2);
    REQUIRE(result.document.trace.requests.size() == 2);
    CHECK(key_of(result.document.trace, 0) == "a note\n1700000005,mallory\n");
    CHECK(key_of(result.document.trace, 1) == "bob");
    CHECK(result.document.trace.requests[1].cost == 2);
    // The open quote takes the rest of the input with it, and is reported where it starts.
    REQUIRE(result.skipped == 1);
    CHECK(result.first_skipped[0].line == 6);
    CHECK(result.first_skipped[0].reason == "a quoted field is not closed");
}

TEST_CASE("io/import: spaces after the delimiter and line ends of a lone CR are read") {
    const auto result = import_text(
        "time, key, cost\r"
        "1700000000, alice, 2\r"
        "1700000001, \"bob, jr\" , 1\r\n"
        "1700000003,carol,1");
    CHECK(result.skipped == 0);
    REQUIRE(result.imported == 3);
    const Trace& trace = result.document.trace;
    CHECK(key_of(trace, 0) == "alice");
    CHECK(trace.requests[0].cost == 2);
    CHECK(key_of(trace, 1) == "bob, jr");
    CHECK(key_of(trace, 2) == "carol");
    CHECK(ticks_of(trace) == std::vector<Tick>{0, 1, 3});
}

TEST_CASE("io/import: a semicolon file is told apart from commas inside its fields") {
    // Line 1 has more commas than semicolons, but only the semicolons give a time.
    ImportOptions options;
    options.key_column = "2";
    const auto result = import_text(
        "1700000000;Mozilla/5.0 (X11, Linux, x86_64, rv:109.0)\n"
        "1700000002;curl/8.0\n",
        options);
    CHECK(result.skipped == 0);
    REQUIRE(result.imported == 2);
    CHECK(key_of(result.document.trace, 0) == "Mozilla/5.0 (X11, Linux, x86_64, rv:109.0)");
    CHECK(key_of(result.document.trace, 1) == "curl/8.0");
}

TEST_CASE("io/import: the result says how the lines were read, given or detected") {
    std::istringstream csv(
        "ts;client;weight\n2024-03-01T12:00:00Z;alice;2\n"
        "2024-03-01T12:00:01Z;bob;1\n");
    const ImportResult read = import_traffic(csv, ImportOptions{});
    CHECK(read.layout.delimiter == ';');
    CHECK(read.layout.header);
    CHECK(read.layout.time_column == "ts");
    CHECK(read.layout.key_column == "client");
    CHECK(read.layout.cost_column == "weight");
    CHECK(read.layout.time_format == "ISO 8601");

    std::istringstream bare("1709294400,7\n1709294401,9\n");
    const ImportResult numbers = import_traffic(bare, ImportOptions{});
    CHECK(numbers.layout.delimiter == ',');
    CHECK_FALSE(numbers.layout.header);
    CHECK(numbers.layout.time_column == "column 1");
    CHECK(numbers.layout.key_column.empty());
    CHECK(numbers.layout.cost_column.empty());
    CHECK(numbers.layout.time_format == "epoch seconds");

    std::istringstream millis("time\n1709294400000\n1709294400250\n");
    CHECK(import_traffic(millis, ImportOptions{}).layout.time_format == "epoch milliseconds");

    ImportOptions log;
    log.format = ImportFormat::kCommonLog;
    log.log_key = "user";
    std::istringstream clf(
        R"(10.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326)"
        "\n");
    CHECK(import_traffic(clf, log).layout.log_key == "user");
}

TEST_CASE("io/import: a preview reads whole lines from the head of a file") {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / "ratelab-import-head.csv";
    {
        std::ofstream out(file);
        out << "timestamp,key\n";
        for (int i = 0; i < 1000; ++i)
            out << 1709294400 + i << ",k" << i % 7 << "\n";
    }
    const ImportResult head = import_file_head(file, ImportOptions{}, 200);
    CHECK_FALSE(head.complete);
    // 14 bytes of header, then lines of 13 or 14 bytes: 13 whole lines in 200 bytes.
    CHECK(head.imported == 13);
    CHECK(head.skipped == 0);
    CHECK(head.layout.key_column == "key");
    const ImportResult whole = import_file_head(file, ImportOptions{}, 1 << 20);
    CHECK(whole.complete);
    CHECK(whole.imported == 1000);
    CHECK(whole.document.trace == import_file(file, ImportOptions{}).document.trace);
    std::filesystem::remove(file);
}
