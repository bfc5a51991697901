// resimulate() after an edit must give exactly what simulate() gives on the edited trace, while
// taking the decisions before the edit from the previous result. Seeded random traces long
// enough to have several checkpoints; a failure prints the seed.
#include <algorithm>
#include <random>

#include "catch.h"
#include "test_support.h"

using namespace ratelab;

namespace {

std::shared_ptr<const Trace> random_trace(std::mt19937_64& rng, std::size_t count, int keys) {
    TraceBuilder builder;
    Tick tick = 0;
    for (std::size_t i = 0; i < count; ++i) {
        tick += static_cast<Tick>(rng() % 3);
        const auto key = static_cast<int>(rng() % static_cast<unsigned>(keys));
        builder.add(tick, static_cast<std::uint32_t>(1 + rng() % 3),
                    key == 0 ? std::string() : "k" + std::to_string(key));
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

/// One edit such as the app makes: add, remove, move (remove and add) or change a cost.
std::shared_ptr<const Trace> edited(const Trace& trace, std::mt19937_64& rng) {
    Trace out = trace;
    auto& requests = out.requests;
    const std::size_t at = rng() % requests.size();
    const auto insert = [&](Request r) {
        const auto place =
            std::upper_bound(requests.begin(), requests.end(), r.tick,
                             [](Tick tick, const Request& other) { return tick < other.tick; });
        requests.insert(place, r);
    };
    switch (rng() % 4) {
        case 0:
            insert(Request{requests[at].tick, 1, requests[at].key});
            break;
        case 1:
            requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(at));
            break;
        case 2: {
            Request moved = requests[at];
            requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(at));
            moved.tick += 2;
            insert(moved);
            break;
        }
        default:
            requests[at].cost = requests[at].cost % 3 + 1;
    }
    return std::make_shared<const Trace>(std::move(out));
}

void require_same(const SimulationResult& got, const SimulationResult& want) {
    REQUIRE(got.runs.size() == want.runs.size());
    for (std::size_t i = 0; i < got.runs.size(); ++i) {
        const AlgorithmRun& a = got.runs[i];
        const AlgorithmRun& b = want.runs[i];
        INFO(b.id);
        CHECK(a.id == b.id);
        CHECK(a.totals == b.totals);
        CHECK(a.worst_burst == b.worst_burst);
        CHECK(a.outcomes == b.outcomes);
        CHECK(a.times == b.times);
    }
}

}  // namespace

TEST_CASE("resimulate after edits equals simulating the edited trace") {
    const std::uint64_t base = std::random_device{}();
    for (std::uint64_t round = 0; round < 6; ++round) {
        const std::uint64_t seed = base + round;
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        const int keys = round % 3 == 2 ? 2 : 1;
        Params params = test::limits(static_cast<std::int64_t>(3 + rng() % 20),
                                     static_cast<Tick>(2 + rng() % 30));
        params.rejections_count = round % 2 == 1;
        auto result = simulate(random_trace(rng, 14'000, keys), params);
        // Several edits in a row: each resumes from checkpoints a resumed run saved.
        for (int edit = 0; edit < 4; ++edit) {
            const auto trace = edited(*result->trace, rng);
            const auto fast = resimulate(*result, trace);
            require_same(*fast, *simulate(trace, params));
            result = fast;
        }
    }
}

TEST_CASE("resimulate with a new key decides everything again, with the same result") {
    std::mt19937_64 rng(5);
    const auto result = simulate(random_trace(rng, 9'000, 1), test::limits(5, 10));
    TraceBuilder builder;
    for (const Request& r : result->trace->requests)
        builder.add(r.tick, r.cost);
    builder.add(result->trace->requests.back().tick, 1, "new");
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    require_same(*resimulate(*result, trace), *simulate(trace, result->params));
}

TEST_CASE("resimulate rejects an invalid trace like simulate") {
    const auto result = simulate(test::ticks({1, 2, 3}), test::limits(2, 5));
    Trace backwards;
    backwards.keys = {""};
    backwards.requests = {Request{3, 1, 0}, Request{1, 1, 0}};
    CHECK_THROWS_AS(resimulate(*result, std::make_shared<const Trace>(backwards)), SimulationError);
    CHECK_THROWS_AS(resimulate(*result, nullptr), SimulationError);
}
