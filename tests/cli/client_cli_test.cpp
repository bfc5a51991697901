// ratelab-cli simulate --client and --headers as a user runs them: attempts and intents per
// lane, the responses in JSON and CSV, and one-line errors with exit status 2.
#include <algorithm>
#include <map>

#include "catch.h"
#include "cli_json.h"
#include "cli_runner.h"

namespace {

const std::string kSource = RATELAB_SOURCE_DIR;
const std::string kBoundary = "\"" + kSource + "/traces/boundary-burst.json\"";

bool one_line(const std::string& text) {
    return !text.empty() && text.back() == '\n' && std::count(text.begin(), text.end(), '\n') == 1;
}

}  // namespace

TEST_CASE("cli: --client give_up lists one attempt per decision, as decided") {
    const Json report = json_of(run_cli("simulate " + kBoundary + " --client give_up"));
    for (const Json& lane : report["algorithms"]) {
        INFO(lane["label"]);
        const Json& decisions = lane["decisions"];
        const Json& attempts = lane["attempts"];
        REQUIRE(attempts.size() == decisions.size());
        for (std::size_t i = 0; i < attempts.size(); ++i) {
            CHECK(attempts[i]["intent"] == i);
            CHECK(attempts[i]["attempt"] == 1);
            CHECK(attempts[i]["tick"] == decisions[i]["tick"]);
            CHECK(attempts[i]["accepted"] == decisions[i]["accepted"]);
            CHECK(attempts[i].contains("retry_after") == decisions[i].contains("retry_after"));
        }
        CHECK(lane["intents"]["served"] == lane["accepted"]);
        CHECK(lane["intents"]["abandoned"] == lane["rejected"]);
    }
}

TEST_CASE("cli: --client retry_after serves every intent of the boundary burst") {
    // The sliding log refuses the intents at ticks 10 to 13, telling each to come back at 16,
    // when the request at 6 leaves: a small thundering herd. The first of them passes at 16,
    // the others are told 1 tick and pass one a tick, at 17, 18 and 19.
    const Json report = json_of(
        run_cli("simulate " + kBoundary + " --client retry_after --algorithms sliding_log"));
    const Json& lane = report["algorithms"][0];
    CHECK(lane["intents"]["served"] == 8);
    CHECK(lane["intents"]["abandoned"] == 0);
    const Json& attempts = lane["attempts"];
    REQUIRE(attempts.size() == 18);
    for (std::size_t a = 4; a < 8; ++a)
        CHECK(attempts[a]["tick"].get<int>() + attempts[a]["retry_after"].get<int>() == 16);
    CHECK(attempts[8]["tick"] == 16);
    CHECK(attempts[8]["accepted"] == true);
    CHECK(attempts[17]["tick"] == 19);
    CHECK(attempts[17]["intent"] == 7);
    CHECK(attempts[17]["attempt"] == 5);
    // Times to success 0, 0, 0, 0, 6, 6, 6, 6: p50 is the fourth, 0; p95 and max are 6.
    CHECK(lane["intents"]["time_to_success"].dump() == R"({"p50":0,"p95":6,"max":6})");
    CHECK(lane["intents"]["attempts"] == 2.25);  // (4 + 2 + 3 + 4 + 5) / 8
}

TEST_CASE("cli: --headers gives each decision its response") {
    // The fixed window, L = 4 per 10 one-second ticks: after the request at tick 6, 3 remain
    // and the window resets in 4 ticks; the fixed window accepts all eight of the burst.
    const Json report = json_of(
        run_cli("simulate " + kBoundary + " --headers --algorithms fixed_window,sliding_log"));
    const Json& first = report["algorithms"][0]["decisions"][0]["response"];
    CHECK(first["status"] == 200);
    CHECK(first["headers"]["RateLimit-Policy"] == "\"default\";q=4;w=10");
    CHECK(first["headers"]["RateLimit"] == "\"default\";r=3;t=4");
    CHECK_FALSE(first["headers"].contains("Retry-After"));
    // The sliding log refuses the request at tick 10 (index 4) until the one at 6 leaves at 16.
    const Json& refused = report["algorithms"][1]["decisions"][4];
    CHECK(refused["accepted"] == false);
    CHECK(refused["response"]["status"] == 429);
    CHECK(refused["response"]["headers"]["Retry-After"] == "6");
    const Json x =
        json_of(run_cli("simulate " + kBoundary +
                        " --headers --header-style x-ratelimit --algorithms fixed_window"));
    const Json& headers = x["algorithms"][0]["decisions"][0]["response"]["headers"];
    CHECK(headers["X-RateLimit-Limit"] == "4");
    CHECK(headers["X-RateLimit-Remaining"] == "3");
    CHECK(headers["X-RateLimit-Reset"] == "4");
    CHECK_FALSE(headers.contains("RateLimit"));
}

TEST_CASE("cli: --headers adds the response to the decisions CSV") {
    const CliRun run =
        run_cli("simulate " + kBoundary + " --headers --format csv --algorithms sliding_log");
    INFO(run.err);
    REQUIRE(run.status == 0);
    CHECK(run.out.rfind("request,tick,key,cost,algorithm,lane,accepted,release,delay,retry_after,"
                        "status,Retry-After,RateLimit-Policy,RateLimit\n",
                        0) == 0);
    CHECK(run.out.find("\n4,10,,1,sliding_log,Sliding log,false,,,6,429,6,"
                       "\"\"\"default\"\";q=4;w=10\",\"\"\"default\"\";r=0;t=9\"\n") !=
          std::string::npos);
}

TEST_CASE("cli: --client in NDJSON gives one line per attempt") {
    const CliRun run =
        run_cli("simulate " + kBoundary +
                " --format ndjson --client immediate:max_attempts=2 --algorithms gcra");
    REQUIRE(run.status == 0);
    std::size_t attempts = 0;
    std::size_t from = 0;
    while ((from = run.out.find("{\"type\": \"attempt\", \"lane\": 0, \"intent\": ", from)) !=
           std::string::npos) {
        ++attempts;
        ++from;
    }
    // Eight intents; GCRA refuses two at 6..13 at L = 4, and each is tried once more.
    CHECK(attempts >= 8);
    CHECK(run.out.find("\"intents\": {\"served\": ") != std::string::npos);
}

TEST_CASE("cli: bad --client and --headers options are one-line errors with status 2") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--client backoff:jitter=some",
         "--client: backoff: jitter must be none, full or equal, not \"some\""},
        {"--client sometimes", "--client: the policy must be give_up"},
        {"--client fixed:wait=3", "--client: fixed takes no \"wait\" (it takes delay"},
        {"--header-style both", "give --headers too"},
        {"--headers --header-style json", "--header-style must be ietf, x-ratelimit or both"},
        {"--client immediate --format csv", "takes no --client"},
        {"--headers --summary",
         "--headers gives each decision its response, so it takes no "
         "--summary"},
        {"--tier-client immediate", "--tier-client: say KEY=POLICY"},
        {"--tier-client =immediate", "--tier-client: say KEY=POLICY"},
        {"--tier-client pro=immediate", "--tier-client: the trace has no key \"pro\""},
    };
    for (const auto& [options, message] : cases) {
        INFO(options);
        const CliRun run = run_cli("simulate " + kBoundary + " " + options);
        CHECK(run.status == 2);
        CHECK(run.out.empty());
        CHECK(one_line(run.err));
        CHECK(run.err.find(message) != std::string::npos);
    }
}

namespace {

/// Each lane's intents and attempts for one bundled scenario run with `client`.
Json scenario(const std::string& trace, const std::string& client) {
    return json_of(
        run_cli("simulate \"" + kSource + "/traces/" + trace + ".json\" --client " + client));
}

std::size_t rejections(const Json& lane) {
    std::size_t count = 0;
    for (const Json& attempt : lane["attempts"])
        count += attempt["accepted"] == false ? 1 : 0;
    return count;
}

/// The most retries (attempts after the first) that land on one tick.
std::size_t largest_wave(const Json& lane) {
    std::map<std::int64_t, std::size_t> per_tick;
    std::size_t most = 0;
    for (const Json& attempt : lane["attempts"]) {
        if (attempt["attempt"] != 1)
            most = std::max(most, ++per_tick[attempt["tick"].get<std::int64_t>()]);
    }
    return most;
}

}  // namespace

TEST_CASE("cli: the retry storm: immediate retries refuse most and serve least") {
    const Json immediate = scenario("retry-storm", "immediate");
    const Json backoff = scenario("retry-storm", "backoff:base=2,jitter=full,seed=1");
    const Json told = scenario("retry-storm", "retry_after");
    for (std::size_t lane = 0; lane < 6; ++lane) {
        INFO(immediate["algorithms"][lane]["label"]);
        const Json& storm = immediate["algorithms"][lane];
        for (const Json* other : {&backoff, &told}) {
            const Json& calm = (*other)["algorithms"][lane];
            CHECK(calm["intents"]["served"] >= storm["intents"]["served"]);
            CHECK(calm["intents"]["rejections_per_success"] <
                  storm["intents"]["rejections_per_success"]);
        }
    }
}

TEST_CASE("cli: the thundering herd: jitter on Retry-After spreads each wave") {
    const Json herd = scenario("thundering-herd", "retry_after");
    const Json spread = scenario("thundering-herd", "retry_after:spread=10,seed=1");
    for (std::size_t lane = 0; lane < 6; ++lane) {
        const Json& together = herd["algorithms"][lane];
        const Json& apart = spread["algorithms"][lane];
        INFO(together["label"]);
        // Twenty refused at tick 20 are told one Retry-After and come back on one tick.
        CHECK(largest_wave(together) >= 19);
        CHECK(largest_wave(apart) * 3 < largest_wave(together));
        CHECK(apart["intents"]["served"] == 30);
        CHECK(rejections(apart) <= rejections(together));
    }
}

TEST_CASE("cli: the paced client is never refused and serves the whole batch") {
    const Json paced = scenario("paced-client", "paced");
    const Json immediate = scenario("paced-client", "immediate");
    for (std::size_t lane = 0; lane < 6; ++lane) {
        INFO(paced["algorithms"][lane]["label"]);
        CHECK(rejections(paced["algorithms"][lane]) == 0);
        CHECK(paced["algorithms"][lane]["intents"]["served"] == 40);
        CHECK(immediate["algorithms"][lane]["intents"]["served"] < 10);
    }
}

TEST_CASE("cli: long requests: a rate limit lets through what a concurrency limit refuses") {
    const Json report =
        json_of(run_cli("simulate \"" + kSource +
                        "/traces/long-requests.json\" --summary --lane token_bucket "
                        "--lane concurrency:max_in_flight=300,duration=300 "
                        "--lane concurrency:max_in_flight=100,duration=300"));
    REQUIRE(report["algorithms"].size() == 3);
    CHECK(report["algorithms"][0]["accepted"] == 600);
    CHECK(report["algorithms"][1]["accepted"] == 600);
    CHECK(report["algorithms"][2]["id"] == "concurrency");
    CHECK(report["algorithms"][2]["accepted"] == 200);
    // Without lanes of its own the trace runs the six default lanes, none of them concurrency;
    // each lets through all but a few (the sliding counter's estimate refuses 59).
    const Json plain =
        json_of(run_cli("simulate \"" + kSource + "/traces/long-requests.json\" --summary"));
    REQUIRE(plain["algorithms"].size() == 6);
    for (const Json& lane : plain["algorithms"]) {
        CHECK(lane["id"] != "concurrency");
        CHECK(lane["accepted"] >= 540);
    }
}

TEST_CASE("cli: --tier-client gives one key's clients their own policy") {
    const std::string tiers = "\"" + kSource + "/traces/key-tiers.json\" --algorithms sliding_log";
    const auto attempts_by_key = [](const Json& lane) {
        std::map<std::string, std::pair<std::size_t, std::size_t>> out;  // intents, attempts
        for (const Json& decision : lane["decisions"])
            ++out[decision.value("key", "")].first;
        for (const Json& attempt : lane["attempts"])
            ++out[lane["decisions"][attempt["intent"].get<std::size_t>()].value("key", "")].second;
        return out;
    };
    // Only pro retries: every other key makes one attempt per intent.
    const Json only_pro = json_of(
        run_cli("simulate " + tiers + " --tier-client pro=fixed:delay=10"))["algorithms"][0];
    const auto by_key = attempts_by_key(only_pro);
    REQUIRE(by_key.size() == 3);
    for (const auto& [key, counts] : by_key) {
        INFO(key);
        if (key == "pro")
            CHECK(counts.second > counts.first);
        else
            CHECK(counts.second == counts.first);
    }
    // Everyone retries but pro, which gives up.
    const Json all_but_pro =
        json_of(run_cli("simulate " + tiers +
                        " --client fixed:delay=10 --tier-client pro=give_up"))["algorithms"][0];
    const auto reversed = attempts_by_key(all_but_pro);
    CHECK(reversed.at("pro").second == reversed.at("pro").first);
    CHECK(reversed.at("free").second > reversed.at("free").first);
    // A key given twice is refused.
    const CliRun twice =
        run_cli("simulate " + tiers + " --tier-client pro=immediate --tier-client pro=give_up");
    CHECK(twice.status == 2);
    CHECK(twice.err.find("key \"pro\" is given twice") != std::string::npos);
}
