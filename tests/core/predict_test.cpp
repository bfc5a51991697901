// Predict mode's bookkeeping on the default scenario worked by hand: L = 4, W = 10, one
// request at each of ticks 6 to 13. The fixed window accepts all eight (four fall in each
// window); the sliding log accepts the first four and rejects the rest (its 10 ticks hold
// four already).
#include "ratelab/predict.h"
#include "catch.h"

using namespace ratelab;

namespace {

PredictRound defaultRound() {
    auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    return PredictRound(result, {0, 1});  // fixed window, sliding log
}

}  // namespace

TEST_CASE("predict: graded against the lanes' decisions, scored per lane and in a row") {
    PredictRound round = defaultRound();
    REQUIRE(round.lanes() == std::vector<std::size_t>{0, 1});
    CHECK(round.request() == 0);
    CHECK_FALSE(round.prediction(0).has_value());

    // Request 0 at tick 6: both accept, as said.
    round.predict(0, true);
    round.predict(1, true);
    const auto& first = round.reveal();
    REQUIRE(first.size() == 2);
    CHECK(first[0].right());
    CHECK(first[1].right());
    CHECK(round.streak() == 2);
    // Revealed, the predictions are fixed, and revealing again counts nothing twice.
    round.predict(0, false);
    CHECK(round.prediction(0) == true);
    round.reveal();
    CHECK(round.overall() == PredictRound::Score{2, 2});

    // Request 1: a digit pressed twice says "rejected", which is wrong; the log is left unsaid.
    round.next();
    CHECK(round.request() == 1);
    CHECK_FALSE(round.prediction(0).has_value());
    round.toggle(0);
    CHECK(round.prediction(0) == true);
    round.toggle(0);
    CHECK(round.prediction(0) == false);
    const auto& second = round.reveal();
    CHECK_FALSE(second[0].right());
    CHECK(second[0].accepted);
    CHECK_FALSE(second[1].predicted.has_value());
    CHECK(round.streak() == 0);
    CHECK(round.bestStreak() == 2);
    REQUIRE(round.mistakes().size() == 1);
    CHECK(round.mistakes()[0] == PredictRound::Mistake{1, 0, false, {}});

    // Request 2 is skipped: nothing graded.
    round.next();
    round.predict(1, false);
    round.next();
    CHECK(round.request() == 3);
    CHECK(round.overall() == PredictRound::Score{2, 3});

    // Request 4 at tick 10: the sliding log rejects it, the fixed window's new window takes it.
    round.next();
    round.predict(0, true);
    round.predict(1, false);
    const auto& fifth = round.reveal();
    CHECK(fifth[0].right());
    CHECK(fifth[1].right());
    CHECK_FALSE(fifth[1].accepted);
    CHECK(round.score(0) == PredictRound::Score{2, 3});
    CHECK(round.score(1) == PredictRound::Score{2, 2});

    for (int i = 0; i < 10; ++i)
        round.next();
    CHECK(round.finished());
    round.predict(0, true);  // nothing left to predict
    CHECK(round.reveal().empty());
    CHECK(round.overall() == PredictRound::Score{4, 5});
}

TEST_CASE("predict: every lane when none is named, and a lane that does not exist is refused") {
    auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    CHECK(PredictRound(result, {}).lanes().size() == result->runs.size());
    CHECK_THROWS_AS(PredictRound(result, {0, 9}), SimulationError);
    CHECK(PredictRound(result, {2}, 5).request() == 5);
}

// The leaky bucket on the same trace, worked by hand: it lets one request out every W / L = 5/2
// ticks and holds at most L = 4 waiting. Request 0 (t = 6) finds it empty and leaves at once;
// each next one leaves 5/2 after the one before: 17/2, 11, 27/2, 16, 37/2, 21. At t = 13 the
// four released at 27/2, 16, 37/2 and 21 still wait, so request 7 is rejected.
TEST_CASE("predict: a shaper's release guessed roughly, graded within the tolerance") {
    auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    REQUIRE(result->runs[4].id == "leaky_bucket");
    PredictRound round(result, {0, 4});
    CHECK_FALSE(round.shapes(0));
    REQUIRE(round.shapes(1));
    CHECK(round.releaseTolerance() == Rational(1));

    // Only a shaper takes a release; giving one says "accepted".
    round.predictRelease(0, Rational(6));
    CHECK_FALSE(round.prediction(0).has_value());
    CHECK_FALSE(round.releasePrediction(0).has_value());
    round.predictRelease(1, Rational(6));
    CHECK(round.prediction(1) == true);
    const auto& first = round.reveal();
    CHECK_FALSE(first[0].release.has_value());
    REQUIRE(first[1].release == Rational(6));
    REQUIRE(first[1].release_grade.has_value());
    CHECK(first[1].release_grade->correct);
    CHECK(round.releaseScore() == PredictRound::Score{1, 1});

    // Request 1 (t = 7) leaves at 17/2: 9 is half a tick late, close enough.
    round.next();
    CHECK_FALSE(round.releasePrediction(1).has_value());
    round.predictRelease(1, Rational(9));
    const auto& second = round.reveal();
    CHECK(second[1].release == Rational(17, 2));
    REQUIRE(second[1].release_grade.has_value());
    CHECK(second[1].release_grade->correct);
    CHECK(second[1].release_grade->reason == "Close enough: 17/2. You were 1/2 late.");

    // Request 2 (t = 8) leaves at 11: 9 is two ticks early. Accepted was right, the time not.
    round.next();
    round.predictRelease(1, Rational(9));
    const auto& third = round.reveal();
    CHECK(third[1].right());
    REQUIRE(third[1].release_grade.has_value());
    CHECK_FALSE(third[1].release_grade->correct);
    CHECK(round.releaseScore() == PredictRound::Score{2, 3});
    REQUIRE(round.mistakes().size() == 1);
    CHECK(round.mistakes()[0] == PredictRound::Mistake{2, 4, true, Rational(9)});
    CHECK(round.overall() == PredictRound::Score{3, 3});

    // Saying "rejected" takes a release guess back.
    round.next();
    round.predictRelease(1, Rational(14));
    round.predict(1, false);
    CHECK_FALSE(round.releasePrediction(1).has_value());
    round.next();

    // A tighter tolerance: request 4 (t = 10) leaves at 16, and 33/2 is now too late.
    round.setReleaseTolerance(Rational(1, 4));
    round.predictRelease(1, Rational(33, 2));
    CHECK(round.reveal()[1].release == Rational(16));
    CHECK_FALSE(round.reveal()[1].release_grade->correct);
    for (int i = 0; i < 3; ++i)
        round.next();

    // Request 7 (t = 13) is rejected: nothing is released, so the guess is not graded as one.
    REQUIRE(round.request() == 7);
    round.predictRelease(1, Rational(23));
    const auto& last = round.reveal();
    CHECK_FALSE(last[1].accepted);
    CHECK_FALSE(last[1].release.has_value());
    CHECK_FALSE(last[1].release_grade.has_value());
    CHECK(round.releaseScore() == PredictRound::Score{2, 4});
    CHECK(round.mistakes().back() == PredictRound::Mistake{7, 4, true, {}});
}
