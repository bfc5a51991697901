// A variant is one file: first_n_algorithm.cpp registers an algorithm that no other file names,
// and the registry, the trace file, validation and the report all know it from its declarations.
#include <nlohmann/json.hpp>

#include "catch.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/report.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using Json = nlohmann::ordered_json;

namespace {

std::string trace_with(const std::string& extra) {
    return R"({"format": "ratelab-trace", "version": 2, "limit": 4, "window": 10, )" + extra +
           R"("requests": [{"tick": 1}, {"tick": 2, "cost": 3}, {"tick": 3}, {"tick": 40}]})";
}

void check_refused(const std::string& extra, const std::string& rule, const std::string& where) {
    INFO(extra);
    try {
        (void)io::parse_trace(trace_with(extra), "variant.json");
        FAIL("accepted");
    } catch (const io::TraceFileError& error) {
        CHECK(error.rule() == rule);
        CHECK(error.location() == where);
    }
}

}  // namespace

TEST_CASE("variant: the registry lists the test algorithm with its declared parameters") {
    const AlgorithmInfo* info = Registry::instance().find("first_n");
    REQUIRE(info != nullptr);
    REQUIRE(info->parameters.size() == 2);
    CHECK(info->parameters[0].id == "allowance");
    CHECK(info->parameters[0].kind == ParamKind::whole);
    CHECK(info->parameters[0].unit == ParamUnit::cost_units);
    CHECK(info->parameters[0].default_rule.text == "L");
    CHECK(info->parameters[1].kind == ParamKind::flag);
    CHECK(default_lanes().back().algorithm == "first_n");
}

TEST_CASE("variant: a trace file sets its parameters and lanes, and bad values are located") {
    const io::TraceDocument doc = io::parse_trace(
        trace_with(R"("algorithms": {"first_n": {"allowance": 3}}, "lanes": [{"algorithm": )"
                   R"("first_n"}, {"algorithm": "first_n", "params": {"by_cost": false}, )"
                   R"("label": "per request"}], )"),
        "variant.json");
    CHECK(doc.params.base.override_of("first_n", "allowance") == ParamValue(Rational(3)));
    REQUIRE(doc.params.lanes.size() == 2);
    CHECK(doc.params.lanes[1].params.at("by_cost") == ParamValue(false));
    CHECK(doc.params.lanes[1].label == "per request");

    check_refused(R"("algorithms": {"first_n": {"allowance": 0}}, )", "out-of-range",
                  "$.algorithms.first_n.allowance");
    check_refused(R"("algorithms": {"first_n": {"by_cost": 1}}, )", "wrong-type",
                  "$.algorithms.first_n.by_cost");
    check_refused(R"("lanes": [{"algorithm": "first_n", "params": {"speed": 2}}], )",
                  "unknown-field", "$.lanes[0].params.speed");
    check_refused(R"("lanes": [{"algorithm": "last_n"}], )", "unknown-algorithm",
                  "$.lanes[0].algorithm");
}

TEST_CASE("variant: the report carries its lanes, labels, resolved values and decisions") {
    io::TraceDocument doc = io::parse_trace(trace_with(""), "variant.json");
    doc.params.lanes = io::parse_lane_specs({"first_n", "first_n:by_cost=no,label=per request"});
    const auto result = simulate(std::make_shared<const Trace>(doc.trace), doc.params);
    const Json report = io::make_report(*result);
    REQUIRE(report["algorithms"].size() == 2);
    const Json& by_cost = report["algorithms"][0];
    const Json& per_request = report["algorithms"][1];
    CHECK(by_cost["label"] == "First n");
    CHECK(by_cost["params"].dump() == R"({"allowance":4,"by_cost":true})");
    // Costs 1, 3, 1, 1 against 4 units: the first two fit, then nothing ever does.
    CHECK(by_cost["accepted"] == 2);
    CHECK(by_cost["decisions"][2]["retry_after"] == "never");
    CHECK(per_request["label"] == "per request");
    CHECK(per_request["params"].dump() == R"({"allowance":4,"by_cost":false})");
    CHECK(per_request["accepted"] == 4);  // one unit per request
    CHECK(explain(*result, 1, 3).check == "spent 3 + 1 = 4 <= 4");
}

TEST_CASE("variant: the saved file keeps the lanes and reads back the same") {
    io::TraceDocument doc = io::parse_trace(trace_with(""), "variant.json");
    doc.params.lanes = io::parse_lane_specs({"first_n:allowance=2", "token_bucket"});
    const std::string text = io::serialize_trace(doc);
    CHECK(text.find("\"version\": 2") != std::string::npos);
    CHECK(text.find(R"({"algorithm": "first_n", "params": {"allowance": 2}})") !=
          std::string::npos);
    const io::TraceDocument again = io::parse_trace(text, "again.json");
    CHECK(again.params == doc.params);
    CHECK(io::serialize_trace(again) == text);
}
