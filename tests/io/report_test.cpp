// The JSON report: key order, numbers, "never", the leaky bucket's extra fields, summary mode.
#include <filesystem>
#include <sstream>

#include "ratelab/io/report.h"
#include "ratelab/io/trace_file.h"
#include "catch.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::io;
using Json = nlohmann::ordered_json;

namespace {

Report report_for(std::vector<Request> requests, std::vector<std::string> ids,
                  ReportOptions options = {}) {
    auto trace = std::make_shared<Trace>();
    trace->keys.push_back("alice");
    trace->requests = std::move(requests);
    Params params;
    params.base = {4, 10, {}};
    return make_report(*simulate(trace, params, ids), options);
}

}  // namespace

TEST_CASE("io/report: keys come in the documented order") {
    const Report report = report_for({{6, 1, 0}, {7, 2, 1}}, {"token_bucket"});
    std::vector<std::string> top;
    for (const auto& [key, value] : report.items()) {
        top.push_back(key);
    }
    CHECK(top == std::vector<std::string>{"limit", "window", "algorithms"});
    std::vector<std::string> run;
    for (const auto& [key, value] : report["algorithms"][0].items()) {
        run.push_back(key);
    }
    CHECK(run == std::vector<std::string>{"id", "label", "params", "accepted", "rejected",
                                          "accepted_cost", "rejected_cost", "worst_burst",
                                          "decisions"});
    CHECK(report["algorithms"][0]["decisions"][1].dump() ==
          R"({"index":1,"tick":7,"cost":2,"key":"alice","accepted":true})");
}

TEST_CASE("io/report: times are numbers in ticks, and never is a word") {
    // Cost 5 > L = 4: no algorithm can ever accept it.
    const Report report =
        report_for({{0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {1, 1, 0}, {2, 5, 0}},
                   {"token_bucket", "leaky_bucket"});
    const auto& bucket = report["algorithms"][0]["decisions"];
    CHECK(bucket[4]["retry_after"] == 1.5);  // 0.4 tokens per tick, 0.4 held at tick 1
    CHECK(bucket[5]["retry_after"] == "never");
    const auto& leaky = report["algorithms"][1]["decisions"];
    CHECK(leaky[1]["release"] == 2.5);
    CHECK(leaky[1]["delay"] == 2.5);
    CHECK(leaky[0]["release"].is_number_integer());
    CHECK_FALSE(leaky[0].contains("retry_after"));
}

TEST_CASE("io/report: the summary leaves the decisions out") {
    ReportOptions summary;
    summary.summary = true;
    const Report report = report_for({{1, 1, 0}}, {}, summary);
    REQUIRE(report["algorithms"].size() == 6);
    for (const auto& run : report["algorithms"]) {
        CHECK_FALSE(run.contains("decisions"));
        CHECK(run["accepted"] == 1);
    }
}

TEST_CASE("io/report: the text has one decision per line") {
    const std::string text = format_json(report_for({{6, 1, 0}, {7, 1, 0}}, {"sliding_log"}));
    CHECK(text.find("      \"worst_burst\": {\"cost\": 2, \"start\": 6},\n") != std::string::npos);
    CHECK(text.find("        {\"index\": 0, \"tick\": 6, \"cost\": 1, \"key\": \"\", "
                    "\"accepted\": true},\n") != std::string::npos);
    CHECK(Report::parse(text) == report_for({{6, 1, 0}, {7, 1, 0}}, {"sliding_log"}));
}

TEST_CASE("io/report: the streamed report is the same text as the formatted one") {
    for (const auto& entry : std::filesystem::directory_iterator(RATELAB_SOURCE_DIR "/traces")) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        INFO(entry.path().filename().string());
        const TraceDocument doc = load_trace(entry.path());
        const auto result = simulate(std::make_shared<const Trace>(doc.trace), doc.params);
        for (const bool summary : {false, true}) {
            ReportOptions options;
            options.summary = summary;
            std::ostringstream streamed;
            write_report(streamed, *result, options);
            CHECK(streamed.str() == format_json(make_report(*result, options)));
        }
    }
}

TEST_CASE("io/report: NDJSON has a line per lane, then one per decision") {
    const auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    std::ostringstream out;
    write_report_ndjson(out, *result);
    std::istringstream in(out.str());
    std::vector<Json> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(Json::parse(line));
    }
    REQUIRE(lines.size() == 6 + 6 * 8);
    CHECK(lines[4]["type"] == "lane");
    CHECK(lines[4]["id"] == "leaky_bucket");
    CHECK(lines[4]["params"]["drain_interval"] == "5/2");
    const Json& leaky_release = lines[6 + 4 * 8 + 1];  // lane 4, request 1
    CHECK(leaky_release.dump() ==
          R"({"type":"decision","lane":4,"index":1,"tick":7,"cost":1,"key":"","accepted":true,)"
          R"("release":8.5,"delay":1.5})");
}
