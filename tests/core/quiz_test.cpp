// Drills and lesson questions: answers checked against cases worked out by hand, the engine's
// answers to seeded drills checked against the reference engine, and seeds that repeat.
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/lesson.h"
#include "ratelab/quiz.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"

using namespace ratelab;

namespace {

std::shared_ptr<const SimulationResult> run(std::vector<Tick> ticks, std::int64_t limit,
                                            Tick window, std::vector<std::string> lanes,
                                            std::vector<std::uint32_t> costs = {}) {
    TraceBuilder builder;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        builder.add(ticks[i], i < costs.size() ? costs[i] : 1U);
    }
    Params params;
    params.base.limit = limit;
    params.base.window = window;
    for (const std::string& id : lanes) {
        params.lanes.push_back(Lane{id, {}, {}, false});
    }
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
}

Answer ask(const SimulationResult& result, LessonAsk what, std::size_t lane = 0,
           std::size_t request = 0) {
    LessonQuestion q;
    q.ask = what;
    q.lane = lane;
    q.request = request;
    return compute_answer(result, q).answer;
}

std::uint64_t base_seed() {
    if (const char* fixed = std::getenv("RATELAB_PROPERTY_SEED")) {
        return std::strtoull(fixed, nullptr, 10);
    }
    return std::random_device{}();
}

}  // namespace

TEST_CASE("quiz: hand-worked fixed window, L = 2 per W = 5, ticks 0 1 2 5 6 7") {
    // [0, 5) takes ticks 0 and 1 and refuses 2 until 5; [5, 10) takes 5 and 6 and refuses 7.
    const auto result = run({0, 1, 2, 5, 6, 7}, 2, 5, {"fixed_window"});
    CHECK(ask(*result, LessonAsk::rejected) == Answer::of_indices({2, 5}));
    CHECK(ask(*result, LessonAsk::retry_after, 0, 2) == Answer::of_number(3));
    CHECK(ask(*result, LessonAsk::retry_after, 0, 5) == Answer::of_number(3));
    // Accepted at 0, 1, 5, 6: no 5-tick span holds three of them (0 and 5 are 5 apart).
    CHECK(ask(*result, LessonAsk::worst_burst) == Answer::of_number(2));
    CHECK(ask(*result, LessonAsk::rejected_count) == Answer::of_number(2));
}

TEST_CASE("quiz: hand-worked sliding log, L = 2 per W = 5, ticks 0 1 2 5 6") {
    // At 2 the span (-3, 2] holds 0 and 1; at 5, (0, 5] holds only 1; at 6, (1, 6] only 5.
    const auto result = run({0, 1, 2, 5, 6}, 2, 5, {"sliding_log"});
    CHECK(ask(*result, LessonAsk::rejected) == Answer::of_indices({2}));
    CHECK(ask(*result, LessonAsk::retry_after, 0, 2) == Answer::of_number(3));
    CHECK(ask(*result, LessonAsk::accepted_count) == Answer::of_number(4));
}

TEST_CASE("quiz: hand-worked token bucket, 2 tokens refilled at 2/5 per tick") {
    // Two tokens go at tick 0, so #2 waits 1 / (2/5) = 5/2; at 1 there are 2/5, so #3 waits
    // (3/5) / (2/5) = 3/2; at 3 there are 6/5 and #4 passes. A cost of 3 never fits in 2.
    const auto result = run({0, 0, 0, 1, 3, 9}, 2, 5, {"token_bucket"}, {1, 1, 1, 1, 1, 3});
    CHECK(ask(*result, LessonAsk::rejected) == Answer::of_indices({2, 3, 5}));
    CHECK(ask(*result, LessonAsk::retry_after, 0, 2) == Answer::of_number(Rational(5, 2)));
    CHECK(ask(*result, LessonAsk::retry_after, 0, 3) == Answer::of_number(Rational(3, 2)));
    CHECK(ask(*result, LessonAsk::retry_after, 0, 5) == Answer::never());
}

TEST_CASE("quiz: hand-worked which lanes let a request through, L = 1 per W = 4") {
    // Request 1 at tick 3: the windows and the log still hold request 0, the bucket has 3/4 of
    // a token, GCRA's TAT 4 is 1 ahead with no tolerance; only the leaky bucket, whose queue
    // emptied at 0, takes it and releases it at 4.
    const auto result = run(
        {0, 3}, 1, 4,
        {"fixed_window", "sliding_log", "sliding_counter", "token_bucket", "leaky_bucket", "gcra"});
    CHECK(ask(*result, LessonAsk::accepts, 0, 1) == Answer::of_indices({4}));
    CHECK(ask(*result, LessonAsk::delay, 4, 1) == Answer::of_number(1));
    CHECK(ask(*result, LessonAsk::release, 4, 1) == Answer::of_number(4));
    CHECK(ask(*result, LessonAsk::most_accepted) == Answer::of_indices({4}));
    CHECK_THROWS_AS(ask(*result, LessonAsk::retry_after, 4, 1), SimulationError);
    CHECK_THROWS_AS(ask(*result, LessonAsk::delay, 0, 0), SimulationError);
    CHECK_THROWS_AS(ask(*result, LessonAsk::accepts, 0, 2), SimulationError);
}

TEST_CASE("quiz: answers read and written as a learner writes them") {
    CHECK(format_answer(Answer::of_indices({5, 2, 2})) == "2, 5");
    CHECK(format_answer(Answer::of_indices({})) == "none");
    CHECK(format_answer(Answer::of_number(Rational(5, 2))) == "5/2");
    CHECK(format_answer(Answer::never()) == "never");
    using F = Answer::Form;
    CHECK(parse_answer(" 5, 2 7", F::indices) == Answer::of_indices({2, 5, 7}));
    CHECK(parse_answer("#3 #1", F::indices) == Answer::of_indices({1, 3}));
    CHECK(parse_answer("None", F::indices) == Answer::of_indices({}));
    CHECK_FALSE(parse_answer("two", F::indices));
    CHECK_FALSE(parse_answer("", F::indices));
    CHECK(parse_answer("2.5", F::number) == Answer::of_number(Rational(5, 2)));
    CHECK(parse_answer("5/2", F::number) == Answer::of_number(Rational(5, 2)));
    CHECK(parse_answer("0.1", F::number) == Answer::of_number(Rational(1, 10)));
    CHECK(parse_answer("NEVER", F::number) == Answer::never());
    CHECK_FALSE(parse_answer("2.5.1", F::number));
    CHECK_FALSE(parse_answer("soon", F::number));
}

TEST_CASE("quiz: grading says what was missed and what was added") {
    const Grade partial = grade(Answer::of_indices({2, 5}), Answer::of_indices({2, 6}), "why");
    CHECK_FALSE(partial.correct);
    CHECK(partial.reason == "Wrong: the answer is 2, 5. You missed 5. Not 6. why");
    const Grade right = grade(Answer::of_number(3), *parse_answer("3", Answer::Form::number), "");
    CHECK(right.correct);
    CHECK(right.reason == "Right: 3.");
    const Grade never = grade(Answer::never(), Answer::of_number(10), "too big");
    CHECK_FALSE(never.correct);
    CHECK(never.reason == "Wrong: the answer is never, not 10. too big");
}

TEST_CASE("quiz: a release time guessed roughly is graded within its tolerance") {
    const Grade close = grade_near(Rational(15, 2), 7, Rational(1, 2), "");
    CHECK(close.correct);
    CHECK(close.reason == "Close enough: 15/2. You were 1/2 early.");
    const Grade far = grade_near(Rational(15, 2), 9, Rational(1), "why");
    CHECK_FALSE(far.correct);
    CHECK(far.reason == "Too far: it is 15/2, not 9. You were 3/2 late. why");
    CHECK(grade_near(3, 3, 0, "").reason == "Close enough: 3.");
}

TEST_CASE("quiz: draw_below is uniform rejection sampling over mt19937_64") {
    std::mt19937_64 rng(42);
    std::mt19937_64 raw(42);
    for (int i = 0; i < 1000; ++i) {
        // For a bound of 7 almost no draw is rejected: each value is the raw output mod 7.
        const std::uint64_t value = draw_below(rng, 7);
        CHECK(value == raw() % 7);
    }
    std::vector<int> seen(3, 0);
    for (int i = 0; i < 3000; ++i) {
        ++seen[draw_below(rng, 3)];
    }
    for (int count : seen) {
        CHECK(count > 800);
    }
    CHECK(draw_below(rng, 1) == 0);
}

TEST_CASE("quiz: the same seed gives the same questions, another seed others") {
    const auto first = make_quiz({7, 12});
    const auto again = make_quiz({7, 12});
    const auto other = make_quiz({8, 12});
    REQUIRE(first.size() == 12);
    REQUIRE(again.size() == 12);
    bool differs = false;
    for (std::size_t i = 0; i < first.size(); ++i) {
        CHECK(first[i].text == again[i].text);
        CHECK(first[i].trace == again[i].trace);
        CHECK(first[i].lanes == again[i].lanes);
        CHECK(first[i].answer == again[i].answer);
        CHECK(first[i].explanation == again[i].explanation);
        differs = differs || first[i].text != other[i].text;
    }
    CHECK(differs);
}

TEST_CASE("quiz: every drill's answer is what the reference engine gives") {
    const std::uint64_t seed = base_seed();
    for (std::uint64_t round = 0; round < 40; ++round) {
        const std::uint64_t quiz_seed = seed + round;
        INFO("seed " << quiz_seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        const auto questions = make_quiz({quiz_seed, 8});
        REQUIRE(questions.size() == 8);
        std::vector<int> kinds(4, 0);
        for (const Question& q : questions) {
            INFO(q.text);
            ++kinds[static_cast<std::size_t>(q.kind)];
            REQUIRE(q.trace.is_well_formed());
            REQUIRE_FALSE(q.explanation.empty());
            Params params;
            params.base = q.limits;
            params.lanes = q.lanes;
            const auto reference =
                simulate_reference(std::make_shared<const Trace>(q.trace), params);
            const auto& runs = reference->runs;
            switch (q.kind) {
                case QuestionKind::rejected_indices: {
                    std::vector<std::int64_t> refused;
                    for (std::size_t i = 0; i < q.trace.requests.size(); ++i) {
                        if (!runs[0].accepted(i)) {
                            refused.push_back(static_cast<std::int64_t>(i));
                        }
                    }
                    CHECK(q.answer == Answer::of_indices(refused));
                    break;
                }
                case QuestionKind::retry_after: {
                    REQUIRE(q.request);
                    const Decision d = runs[0].decision(q.trace, *q.request);
                    REQUIRE_FALSE(d.accepted);
                    CHECK(q.answer ==
                          (d.retry_after ? Answer::of_number(*d.retry_after) : Answer::never()));
                    break;
                }
                case QuestionKind::worst_burst:
                    CHECK(q.answer == Answer::of_number(runs[0].worst_burst.cost));
                    break;
                case QuestionKind::which_accepts: {
                    REQUIRE(q.request);
                    REQUIRE(runs.size() == Registry::instance().all().size());
                    std::vector<std::int64_t> accepting;
                    for (std::size_t k = 0; k < runs.size(); ++k) {
                        if (runs[k].accepted(*q.request)) {
                            accepting.push_back(static_cast<std::int64_t>(k));
                        }
                    }
                    CHECK(q.answer == Answer::of_indices(accepting));
                    break;
                }
            }
        }
        // Eight questions are two cycles of the four kinds (a retry-after falls back to the
        // rejected list only when no draw had a rejection, which these traces never lack).
        for (int count : kinds) {
            CHECK(count == 2);
        }
    }
}
