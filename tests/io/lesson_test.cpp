// Lesson files: every bundled lesson validates and the engine's answers are what its narration
// says; every malformed file in tests/io/bad_lessons/ is refused with its intended rule and place.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include "catch.h"
#include "expectations_table.h"
#include "ratelab/io/lesson_file.h"

namespace fs = std::filesystem;
using namespace ratelab;
using ratelab::io::load_lesson;
using ratelab::io::read_lesson;

namespace {

const fs::path kLessonsDir = RATELAB_LESSONS_DIR;
const fs::path kBadDir = fs::path(RATELAB_IO_TEST_DIR) / "bad_lessons";

/// What a lesson's narration claims, as the engine must compute it: the bundled questions,
/// and a few more figures their narration and reveals state.
struct Claim {
    std::string file;
    std::size_t step;
    LessonAsk ask;
    std::size_t lane;
    std::size_t request;
    std::string answer;
};

const std::vector<Claim> kClaims = {
    {"01-boundary-burst.json", 0, LessonAsk::accepts, 0, 4, "0"},
    {"01-boundary-burst.json", 1, LessonAsk::worst_burst, 0, 0, "8"},
    {"01-boundary-burst.json", 2, LessonAsk::rejected, 1, 0, "4, 5, 6, 7"},
    {"02-sliding-log.json", 0, LessonAsk::rejected, 0, 0, "3, 5"},
    {"02-sliding-log.json", 1, LessonAsk::retry_after, 0, 3, "1"},
    {"03-counter-estimate.json", 0, LessonAsk::accepts, 0, 4, "0"},
    {"03-counter-estimate.json", 1, LessonAsk::accepts, 0, 9, "1"},
    {"04-token-bucket-burst.json", 0, LessonAsk::accepted_count, 0, 0, "12"},
    {"04-token-bucket-burst.json", 1, LessonAsk::worst_burst, 0, 0, "11"},
    {"05-shaping-vs-policing.json", 0, LessonAsk::accepts, 0, 4, "1"},
    {"05-shaping-vs-policing.json", 0, LessonAsk::accepted_count, 0, 0, "4"},
    {"05-shaping-vs-policing.json", 1, LessonAsk::delay, 1, 4, "10"},
    {"06-gcra.json", 0, LessonAsk::most_accepted, 0, 0, "0, 1"},
    {"06-gcra.json", 0, LessonAsk::rejected, 0, 0, "4, 5, 8"},  // "they agree on every request"
    {"06-gcra.json", 0, LessonAsk::rejected, 1, 0, "4, 5, 8"},
    {"06-gcra.json", 1, LessonAsk::retry_after, 1, 4, "3/2"},
    {"06-gcra.json", 1, LessonAsk::retry_after, 0, 4, "3/2"},
    {"07-rejections-count.json", 0, LessonAsk::accepted_count, 0, 0, "12"},
    {"07-rejections-count.json", 1, LessonAsk::accepted_count, 0, 0, "4"},
    {"07-rejections-count.json", 1, LessonAsk::accepted_count, 1, 0, "12"},
    {"08-weighted-cost.json", 0, LessonAsk::retry_after, 0, 2, "5/2"},
    {"08-weighted-cost.json", 1, LessonAsk::retry_after, 0, 3, "never"},
    {"09-tiers.json", 0, LessonAsk::rejected, 0, 0, "4, 6, 8"},
    {"10-window-edge.json", 0, LessonAsk::accepts, 0, 5, "0, 1"},
    {"10-window-edge.json", 1, LessonAsk::retry_after, 0, 4, "1"},
    {"10-window-edge.json", 1, LessonAsk::rejected, 1, 0, "4"},
    {"11-float-drift.json", 0, LessonAsk::accepts, 0, 10, "0"},
    {"11-float-drift.json", 1, LessonAsk::accepted_count, 1, 0, "1"},
    {"11-float-drift.json", 1, LessonAsk::accepted_count, 0, 0, "2"},
    {"12-retry-after.json", 0, LessonAsk::retry_after, 0, 4, "10"},
    {"12-retry-after.json", 0, LessonAsk::retry_after, 1, 4, "10"},
    {"12-retry-after.json", 1, LessonAsk::retry_after, 2, 4, "5/2"},
    {"12-retry-after.json", 1, LessonAsk::retry_after, 3, 4, "5/2"},
    // Two servers taking turns, L = 4 per 10, one request a tick from 0 to 11. One store: the
    // log takes ticks 0-3, then 10 and 11. Synced every 10 ticks, each server takes four of
    // its own before the first sync (0, 2, 4, 6 and 1, 3, 5, 7): 8 in [0, 10).
    {"13-one-limit-many-servers.json", 0, LessonAsk::fleet_accepted, 0, 0, "6"},
    {"13-one-limit-many-servers.json", 1, LessonAsk::fleet_accepted, 0, 0, "8"},
    {"13-one-limit-many-servers.json", 2, LessonAsk::fleet_worst_burst, 0, 0, "8"},
    // L = 2 per 10, four intents at tick 0: two pass. Immediate retries at ticks 1-4 all meet
    // the full window: 2 + 2 x 5 attempts. Waiting the retry-after (10) passes at tick 10.
    // Backoff 2, 4, 8: tries at 0, 2, 6, 14, so 2 + 2 x 4 attempts.
    {"14-retries.json", 0, LessonAsk::client_attempts, 0, 0, "12"},
    {"14-retries.json", 0, LessonAsk::client_abandoned, 0, 0, "2"},
    {"14-retries.json", 1, LessonAsk::client_served, 0, 0, "4"},
    {"14-retries.json", 1, LessonAsk::client_attempts, 0, 0, "6"},
    {"14-retries.json", 2, LessonAsk::client_attempts, 0, 0, "10"},
};

std::vector<fs::path> bundled_lessons() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(kLessonsDir)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string lower(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

const std::string kGoodLesson = R"({
  "format": "ratelab-lesson", "version": 1, "id": "good", "title": "Good",
  "steps": [
    {"narration": "Five at tick 0.",
     "trace": {"limit": 4, "window": 10, "requests": [{"tick": 0}, {"tick": 0}, {"tick": 0},
                                                       {"tick": 0}, {"tick": 0}]},
     "lanes": ["fixed_window", "token_bucket"]},
    {"narration": "Same trace, L = 2 here only.", "limit": 2,
     "question": {"kind": "requests", "ask": "rejected", "lane": 1, "prompt": "Which?"}},
    {"narration": "Back to L = 4.",
     "question": {"kind": "predict", "request": 4, "reveal": "Neither takes the fifth."}}
  ]
})";

}  // namespace

TEST_CASE("lessons: at least twelve bundled lessons, each valid, with distinct ids") {
    const auto files = bundled_lessons();
    REQUIRE(files.size() >= 12);
    std::set<std::string> ids;
    for (const fs::path& file : files) {
        INFO(file.string());
        const auto load = load_lesson(file);
        for (const auto& problem : load.problems) {
            UNSCOPED_INFO(problem.message());
        }
        REQUIRE(load.ok());
        CHECK(load.problems.empty());
        CHECK(ids.insert(load.lesson->id).second);
        CHECK_FALSE(load.lesson->steps.empty());
    }
}

TEST_CASE("lessons: the engine computes what each bundled lesson's narration says") {
    std::set<std::pair<std::string, std::size_t>> claimed;
    for (const Claim& claim : kClaims) {
        INFO(claim.file << " step " << claim.step << " " << ask_id(claim.ask));
        const auto load = load_lesson(kLessonsDir / claim.file);
        REQUIRE(load.ok());
        REQUIRE(claim.step < load.lesson->steps.size());
        const LessonStep& step = load.lesson->steps[claim.step];
        LessonQuestion q;
        q.ask = claim.ask;
        q.lane = claim.lane;
        q.request = claim.request;
        if (step.question) {  // the fleet or the clients the step's question runs
            q.fleet = step.question->fleet;
            q.client = step.question->client;
        }
        const ComputedAnswer computed = compute_answer(*simulate_step(step), q);
        CHECK(format_answer(computed.answer) == claim.answer);
        if (step.question && step.question->ask == claim.ask && step.question->lane == claim.lane &&
            step.question->request == claim.request) {
            claimed.emplace(claim.file, claim.step);
        }
    }
    // Every question of every bundled lesson is among the claims, and a number's reveal states it.
    for (const fs::path& file : bundled_lessons()) {
        const auto load = load_lesson(file);
        REQUIRE(load.ok());
        for (std::size_t i = 0; i < load.lesson->steps.size(); ++i) {
            const LessonStep& step = load.lesson->steps[i];
            if (!step.question) {
                continue;
            }
            INFO(file.filename().string() << " step " << i);
            CHECK(claimed.count({file.filename().string(), i}) == 1);
            if (step.question->kind == LessonQuestion::Kind::number) {
                const auto computed = compute_answer(*simulate_step(step), *step.question);
                CHECK(lower(step.question->reveal).find(format_answer(computed.answer)) !=
                      std::string::npos);
            }
        }
    }
}

TEST_CASE("lessons: every malformed lesson gives its intended first problem") {
    const auto expected = ratelab::test::read_expectations(kBadDir / "expected.tsv");
    REQUIRE(expected.size() >= 30);
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(kBadDir)) {
        const std::string name = entry.path().filename().string();
        if (name == "expected.tsv") {
            continue;
        }
        INFO("file " << name);
        const auto it = expected.find(name);
        REQUIRE(it != expected.end());  // a new bad file needs its expectation
        const auto load = load_lesson(entry.path());
        CHECK_FALSE(load.ok());
        REQUIRE_FALSE(load.problems.empty());
        const auto& problem = load.problems.front();
        INFO(problem.message());
        CHECK(problem.rule == it->second.rule);
        CHECK(problem.location == it->second.location);
        CHECK(problem.file == entry.path().string());
        const std::string message = problem.message();
        CHECK(message.find('\n') == std::string::npos);
        CHECK(message.rfind(entry.path().string(), 0) == 0);
        CHECK(message.find("[" + problem.rule + "]") != std::string::npos);
        ++checked;
    }
    CHECK(checked == expected.size());
}

TEST_CASE("lessons: every problem is listed, one per broken step, and later steps still read") {
    std::string text = kGoodLesson;
    text.replace(text.find("\"lane\": 1"), 9, "\"lane\": 7");
    text.replace(text.find("\"request\": 4"), 12, "\"request\": 9");
    const auto load = read_lesson(text, "two.json", ".");
    CHECK_FALSE(load.ok());
    REQUIRE(load.problems.size() == 2);
    CHECK(load.problems[0].location == "$.steps[1].question.lane");
    CHECK(load.problems[0].rule == "lane-index");
    CHECK(load.problems[1].location == "$.steps[2].question.request");
    CHECK(load.problems[1].rule == "request-index");
}

TEST_CASE("lessons: steps keep the trace and lanes before them, not a one-step override") {
    const auto load = read_lesson(kGoodLesson, "good.json", ".");
    for (const auto& problem : load.problems) {
        UNSCOPED_INFO(problem.message());
    }
    REQUIRE(load.ok());
    const auto& steps = load.lesson->steps;
    REQUIRE(steps.size() == 3);
    CHECK(steps[1].trace == steps[0].trace);
    CHECK(steps[2].params.lanes == steps[0].params.lanes);
    CHECK(steps[1].params.base.limit == 2);
    CHECK(steps[2].params.base.limit == 4);
    // With L = 2 the bucket keeps 2 of the 5; with L = 4 neither lane takes the fifth.
    CHECK(compute_answer(*simulate_step(steps[1]), *steps[1].question).answer ==
          Answer::of_indices({2, 3, 4}));
    CHECK(steps[2].question->kind == LessonQuestion::Kind::predict);
    CHECK(steps[2].question->prompt == "Which lanes accept request 4?");
    CHECK(steps[2].clock == Tick{0});  // stopped just before the request to predict
    const Grade wrong = grade_step(steps[2], Answer::of_indices({1}));
    CHECK_FALSE(wrong.correct);
    CHECK(wrong.reason.find("Neither takes the fifth.") != std::string::npos);
    CHECK(grade_step(steps[2], Answer::of_indices({})).correct);
}

TEST_CASE("lessons: a try-it step is met once the learner's trace meets its goal") {
    const auto load = load_lesson(kLessonsDir / "01-boundary-burst.json");
    REQUIRE(load.ok());
    const LessonStep& step = load.lesson->steps.back();
    REQUIRE(step.try_it);
    Trace edited = *step.trace;
    CHECK_FALSE(try_it_met(step, edited));
    edited.requests.push_back(Request{10, 1, 0});  // both still accept: (0, 10] holds three
    CHECK_FALSE(try_it_met(step, edited));
    edited.requests.push_back(Request{10, 1, 0});  // the log's fifth, the window's second
    CHECK(try_it_met(step, edited));
}

// The last step of lesson 13: one request a tick from 0 to 11, L = 4 per 10. The fixed window
// takes ticks 0-3 and 10-11, so no 10 ticks hold more than 4 ([2, 12) holds 2, 3, 10 and 11).
TEST_CASE("lessons: a try-it goal of a burst over L is met once the lane lets more through") {
    const auto load = load_lesson(kLessonsDir / "13-one-limit-many-servers.json");
    REQUIRE(load.ok());
    const LessonStep& step = load.lesson->steps.back();
    REQUIRE(step.try_it);
    REQUIRE(step.try_it->burst_over == std::size_t{1});
    Trace edited = *step.trace;
    CHECK_FALSE(try_it_met(step, edited));
    // One more at tick 5 is refused by the full window [0, 10): the burst stays at 4.
    edited.requests.insert(edited.requests.begin() + 6, Request{5, 1, 0});
    CHECK_FALSE(try_it_met(step, edited));
    // One more at tick 10 is the new window's third: 2, 3, 10, 10 and 11 are five in [2, 12).
    edited.requests.insert(edited.requests.begin() + 12, Request{10, 1, 0});
    CHECK(try_it_met(step, edited));
    // The sliding log never lets through more than L: the same goal on it is never met.
    LessonStep on_log = step;
    on_log.try_it->burst_over = 0;
    CHECK_FALSE(try_it_met(on_log, edited));
}

TEST_CASE("lessons: a damaged lesson never throws, and each problem is one located line") {
    // Seeded damage to the bundled lessons: a byte dropped, doubled or replaced by JSON syntax.
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    const std::string syntax = "{}[],:\"0-9.e \\/";
    for (const fs::path& file : bundled_lessons()) {
        std::ifstream in(file, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        for (int round = 0; round < 40; ++round) {
            std::string damaged = text;
            for (int cut = 0; cut < 3; ++cut) {
                const std::size_t at = draw_below(rng, damaged.size());
                switch (draw_below(rng, 3)) {
                    case 0:
                        damaged.erase(at, 1);
                        break;
                    case 1:
                        damaged.insert(at, 1, damaged[at]);
                        break;
                    default:
                        damaged[at] = syntax[draw_below(rng, syntax.size())];
                }
            }
            INFO(file.filename().string() << " round " << round);
            io::LessonLoad load;
            REQUIRE_NOTHROW(load = read_lesson(damaged, "damaged.json", kLessonsDir));
            CHECK(load.ok() == load.problems.empty());
            for (const auto& problem : load.problems) {
                CHECK(problem.message().find('\n') == std::string::npos);
                CHECK_FALSE(problem.rule.empty());
            }
        }
    }
}
