// Every bundled trace loads, is in canonical form, and simulates to its committed golden report.
// The default scenario's figures are also checked one by one against the hand-worked values.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "catch.h"
#include "ratelab/io/report.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/simulation.h"

namespace fs = std::filesystem;
using namespace ratelab;
using namespace ratelab::io;
using Json = nlohmann::ordered_json;

namespace {

const fs::path kTraces = fs::path(RATELAB_SOURCE_DIR) / "traces";
const fs::path kGolden = fs::path(RATELAB_IO_TEST_DIR) / "golden";

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<fs::path> bundled_traces() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(kTraces)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

Json live_report(TraceDocument doc) {
    // As ratelab-cli simulate does: the library presets read their units through tick_ms.
    set_tick_ms(doc.params, doc.tick_ms);
    const auto result = simulate(std::make_shared<const Trace>(doc.trace), doc.params);
    return make_report(*result);
}

/// Where two reports first differ, for a readable failure.
std::string first_difference(const Json& expected, const Json& actual) {
    if (expected.size() != actual.size() ||
        expected["algorithms"].size() != actual["algorithms"].size()) {
        return "different shape";
    }
    for (std::size_t a = 0; a < expected["algorithms"].size(); ++a) {
        const Json& e = expected["algorithms"][a];
        const Json& g = actual["algorithms"][a];
        for (const auto& [field, value] : e.items()) {
            if (field != "decisions" && g.value(field, Json()) != value) {
                return e["id"].get<std::string>() + " " + field + ": expected " + value.dump() +
                       ", got " + g.value(field, Json()).dump();
            }
        }
        for (std::size_t i = 0; i < e["decisions"].size() && i < g["decisions"].size(); ++i) {
            if (e["decisions"][i] != g["decisions"][i]) {
                return e["id"].get<std::string>() + " decision " + std::to_string(i) +
                       ": expected " + e["decisions"][i].dump() + ", got " +
                       g["decisions"][i].dump();
            }
        }
    }
    return "same";
}

const Json& run_of(const Json& report, const std::string& id) {
    for (const Json& run : report["algorithms"]) {
        if (run["id"] == id) {
            return run;
        }
    }
    FAIL("no run for " << id);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("io/golden: at least nine bundled traces, each with a golden report") {
    const auto traces = bundled_traces();
    CHECK(traces.size() >= 9);
    std::set<std::string> expected_files;
    for (const auto& entry : fs::directory_iterator(kGolden)) {
        if (entry.path().extension() == ".json") {
            expected_files.insert(entry.path().filename().string());
        }
    }
    std::set<std::string> wanted;
    for (const fs::path& trace : traces) {
        wanted.insert(trace.stem().string() + ".expected.json");
    }
    CHECK(expected_files == wanted);  // none missing, none left over
}

TEST_CASE("io/golden: every bundled trace is valid, canonical and described") {
    for (const fs::path& file : bundled_traces()) {
        INFO(file.filename().string());
        const TraceDocument doc = load_trace(file);
        CHECK(doc.warnings.empty());
        CHECK_FALSE(doc.name.empty());
        CHECK(doc.description.size() > 80);  // says what to look for
        CHECK(serialize_trace(doc) == read_text(file));
    }
}

TEST_CASE("io/golden: every bundled trace simulates to its golden report") {
    for (const fs::path& file : bundled_traces()) {
        INFO(file.filename().string());
        const Json expected =
            Json::parse(read_text(kGolden / (file.stem().string() + ".expected.json")));
        const Json actual = live_report(load_trace(file));
        INFO(first_difference(expected, actual));
        const bool same = actual == expected;  // not CHECK(a == b): it would print both whole
        CHECK(same);
        CHECK(actual["algorithms"].size() == 6);
    }
}

TEST_CASE("io/golden: the default scenario matches the values worked out by hand") {
    const TraceDocument doc = load_trace(kTraces / "boundary-burst.json");
    CHECK(doc.trace == default_trace());
    CHECK(doc.params == default_params());

    const Json report = Json::parse(read_text(kGolden / "boundary-burst.expected.json"));
    const auto accepted = [&](const char* id) { return run_of(report, id)["accepted"].get<int>(); };
    CHECK(accepted("fixed_window") == 8);
    CHECK(run_of(report, "fixed_window")["worst_burst"]["cost"] == 8);
    CHECK(accepted("sliding_log") == 4);
    CHECK(accepted("sliding_counter") == 5);
    CHECK(run_of(report, "sliding_counter")["decisions"][7]["accepted"] == true);  // tick 13
    CHECK(accepted("token_bucket") == 6);
    CHECK(accepted("gcra") == 6);
    CHECK(accepted("leaky_bucket") == 7);
    CHECK(run_of(report, "leaky_bucket")["worst_burst"]["cost"].get<int>() <= 4);

    // The leaky bucket's last accepted request is the one at tick 12, released at 21.
    const Json& leaky = run_of(report, "leaky_bucket")["decisions"];
    CHECK(leaky[6]["tick"] == 12);
    CHECK(leaky[6]["accepted"] == true);
    CHECK(leaky[6]["release"] == 21);
    CHECK(leaky[6]["delay"] == 9);
    CHECK(leaky[7]["accepted"] == false);

    // Retry times of the first rejections.
    CHECK(run_of(report, "sliding_log")["decisions"][4]["tick"] == 10);
    CHECK(run_of(report, "sliding_log")["decisions"][4]["retry_after"] == 6);
    CHECK(run_of(report, "sliding_counter")["decisions"][4]["retry_after"] == 2.5);
    CHECK(run_of(report, "token_bucket")["decisions"][6]["tick"] == 12);
    CHECK(run_of(report, "token_bucket")["decisions"][6]["retry_after"] == 1.5);
}
