// ratelab-cli import: a CSV file and an access log become the traces they describe.
#include <algorithm>

#include "catch.h"
#include "cli_runner.h"
#include "ratelab/io/trace_file.h"

namespace fs = std::filesystem;
using namespace ratelab;

namespace {

std::string quoted(const fs::path& path) {
    return "\"" + path.string() + "\"";
}

}  // namespace

TEST_CASE("cli: import a CSV file into a trace") {
    const fs::path dir = cli_scratch_dir("import-csv");
    write_file(dir / "traffic.csv",
               "when\tclient\tcost\n"
               "2024-03-01T12:00:02Z\tbob\t1\n"
               "2024-03-01T12:00:00Z\talice\t3\n"
               "oops\talice\t1\n"
               "2024-03-01T12:00:01.999Z\talice\t1\n");
    const CliRun run =
        run_cli("import " + quoted(dir / "traffic.csv") + " --format csv --time-column when " +
                "--key client --tick-ms 1000 --limit 2 --window 5 -o " + quoted(dir / "t.json"));
    REQUIRE(run.status == 0);
    CHECK(run.out.empty());
    CHECK(
        run.err ==
        "imported 3 requests from 4 lines; skipped 1:\n  line 4: cannot read the time \"oops\"\n");
    const io::TraceDocument doc = io::load_trace(dir / "t.json");
    REQUIRE(doc.trace.requests.size() == 3);
    CHECK(doc.trace.requests[0].tick == 0);
    CHECK(doc.trace.requests[0].cost == 3);
    CHECK(doc.trace.key_name(doc.trace.requests[0].key) == "alice");
    CHECK(doc.trace.requests[1].tick == 1);
    CHECK(doc.trace.requests[2].tick == 2);
    CHECK(doc.trace.key_name(doc.trace.requests[2].key) == "bob");
    CHECK(doc.params.base.limit == 2);
    CHECK(doc.params.base.window == 5);
    CHECK(doc.name == "Imported from traffic.csv");
    fs::remove_all(dir);
}

TEST_CASE("cli: import an access log into a trace") {
    const fs::path dir = cli_scratch_dir("import-log");
    std::string log;
    for (int second = 0; second < 8; ++second) {
        log += "192.0.2." + std::to_string(second % 2 + 1) + " - - [01/Mar/2024:12:00:0" +
               std::to_string(second) + " +0000] \"GET /item/" + std::to_string(second) +
               " HTTP/1.1\" 200 512\n";
    }
    log += "this is not a log line\n";
    write_file(dir / "access.log", log);
    const CliRun run = run_cli("import " + quoted(dir / "access.log") +
                               " --format clf --tick-ms 2000 --start 2024-03-01T11:59:58Z");
    REQUIRE(run.status == 0);
    CHECK(run.err.find("imported 8 requests from 9 lines; skipped 1:\n  line 9: ") == 0);
    const io::TraceDocument doc = io::parse_trace(run.out, "stdout");
    REQUIRE(doc.trace.requests.size() == 8);
    CHECK(doc.tick_ms == 2000);
    CHECK(doc.trace.requests[0].tick == 1);  // 2 s after the start, 2 s per tick
    CHECK(doc.trace.requests[7].tick == 4);
    CHECK(doc.trace.key_name(doc.trace.requests[0].key) == "192.0.2.1");
    CHECK(doc.trace.key_name(doc.trace.requests[1].key) == "192.0.2.2");

    const CliRun by_path =
        run_cli("import " + quoted(dir / "access.log") + " --format clf --key path");
    CHECK(io::parse_trace(by_path.out, "stdout").trace.keys.size() == 9);  // "" and 8 paths
    fs::remove_all(dir);
}

TEST_CASE("cli: import refuses what it cannot read") {
    const fs::path dir = cli_scratch_dir("import-bad");
    write_file(dir / "x.csv", "time\n1\n");
    const struct {
        std::string args;
        std::string expected;
    } cases[] = {
        {"import " + quoted(dir / "x.csv"), "--format must be csv, clf or combined"},
        {"import " + quoted(dir / "x.csv") + " --format xml", "--format must be"},
        {"import " + quoted(dir / "none.csv") + " --format csv", "cannot open"},
        {"import " + quoted(dir / "x.csv") + " --format csv --tick-ms 0", "--tick-ms must be"},
        {"import " + quoted(dir / "x.csv") + " --format csv --time-column stamp",
         "no time column named \"stamp\""},
        {"import " + quoted(dir / "x.csv") + " --format clf", "no line could be imported"},
        {"import " + quoted(dir / "x.csv") + " --format csv --start soon", "--start must be"},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        const CliRun run = run_cli(c.args);
        CHECK(run.status == 2);
        CHECK(run.out.empty());
        CHECK(run.err.find(c.expected) != std::string::npos);
        CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    }
    fs::remove_all(dir);
}
