// The JSON report: key order, numbers, "never", the leaky bucket's extra fields, summary mode.
#include <filesystem>
#include <sstream>

#include "catch.h"
#include "ratelab/io/report.h"
#include "ratelab/io/trace_file.h"
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
                                          "over_limit", "worst_key", "state", "keys", "decisions"});
    std::vector<std::string> key;
    for (const auto& [name, value] : report["algorithms"][0]["keys"][0].items()) {
        key.push_back(name);
    }
    CHECK(key == std::vector<std::string>{"key", "limit", "window", "accepted", "rejected",
                                          "accepted_cost", "rejected_cost", "worst_burst",
                                          "over_limit", "state_peak"});
    CHECK(report["algorithms"][0]["decisions"][1].dump() ==
          R"({"index":1,"tick":7,"cost":2,"key":"alice","accepted":true})");
}

TEST_CASE("io/report: each key is judged against its own tier, with or without --summary") {
    // free (L = 2) sends 3 at tick 0; pro (L = 8) sends 5 of cost 2 over ticks 0 to 4; the
    // trace's L is 4. The sliding log lets free's 2 and pro's 4 through: 2 + 8 cost in ten
    // ticks, over the trace's L when summed, though neither key passed its own.
    TraceBuilder builder;
    for (int i = 0; i < 3; ++i)
        builder.add(0, 1, "free");
    for (Tick tick = 0; tick < 5; ++tick)
        builder.add(tick, 2, "pro");
    auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params;
    params.base = {4, 10, {}};
    params.keys["free"] = {2, 10, {}};
    params.keys["pro"] = {8, 10, {}};
    const auto result = simulate(trace, params, {"sliding_log", "token_bucket"});
    for (const bool summary : {false, true}) {
        INFO("summary " << summary);
        ReportOptions options;
        options.summary = summary;
        const Report report = make_report(*result, options);
        const Json& log = report["algorithms"][0];
        CHECK(log["worst_burst"]["cost"] == 10);
        CHECK(log["over_limit"] == false);
        REQUIRE(log["keys"].size() == 2);
        CHECK(log["keys"][0].dump() ==
              R"({"key":"free","limit":2,"window":10,"accepted":2,"rejected":1,)"
              R"("accepted_cost":2,"rejected_cost":1,"worst_burst":{"cost":2,"start":0},)"
              R"("over_limit":false,"state_peak":2})");
        CHECK(log["keys"][1]["accepted_cost"] == 8);
        CHECK(log["keys"][1]["rejected"] == 1);
        CHECK(log["worst_key"]["key"] == "free");  // 2 of 2 and 8 of 8: the first by name
        // pro's bucket holds 8 tokens and gains 0.8 a tick: 4 requests of 2 at once and one
        // more by tick 4, 10 in ten ticks against its L of 8.
        const Json& bucket = report["algorithms"][1];
        CHECK(bucket["keys"][1]["worst_burst"]["cost"] == 10);
        CHECK(bucket["keys"][1]["over_limit"] == true);
        CHECK(bucket["over_limit"] == true);
        CHECK(bucket["worst_key"].dump() ==
              R"({"key":"pro","limit":8,"window":10,"cost":10,"start":0})");
    }
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

TEST_CASE("io/report: with responses and attempts, the streamed report is the formatted one") {
    const TraceDocument doc = load_trace(RATELAB_SOURCE_DIR "/traces/key-tiers.json");
    Params params = doc.params;
    set_tick_ms(params, doc.tick_ms);
    const auto trace = std::make_shared<const Trace>(doc.trace);
    const auto result = simulate(trace, params);
    ClientPolicies clients;
    clients.base = std::get<ClientPolicy>(parse_client_policy("retry_after"));
    std::vector<std::vector<Response>> responses;
    std::vector<ClientRun> runs;
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        responses.push_back(lane_responses(*result, lane));
        runs.push_back(run_clients(*trace, params, result->lanes[lane], clients, {true}));
    }
    for (const bool summary : {false, true}) {
        ReportOptions options;
        options.summary = summary;
        options.responses = [&](std::size_t lane) -> const std::vector<Response>& {
            return responses[lane];
        };
        options.clients = [&](std::size_t lane) -> const ClientRun& { return runs[lane]; };
        options.header_style = HeaderStyle::both;
        std::ostringstream streamed;
        write_report(streamed, *result, options);
        const std::string text = format_json(make_report(*result, options));
        CHECK(streamed.str() == text);
        const Report report = Report::parse(text);
        const auto& lane = report["algorithms"][0];
        CHECK(lane["intents"]["served"] == runs[0].intents.served);
        CHECK(lane.contains("attempts") == !summary);
        if (!summary) {
            CHECK(lane["attempts"].size() == runs[0].attempts.size());
            CHECK(lane["decisions"][0]["response"]["headers"].contains("X-RateLimit-Remaining"));
            CHECK(lane["attempts"][0]["response"]["status"] == responses[0][0].status);
        }
    }
}

TEST_CASE("io/report: responses and attempts are asked for lane by lane, in order") {
    // What lets the command line keep one lane's attempts and responses at a time: JSON asks
    // for each lane in one stretch, NDJSON goes over the lanes twice, each time in order.
    const auto trace = std::make_shared<const Trace>(default_trace());
    const auto result = simulate(trace, default_params());
    ClientPolicies clients;
    clients.base = std::get<ClientPolicy>(parse_client_policy("immediate"));
    std::vector<std::vector<Response>> responses;
    std::vector<ClientRun> runs;
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        responses.push_back(lane_responses(*result, lane));
        runs.push_back(run_clients(*trace, default_params(), result->lanes[lane], clients, {true}));
    }
    std::vector<std::size_t> asked;  // the lane of each call, responses and attempts alike
    ReportOptions options;
    options.responses = [&](std::size_t lane) -> const std::vector<Response>& {
        asked.push_back(lane);
        return responses[lane];
    };
    options.clients = [&](std::size_t lane) -> const ClientRun& {
        asked.push_back(lane);
        return runs[lane];
    };
    // The passes over the lanes: a new pass starts where the lane asked for goes back.
    const auto passes = [&asked] {
        std::size_t count = asked.empty() ? 0 : 1;
        for (std::size_t i = 1; i < asked.size(); ++i)
            count += asked[i] < asked[i - 1] ? 1 : 0;
        return count;
    };
    std::ostringstream json;
    write_report(json, *result, options);
    CHECK(passes() == 1);
    CHECK(asked.back() == result->runs.size() - 1);
    asked.clear();
    std::ostringstream ndjson;
    write_report_ndjson(ndjson, *result, options);
    CHECK(passes() <= 3);  // lane lines, decisions, attempts
    CHECK(json.str().find("\"attempts\"") != std::string::npos);
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

TEST_CASE("io/report: a lane's keys are written one by one as the formatted report has them") {
    // Key names that need escaping, tiers whose leaky bucket drains at fractional times (a
    // max_delay that is not whole), and the lanes' state peaks: the keys' list is written a
    // key at a time, without a JSON value of it, and must still be the formatted report's.
    TraceBuilder builder;
    const std::vector<std::string> names{"plain", "quote \" and \\ backslash", "tab\there",
                                         "caf\xc3\xa9 \xe2\x82\xac", "\x01control"};
    for (Tick tick = 0; tick < 40; ++tick)
        builder.add(tick / 3, 1 + static_cast<std::uint32_t>(tick % 3), names[tick % 5]);
    Params params;
    params.base = {4, 10, {}};
    params.keys["plain"] = Limits{3, 7, {}};
    params.keys["tab\there"] = Limits{5, 3, {}};
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    for (const bool summary : {false, true}) {
        ReportOptions options;
        options.summary = summary;
        const Report report = make_report(*result, options);
        std::ostringstream streamed;
        write_report(streamed, *result, options);
        CHECK(streamed.str() == format_json(report));
        const Json& leaky = report["algorithms"][4];
        REQUIRE(leaky["id"] == "leaky_bucket");
        REQUIRE(leaky["keys"].size() == names.size());
        bool fractional = false;
        for (const Json& key : leaky["keys"])
            fractional = fractional || key["max_delay"].is_number_float();
        CHECK(fractional);
        // NDJSON's lane lines hold the same fields, the keys' list among them.
        std::ostringstream ndjson;
        write_report_ndjson(ndjson, *result, options);
        std::istringstream lines(ndjson.str());
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            std::string line;
            REQUIRE(std::getline(lines, line));
            Json expected = {{"type", "lane"}, {"lane", lane}};
            for (const auto& [name, value] : report["algorithms"][lane].items()) {
                if (name != "decisions")
                    expected[name] = value;
            }
            CHECK(Json::parse(line) == expected);  // the same members in the same order
            CHECK(line.find(", \"keys\": [{\"key\": ") != std::string::npos);
        }
    }
}
