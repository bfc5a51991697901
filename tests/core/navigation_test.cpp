// The lecture-hall moves, on a hand-worked trace: L = 2 per W = 10, requests at 8 9 10 11 25 26 27.
// The fixed window accepts 8 9 (window [0, 10)) and 10 11 (window [10, 20)): four in [8, 18),
// its worst burst, and 25 26 but not 27. The sliding log rejects 10 and 11 (8 and 9 are in its
// last ten ticks) and 27.
#include "ratelab/navigation.h"
#include "catch.h"
#include "ratelab/simulation.h"

using namespace ratelab;

namespace {

std::shared_ptr<const SimulationResult> run(const std::vector<std::string>& lanes) {
    TraceBuilder builder;
    for (Tick tick : {8, 9, 10, 11, 25, 26, 27})
        builder.add(tick, 1);
    Params params;
    params.base.limit = 2;
    params.base.window = 10;
    for (const std::string& id : lanes)
        params.lanes.push_back(Lane{id, {}, {}, false});
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
}

}  // namespace

TEST_CASE("navigation: next and previous rejection in any lane, hand-worked") {
    const auto result = run({"fixed_window", "sliding_log"});
    CHECK(next_rejection(*result, 0) == Tick{10});
    CHECK(next_rejection(*result, 10) == Tick{11});
    CHECK(next_rejection(*result, 11) == Tick{27});
    CHECK(next_rejection(*result, 27) == std::nullopt);
    CHECK(previous_rejection(*result, 100) == Tick{27});
    CHECK(previous_rejection(*result, 27) == Tick{11});
    CHECK(previous_rejection(*result, 11) == Tick{10});
    CHECK(previous_rejection(*result, 10) == std::nullopt);
}

TEST_CASE("navigation: a lane alone: the fixed window rejects only tick 27") {
    const auto result = run({"fixed_window"});
    CHECK(next_rejection(*result, 0) == Tick{27});
    CHECK(previous_rejection(*result, 27) == std::nullopt);
}

TEST_CASE("navigation: the worst burst is the fixed window's four from tick 8, shown at tick 11") {
    for (const bool fixed_first : {true, false}) {
        const auto result = fixed_first ? run({"fixed_window", "sliding_log"})
                                        : run({"sliding_log", "fixed_window"});
        const auto place = worst_burst_place(*result);
        REQUIRE(place);
        CHECK(place->lane == (fixed_first ? 0U : 1U));
        CHECK(place->burst.cost == 4);
        CHECK(place->burst.start == Rational(8));
        CHECK(place->window == 10);
        CHECK(place->last == 11);
    }
}

TEST_CASE("navigation: an empty trace has no rejection and no burst") {
    Params params;
    params.lanes.push_back(Lane{"token_bucket", {}, {}, false});
    const auto result = simulate(std::make_shared<const Trace>(), params);
    CHECK(next_rejection(*result, 0) == std::nullopt);
    CHECK(previous_rejection(*result, 5) == std::nullopt);
    CHECK(worst_burst_place(*result) == std::nullopt);
}
