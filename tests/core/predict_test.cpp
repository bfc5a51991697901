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
    CHECK(round.mistakes()[0] == PredictRound::Mistake{1, 0, false});

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
