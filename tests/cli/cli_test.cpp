// ratelab-cli as a user runs it: exit statuses, what goes to stdout and what to stderr.
#include <algorithm>
#include <fstream>
#include <thread>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "catch.h"
#include "cli_runner.h"

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

const std::string kSource = RATELAB_SOURCE_DIR;
const std::string kDefaultTrace = "\"" + kSource + "/traces/boundary-burst.json\"";

bool one_line(const std::string& text) {
    return !text.empty() && text.back() == '\n' && std::count(text.begin(), text.end(), '\n') == 1;
}

int accepted(const Json& report, const std::string& id) {
    for (const Json& run : report["algorithms"]) {
        if (run["id"] == id) {
            return run["accepted"].get<int>();
        }
    }
    return -1;
}

}  // namespace

TEST_CASE("cli: --version and --help") {
    const CliRun version = run_cli("--version");
    CHECK(version.status == 0);
    CHECK(version.out == std::string("ratelab-cli ") + RATELAB_VERSION_TEXT + "\n");

    const CliRun help = run_cli("--help");
    CHECK(help.status == 0);
    for (const char* command : {"simulate", "compare", "validate", "generate", "import"}) {
        CHECK(help.out.find(std::string("  ") + command) != std::string::npos);
        const CliRun command_help = run_cli(std::string(command) + " --help");
        INFO(command);
        CHECK(command_help.status == 0);
        CHECK(command_help.out.find(std::string("Usage: ratelab-cli ") + command) == 0);
        CHECK(command_help.err.empty());
    }
    CHECK(run_cli("simulate --help").out.find("--algorithms ID,...") != std::string::npos);
    CHECK(run_cli("generate --help").out.find("zipf-keys") != std::string::npos);

    const CliRun nothing = run_cli("");
    CHECK(nothing.status == 2);
    CHECK(nothing.out.empty());
    const CliRun unknown = run_cli("frobnicate");
    CHECK(unknown.status == 2);
    CHECK(one_line(unknown.err));
    CHECK(unknown.err.find("unknown command \"frobnicate\"") != std::string::npos);
}

TEST_CASE("cli: simulate prints the default scenario's report") {
    const CliRun run = run_cli("simulate " + kDefaultTrace);
    REQUIRE(run.status == 0);
    CHECK(run.err.empty());
    CHECK(run.out ==
          read_file(fs::path(RATELAB_IO_TEST_DIR) / "golden/boundary-burst.expected.json"));
    const Json report = Json::parse(run.out);
    CHECK(accepted(report, "fixed_window") == 8);
    CHECK(accepted(report, "sliding_log") == 4);
    CHECK(accepted(report, "sliding_counter") == 5);
    CHECK(accepted(report, "token_bucket") == 6);
    CHECK(accepted(report, "leaky_bucket") == 7);
    CHECK(accepted(report, "gcra") == 6);
}

TEST_CASE("cli: simulate options") {
    const Json chosen =
        Json::parse(run_cli("simulate " + kDefaultTrace + " --algorithms gcra,sliding_log").out);
    REQUIRE(chosen["algorithms"].size() == 2);
    CHECK(chosen["algorithms"][0]["id"] == "gcra");
    CHECK(chosen["algorithms"][1]["id"] == "sliding_log");

    const Json wider =
        Json::parse(run_cli("simulate " + kDefaultTrace + " --limit 8 --window 5").out);
    CHECK(wider["limit"] == 8);
    CHECK(wider["window"] == 5);
    CHECK(accepted(wider, "sliding_log") == 8);

    const Json summary = Json::parse(run_cli("simulate " + kDefaultTrace + " --summary").out);
    CHECK(summary["algorithms"].size() == 6);
    CHECK_FALSE(summary["algorithms"][0].contains("decisions"));

    // key-tiers: free (L = 2), pro (L = 8) and guest (the trace's L = 4) each stay within their
    // own limit under the window algorithms and the queue, though 14 pass in ten ticks in all;
    // the token bucket and GCRA let guest's bucket of 4 plus its refill through, 5 in ten ticks.
    const Json tiers =
        Json::parse(run_cli("simulate \"" + kSource + "/traces/key-tiers.json\" --summary").out);
    for (const Json& lane : tiers["algorithms"]) {
        INFO(lane["id"]);
        const bool bucket = lane["id"] == "token_bucket" || lane["id"] == "gcra";
        CHECK(lane["over_limit"] == bucket);
        REQUIRE(lane["keys"].size() == 3);
        CHECK(lane["keys"][0]["key"] == "free");
        CHECK(lane["keys"][2]["limit"] == 8);
        CHECK(lane["worst_key"]["key"] == (bucket ? "guest" : "free"));
        CHECK_FALSE(lane.contains("decisions"));
    }

    const fs::path dir = cli_scratch_dir("simulate");
    const CliRun to_file =
        run_cli("simulate " + kDefaultTrace + " -o \"" + (dir / "r.json").string() + "\"");
    CHECK(to_file.status == 0);
    CHECK(to_file.out.empty());
    CHECK(accepted(Json::parse(read_file(dir / "r.json")), "token_bucket") == 6);
    fs::remove_all(dir);
}

TEST_CASE("cli: a leaky bucket's worst burst over two tiers of costly requests") {
    // `keys` keys with one request of `cost` at tick 0; L = cost, W = 2 * span for the odd keys'
    // tier and W = span for the others, the trace's W: the others let a unit through every
    // span / cost ticks, the tier every 2 * span / cost. Drain intervals differ, so the burst is
    // counted unit by unit, with one run held per request.
    const fs::path dir = cli_scratch_dir("two-tiers");
    auto leaky_burst = [&](int keys, std::int64_t cost, std::int64_t span) {
        Json trace = {{"format", "ratelab-trace"},
                      {"version", 1},
                      {"limit", cost},
                      {"window", span},
                      {"keys", Json::object()},
                      {"requests", Json::array()}};
        for (int k = 0; k < keys; ++k) {
            const std::string key = "k" + std::to_string(k);
            if (k % 2 == 1)
                trace["keys"][key] = {{"limit", cost}, {"window", 2 * span}};
            trace["requests"].push_back({{"tick", 0}, {"cost", cost}, {"key", key}});
        }
        write_file(dir / "t.json", trace.dump());
        const Json report =
            Json::parse(run_cli("simulate \"" + (dir / "t.json").string() + "\" --summary").out);
        for (const Json& run : report["algorithms"]) {
            if (run["id"] == "leaky_bucket")
                return std::make_pair(run["worst_burst"]["cost"].get<std::int64_t>(),
                                      run["worst_burst"]["start"].dump());
        }
        return std::make_pair(std::int64_t{-1}, std::string());
    };
    // Small enough to count every unit: 10 keys at every 1/2 tick and 10 at every tick, 50
    // units each, W = 25. Times doubled, to stay whole.
    std::vector<std::int64_t> units;
    for (int k = 0; k < 20; ++k) {
        for (std::int64_t j = 0; j < 50; ++j)
            units.push_back(k % 2 == 1 ? 2 * j : j);
    }
    std::sort(units.begin(), units.end());
    std::int64_t most = 0;
    std::int64_t most_start = -1;
    for (std::size_t i = 0, end = 0; i < units.size(); ++i) {
        while (end < units.size() && units[end] < units[i] + 2 * 25)
            ++end;
        if (static_cast<std::int64_t>(end - i) > most) {
            most = static_cast<std::int64_t>(end - i);
            most_start = units[i] / 2;
        }
    }
    CHECK(most == 750);  // every unit of the faster keys and half of the tier's, from tick 0
    CHECK(most_start == 0);
    CHECK(leaky_burst(20, 50, 25) == std::make_pair(most, std::string("0")));
    // The same shape with 200 keys, cost 10^6 and W = 5 * 10^11: 2 * 10^8 units, which took
    // 4.2 GB when every unit inside the window was kept.
    CHECK(leaky_burst(200, 1'000'000, 500'000'000'000) ==
          std::make_pair(std::int64_t{150'000'000}, std::string("0")));
    fs::remove_all(dir);
}

TEST_CASE("cli: simulate refuses bad input with status 2 and one line on stderr") {
    const std::string bad = "\"" + std::string(RATELAB_IO_TEST_DIR) + "/bad/";
    const struct {
        std::string args;
        std::string expected;
    } cases[] = {
        {"simulate", "usage: ratelab-cli simulate"},
        {"simulate /no/such/trace.json", "/no/such/trace.json: no such file [file-missing]"},
        {"simulate " + bad + "tick-order.json\"", "$.requests[2].tick: ticks must not decrease"},
        {"simulate " + bad + "not-json.json\"", "2:21: not valid JSON"},
        {"simulate " + kDefaultTrace + " --algorithms token_bucket,nope",
         "unknown algorithm \"nope\""},
        {"simulate " + kDefaultTrace + " --limit 0", "--limit must be a whole number from 1"},
        {"simulate " + kDefaultTrace + " --window ten", "--window must be a whole number"},
        {"simulate " + kDefaultTrace + " --frobnicate", "unknown option --frobnicate"},
        {"simulate " + kDefaultTrace + " --limit", "--limit needs a value"},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        const CliRun run = run_cli(c.args);
        CHECK(run.status == 2);
        CHECK(run.out.empty());
        CHECK(one_line(run.err));
        CHECK(run.err.find(c.expected) != std::string::npos);
        CHECK(run.err.rfind("ratelab-cli simulate: ", 0) == 0);
    }
}

TEST_CASE("cli: compare prints a table for a trace or the default scenario") {
    const CliRun builtin = run_cli("compare");
    const CliRun file = run_cli("compare " + kDefaultTrace);
    REQUIRE(builtin.status == 0);
    REQUIRE(file.status == 0);
    for (const std::string& text : {builtin.out, file.out}) {
        CHECK(text.find("algorithm        accepted  rejected  worst burst") != std::string::npos);
        CHECK(text.find("fixed_window            8         0  8 from tick 6") != std::string::npos);
        CHECK(text.find("sliding_counter         5         3") != std::string::npos);
        CHECK(text.find("leaky_bucket            7         1  4 from tick 6          9") !=
              std::string::npos);
    }
    CHECK(run_cli("compare /no/such.json").status == 2);
}

TEST_CASE("cli: validate summarises good files and names what is wrong in bad ones") {
    const CliRun good = run_cli(kDefaultTrace.substr(0, 0) + "validate " + kDefaultTrace);
    CHECK(good.status == 0);
    CHECK(good.out.find("ok: \"The boundary burst\": 8 requests, 1 key, ticks 6 to 13") !=
          std::string::npos);
    // The timeline the app opens on: the last request at 13 plus W = 10.
    CHECK(good.out.find("timeline 23 ticks of 1000 ms") != std::string::npos);

    const std::string bad = "\"" + std::string(RATELAB_IO_TEST_DIR) + "/bad/cost-zero.json\"";
    const CliRun mixed = run_cli("validate " + kDefaultTrace + " " + bad);
    CHECK(mixed.status == 2);
    CHECK(mixed.out.find("ok:") != std::string::npos);
    CHECK(one_line(mixed.err));
    CHECK(mixed.err.find("cost-zero.json: $.requests[1].cost: cost must be between 1 and 1000000, "
                         "not 0 [out-of-range]") != std::string::npos);
}

TEST_CASE("cli: generate writes a valid trace, the same for the same seed") {
    const fs::path dir = cli_scratch_dir("generate");
    const std::string a = (dir / "a.json").string();
    const std::string b = (dir / "b.json").string();
    CHECK(run_cli("generate poisson --rate 0.7 --duration 50 --seed 9 -o \"" + a + "\"").status ==
          0);
    CHECK(run_cli("generate poisson --rate=0.7 --duration 50 --seed 9 -o \"" + b + "\"").status ==
          0);
    CHECK(read_file(a) == read_file(b));
    CHECK(run_cli("validate \"" + a + "\"").status == 0);

    const CliRun stdout_run = run_cli("generate boundary-burst");
    CHECK(stdout_run.status == 0);
    CHECK(stdout_run.out.find("\"requests\": [\n    {\"tick\": 6},") != std::string::npos);

    const CliRun unknown = run_cli("generate sawtooth");
    CHECK(unknown.status == 2);
    CHECK(unknown.err.find("unknown pattern \"sawtooth\"") != std::string::npos);
    const CliRun bad_value = run_cli("generate steady --per_window lots");
    CHECK(bad_value.status == 2);
    CHECK(one_line(bad_value.err));
    fs::remove_all(dir);
}

TEST_CASE("cli: -o writes through links and pipes and keeps a file's permissions") {
    const fs::path dir = cli_scratch_dir("output-targets");
    const fs::path real = dir / "real.json";
    write_file(real, "old");
    fs::permissions(real, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    const fs::path link = dir / "link.json";
    fs::create_symlink(real.filename(), link);

    CHECK(run_cli("simulate " + kDefaultTrace + " -o \"" + link.string() + "\"").status == 0);
    CHECK(fs::is_symlink(fs::symlink_status(link)));
    CHECK(Json::parse(read_file(real))["algorithms"].size() == 6);
    CHECK(fs::status(real).permissions() ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));

    const fs::path fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string piped;
    std::thread reader([&] { piped = read_file(fifo); });
    CHECK(run_cli("simulate " + kDefaultTrace + " --summary -o \"" + fifo.string() + "\"").status ==
          0);
    reader.join();
    CHECK(Json::parse(piped)["algorithms"].size() == 6);
    CHECK(fs::is_fifo(fs::symlink_status(fifo)));
    fs::remove_all(dir);
}

TEST_CASE("cli: a file that cannot be written exits 1 naming it and the reason") {
    const fs::path dir = cli_scratch_dir("output-refused");
    const CliRun run = run_cli("simulate " + kDefaultTrace + " -o \"" + dir.string() + "\"");
    CHECK(run.status == 1);
    CHECK(one_line(run.err));
    CHECK(run.err == "ratelab-cli simulate: cannot write " + dir.string() +
                         ": Is a directory (write-failed)\n");
    CHECK(fs::is_directory(dir));
    fs::remove_all(dir);
}

TEST_CASE("cli: --lane compares two settings of one algorithm, worked out by hand") {
    // The boundary burst: L = 4, W = 10, one request on each of ticks 6 to 13.
    const CliRun run = run_cli("simulate " + kDefaultTrace +
                               " --lane token_bucket --lane token_bucket:capacity=8,refill_rate=1/2"
                               " --lane leaky_bucket:queue_size=2");
    REQUIRE(run.status == 0);
    const Json report = Json::parse(run.out);
    REQUIRE(report["algorithms"].size() == 3);
    const Json& textbook = report["algorithms"][0];
    const Json& bigger = report["algorithms"][1];
    const Json& short_queue = report["algorithms"][2];
    // C = 4 tokens at 2/5 a tick: full at tick 6, so six pass (4 + 0.4 a tick), and tick 12
    // finds 0.4 tokens: 1.5 ticks to the next one.
    CHECK(textbook["params"].dump() == R"({"capacity":4,"refill_rate":"2/5"})");
    CHECK(textbook["accepted"] == 6);
    CHECK(textbook["decisions"][6]["retry_after"] == 1.5);
    // Eight tokens cover all eight requests.
    CHECK(bigger["label"] == "Token bucket (capacity 8, refill rate 1/2)");
    CHECK(bigger["params"].dump() == R"({"capacity":8,"refill_rate":"1/2"})");
    CHECK(bigger["accepted"] == 8);
    // A queue of 2 units draining one per 2.5 ticks: units start at 6, 8.5, 11 and 13.5; tick 10
    // finds 11 and 13.5 waiting (full) until 11; tick 11's request leaves at 16.
    CHECK(short_queue["params"].dump() == R"({"queue_size":2,"drain_interval":"5/2"})");
    CHECK(short_queue["accepted"] == 5);
    CHECK(short_queue["decisions"][4]["retry_after"] == 1);
    CHECK(short_queue["decisions"][5]["release"] == 16);
}

TEST_CASE("cli: a bad --lane exits 2 with one line naming the lane and the problem") {
    const struct {
        const char* spec;
        const char* message;
    } cases[] = {
        {"token_bukket", "lane 2 (token_bukket): unknown algorithm \"token_bukket\""},
        {"token_bucket:rate=1",
         "token_bucket has no parameter \"rate\" (it takes capacity, "
         "refill_rate)"},
        {"token_bucket:capacity=0", "capacity must be between 1 and 1000000, not 0"},
        {"token_bucket:refill_rate=0.4", "0.4 is a decimal: write 2/5"},
        {"gcra:burst", "\"burst\" is not NAME=VALUE"},
    };
    for (const auto& c : cases) {
        INFO(c.spec);
        const CliRun run =
            run_cli("simulate " + kDefaultTrace + " --lane gcra --lane '" + c.spec + "'");
        CHECK(run.status == 2);
        CHECK(one_line(run.err));
        CHECK(run.err.find(c.message) != std::string::npos);
        CHECK(run.out.empty());
    }
    const CliRun both = run_cli("simulate " + kDefaultTrace + " --lane gcra --algorithms gcra");
    CHECK(both.status == 2);
    CHECK(both.err.find("not both") != std::string::npos);
}

TEST_CASE("cli: compare and the algorithms list take lanes and declarations") {
    const CliRun compare = run_cli("compare --lane gcra --lane gcra:burst=1");
    REQUIRE(compare.status == 0);
    CHECK(compare.out.find("gcra                 6         2") != std::string::npos);
    CHECK(compare.out.find("gcra:burst=1         3         5") != std::string::npos);
    const CliRun list = run_cli("algorithms --json");
    REQUIRE(list.status == 0);
    const Json algorithms = Json::parse(list.out)["algorithms"];
    REQUIRE(algorithms.size() == 6);
    CHECK(algorithms[3]["id"] == "token_bucket");
    CHECK(algorithms[3]["parameters"][1].dump() ==
          R"({"name":"refill_rate","display_name":"Refill rate","kind":"rational",)"
          R"("unit":"per tick","default":"L/W","min":"1/1000000","max":1000000000000,)"
          R"("description":"tokens added per tick"})");
}

TEST_CASE("cli: names, keys and file names from outside never reach the terminal raw") {
    const fs::path dir = cli_scratch_dir("terminal");
    // A name with an escape sequence, a C1 control and a newline that forges an "ok" line.
    const fs::path trace = dir / "evil.json";
    write_file(trace,
               "{\"format\": \"ratelab-trace\", \"version\": 1, \"name\": "
               "\"x\\u001b[2J\\u009b31m\\nother.json: ok\", \"limit\": 4, \"window\": 10, "
               "\"requests\": [{\"tick\": 1}]}");
    const CliRun validated = run_cli("validate \"" + trace.string() + "\"");
    CHECK(validated.status == 0);
    CHECK(one_line(validated.out));
    CHECK(validated.out.find('\x1b') == std::string::npos);
    CHECK(validated.out.find("\xC2\x9B") == std::string::npos);
    CHECK(validated.out.find("x\\x1B[2J\\u009B31m\\x0Aother.json: ok") != std::string::npos);
    const CliRun compared = run_cli("compare \"" + trace.string() + "\"");
    CHECK(compared.out.find('\x1b') == std::string::npos);

    // A file name with a newline, in an error message.
    const CliRun missing = run_cli("validate \"" + (dir / "a\nb.json").string() + "\"");
    CHECK(missing.status == 2);
    CHECK(one_line(missing.err));
    CHECK(missing.err.find("a\\x0Ab.json") != std::string::npos);

    // A skipped line of an import, quoted in its reason.
    const fs::path csv = dir / "log.csv";
    write_file(csv, "time,key\n1,alice\n\x1b]0;owned\x07,bob\n2,carol\n");
    const CliRun imported =
        run_cli("import \"" + csv.string() + "\" --format csv --time-unit s -o \"" +
                (dir / "out.json").string() + "\"");
    CHECK(imported.status == 0);
    CHECK(imported.err.find("skipped 1") != std::string::npos);
    CHECK(imported.err.find('\x1b') == std::string::npos);
    CHECK(imported.err.find('\x07') == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("cli: algorithms lists the library presets apart, with library and version") {
    const Json list = Json::parse(run_cli("algorithms --json").out);
    CHECK(list["algorithms"].size() == 6);
    REQUIRE(list["presets"].is_array());
    const auto preset = std::find_if(list["presets"].begin(), list["presets"].end(),
                                     [](const Json& p) { return p["id"] == "x_time_rate"; });
    REQUIRE(preset != list["presets"].end());
    CHECK((*preset)["library"] == "golang.org/x/time/rate");
    CHECK((*preset)["version"] == "v0.3.0");
    for (const Json& own : list["algorithms"]) {
        CHECK_FALSE(own.contains("library"));
    }
    const CliRun text = run_cli("algorithms");
    CHECK(text.out.find("Library presets") != std::string::npos);
    CHECK(text.out.find("reproduces limits (Python) FixedWindowRateLimiter 2.8.0") !=
          std::string::npos);
}

TEST_CASE("cli: a preset lane reads its parameters in the library's units through tick_ms") {
    const fs::path dir = fs::temp_directory_path() / "ratelab-cli-preset-test";
    fs::create_directories(dir);
    const fs::path trace = dir / "preset.json";
    {
        std::ofstream out(trace);
        // 100 ms ticks: express-rate-limit with 2 per 1500 ms accepts at 0 and 0.5 s, rejects
        // at 1.2 s (Retry-After 1 s = 10 ticks) and starts over at 1.5 s.
        out << R"({"format": "ratelab-trace", "version": 2, "tick_ms": 100, "limit": 4,
                   "window": 10, "lanes": [{"algorithm": "express_rate_limit",
                   "params": {"limit": 2, "window_ms": 1500}}],
                   "requests": [{"tick": 0}, {"tick": 5}, {"tick": 12}, {"tick": 15}]})";
    }
    const Json report = Json::parse(run_cli("simulate \"" + trace.string() + "\"").out);
    const Json& decisions = report["algorithms"][0]["decisions"];
    REQUIRE(decisions.size() == 4);
    CHECK(decisions[0]["accepted"] == true);
    CHECK(decisions[1]["accepted"] == true);
    CHECK(decisions[2]["accepted"] == false);
    CHECK(decisions[2]["retry_after"] == 10);
    CHECK(decisions[3]["accepted"] == true);
    fs::remove_all(dir);
}
