// ratelab-cli quiz and lesson as a user runs them: the JSON shape, answers that `simulate` agrees
// with, seeds that repeat, lesson files checked with exit codes and one line per problem.
#include <algorithm>
#include <set>

#include "catch.h"
#include "cli_json.h"
#include "cli_runner.h"

namespace fs = std::filesystem;
namespace {

const std::string kSource = RATELAB_SOURCE_DIR;
const std::string kLessons = kSource + "/resources/lessons";
const std::string kBadLessons = kSource + "/tests/io/bad_lessons";

std::string quoted(const std::string& path) {
    return "\"" + path + "\"";
}

std::size_t lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("cli: quiz --json has exactly the documented fields, and a seed repeats") {
    const CliRun first = run_cli("quiz --seed 11 --count 8 --json");
    const CliRun again = run_cli("quiz --seed 11 --count 8 --json");
    CHECK(first.out == again.out);
    CHECK(run_cli("quiz --seed 12 --count 8 --json").out != first.out);
    const Json quiz = json_of(first);
    REQUIRE(quiz.size() == 1);
    REQUIRE(quiz["questions"].size() == 8);
    const std::set<std::string> kinds = {"rejected_indices", "retry_after", "worst_burst",
                                         "which_accepts"};
    std::set<std::string> seen;
    for (const Json& q : quiz["questions"]) {
        std::vector<std::string> fields;
        for (const auto& [name, value] : q.items()) {
            fields.push_back(name);
        }
        CHECK(fields ==
              std::vector<std::string>{"kind", "text", "trace", "lane", "answer", "explanation"});
        CHECK(kinds.count(q["kind"].get<std::string>()) == 1);
        seen.insert(q["kind"].get<std::string>());
        CHECK(q["trace"]["format"] == "ratelab-trace");
        CHECK(q["lane"].is_string() == (q["kind"] != "which_accepts"));
    }
    CHECK(seen == kinds);
}

TEST_CASE("cli: a drill's rejected_indices are the requests simulate rejects") {
    const fs::path dir = cli_scratch_dir("quiz_simulate");
    const Json quiz = json_of(run_cli("quiz --seed 3 --count 12 --json"));
    std::size_t checked = 0;
    for (const Json& q : quiz["questions"]) {
        if (q["kind"] != "rejected_indices") {
            continue;
        }
        const fs::path trace = dir / ("q" + std::to_string(checked) + ".json");
        write_file(trace, q["trace"].dump());
        const Json report = json_of(run_cli("simulate " + quoted(trace.string()) + " --lane " +
                                            q["lane"].get<std::string>()));
        std::vector<std::int64_t> rejected;
        for (const Json& decision : report["algorithms"][0]["decisions"]) {
            if (!decision["accepted"].get<bool>()) {
                rejected.push_back(decision["index"].get<std::int64_t>());
            }
        }
        CHECK(q["answer"].get<std::vector<std::int64_t>>() == rejected);
        CHECK(std::is_sorted(rejected.begin(), rejected.end()));
        ++checked;
    }
    CHECK(checked == 3);
}

TEST_CASE("cli: quiz as text names its seed, and bad options exit 2 on one line") {
    const CliRun text = run_cli("quiz --seed 5 --count 3");
    REQUIRE(text.status == 0);
    CHECK(text.out.find("Seed 5 (ratelab-cli quiz --seed 5 repeats these)") == 0);
    CHECK(std::count(text.out.begin(), text.out.end(), '\n') > 3);
    std::size_t answers = 0;
    for (std::size_t at = text.out.find("   answer: "); at != std::string::npos;
         at = text.out.find("   answer: ", at + 1)) {
        ++answers;
    }
    CHECK(answers == 3);
    for (const char* bad :
         {"quiz --count 0", "quiz --count 101", "quiz --seed x", "quiz extra", "quiz --colour"}) {
        INFO(bad);
        const CliRun run = run_cli(bad);
        CHECK(run.status == 2);
        CHECK(lines(run.err) == 1);
        CHECK(run.out.empty());
    }
    CHECK(run_cli("quiz --count 0").err.find("--count") != std::string::npos);
}

TEST_CASE("cli: lesson validate passes the bundled lessons and lists every problem of a bad one") {
    std::string all;
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(kLessons)) {
        all += " " + quoted(entry.path().string());
        ++files;
    }
    const CliRun good = run_cli("lesson validate" + all);
    INFO(good.err);
    CHECK(good.status == 0);
    CHECK(lines(good.out) == files);
    CHECK(good.err.empty());

    // Two broken steps: two located lines, and the good file beside them still says ok.
    const fs::path dir = cli_scratch_dir("lesson_validate");
    const std::string two = R"({"format": "ratelab-lesson", "version": 1, "id": "two", "title": "T",
      "steps": [{"narration": "n", "trace": {"limit": 4, "window": 10,
                                             "requests": [{"tick": 3}, {"tick": 1}]}},
                {"narration": "n", "trace": {"limit": 1, "window": 2, "requests": []}, "clock": -4}]})";
    write_file(dir / "two.json", two);
    const CliRun bad = run_cli("lesson validate " + quoted((dir / "two.json").string()) + " " +
                               quoted(kLessons + "/01-boundary-burst.json"));
    CHECK(bad.status == 2);
    CHECK(lines(bad.out) == 1);
    REQUIRE(lines(bad.err) == 2);
    CHECK(bad.err.find("two.json: $.steps[0].trace.requests[1].tick: ") != std::string::npos);
    CHECK(bad.err.find("[tick-order]\n") != std::string::npos);
    CHECK(bad.err.find("two.json: $.steps[1].clock: ") != std::string::npos);
    CHECK(bad.err.find("[out-of-range]\n") != std::string::npos);
}

TEST_CASE("cli: lesson answers prints what the engine computes, and bad use exits 2") {
    const CliRun answers =
        run_cli("lesson answers " + quoted(kLessons + "/01-boundary-burst.json"));
    INFO(answers.err);
    REQUIRE(answers.status == 0);
    CHECK(answers.out.find("The boundary burst\n") == 0);
    CHECK(answers.out.find("  answer: 8\n") != std::string::npos);
    CHECK(answers.out.find("  answer: 4, 5, 6, 7\n") != std::string::npos);
    CHECK(answers.out.find("  try it: ") != std::string::npos);
    const CliRun broken =
        run_cli("lesson answers " + quoted(kBadLessons + "/question-accepted-retry.json"));
    CHECK(broken.status == 2);
    CHECK(lines(broken.err) == 1);
    CHECK(broken.err.find("[unanswerable]") != std::string::npos);
    CHECK(broken.out.empty());
    for (const char* bad :
         {"lesson", "lesson validate", "lesson grade x.json", "lesson answers a.json b.json"}) {
        INFO(bad);
        const CliRun run = run_cli(bad);
        CHECK(run.status == 2);
        CHECK(lines(run.err) == 1);
    }
}
