// The worst burst over every key's accepted arrivals after an edit of a few of them
// (core/src/keyed_burst.h), counted again only around what changed: checked against counting
// every arrival, on seeded random decisions with many ties. A failure prints the seed; set
// RATELAB_PROPERTY_SEED to replay one.
#include "keyed_burst.h"

#include <algorithm>
#include <random>
#include <vector>

#include "burst.h"
#include "catch.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::detail::ArrivalBurst;
using ratelab::detail::ChangedTicks;
using ratelab::test::base_seed;

namespace {

DecisionColumns columns_of(const std::vector<bool>& accepted) {
    DecisionColumns::Builder builder;
    for (const bool yes : accepted)
        builder.push(yes ? AlgorithmRun::kAccepted : AlgorithmRun::kRejected, Rational());
    return builder.finish();
}

/// What a run counts: every accepted arrival through one tracker.
Burst every_arrival(const Trace& trace, const std::vector<bool>& accepted, Tick window) {
    ArrivalBurst burst(window);
    for (std::size_t i = 0; i < accepted.size(); ++i) {
        if (accepted[i]) {
            const ArrivalBurst::Arrival arrival{trace.requests[i].tick, trace.requests[i].cost};
            burst.add(&arrival, 1);
        }
    }
    return burst.result();
}

}  // namespace

TEST_CASE("after an edit the worst burst of every key's arrivals is counted around the change",
          "[keyed_burst]") {
    const std::uint64_t seed = base_seed();
    std::mt19937_64 rng(seed);
    const auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    int counted_around = 0;
    for (int round = 0; round < 400; ++round) {
        // Small costs, small windows and busy ticks: many windows tie for the worst. Every
        // other round is steady traffic that nearly all passes, where every window ties.
        const bool steady = round % 2 == 0;
        Trace trace;
        const auto size = static_cast<std::size_t>(pick(200, 3000));
        const Tick window = pick(1, 40);
        const Tick gap = pick(0, 2);
        Tick now = 0;
        for (std::size_t i = 0; i < size; ++i) {
            now += steady ? gap + (i % 2) : pick(0, 3);
            const auto cost = static_cast<std::uint32_t>(steady ? 1 : pick(1, 3));
            trace.requests.push_back(Request{now, cost, 0});
        }
        std::vector<bool> accepted(size);
        const int accept_percent =
            steady ? 100 - static_cast<int>(pick(0, 2)) : static_cast<int>(pick(5, 95));
        for (std::size_t i = 0; i < size; ++i)
            accepted[i] = pick(1, 100) <= accept_percent;
        const Burst before = every_arrival(trace, accepted, window);

        // Flip a few decisions, close together or not (or accept a few more); noting the ticks of
        // those whose acceptance changed, as the keyed re-run does.
        std::vector<bool> after = accepted;
        ChangedTicks changed;
        // Half the time near where the old worst window starts, which the edit may then change.
        const auto old_worst = static_cast<std::int64_t>(
            std::lower_bound(trace.requests.begin(), trace.requests.end(), before.start.floor(),
                             [](const Request& r, Tick t) { return r.tick < t; }) -
            trace.requests.begin());
        const std::int64_t centre = pick(0, 1) == 0 ? pick(0, static_cast<std::int64_t>(size) - 1)
                                                    : old_worst + pick(-window, 2 * window);
        const std::int64_t spread = pick(0, 1) == 0 ? 20 : static_cast<std::int64_t>(size);
        const int flips = static_cast<int>(pick(0, 6));
        const bool adding = round % 3 == 1;  // accepts what was rejected, and nothing else
        for (int f = 0; f < flips; ++f) {
            const auto at = static_cast<std::size_t>(std::clamp<std::int64_t>(
                centre + pick(-spread, spread), 0, static_cast<std::int64_t>(size) - 1));
            after[at] = adding || !after[at];
        }
        bool only_added = true;
        for (std::size_t i = 0; i < size; ++i) {
            if (after[i] != accepted[i]) {
                changed.note(trace.requests[i].tick);
                only_added = only_added && after[i];
            }
        }
        const Burst expected = every_arrival(trace, after, window);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED), round " << round << ", W " << window
                     << ", changed ticks " << changed.first << " to " << changed.last);
        bool counted_all = false;
        CHECK(detail::arrival_burst_after_edit(trace, columns_of(after), window, before, changed,
                                               &counted_all) == expected);
        // Counting around the change suffices when it takes no arrival away (a worst window
        // inside then only grows) and what is counted again is a small part of the trace: at
        // most from two windows before the first change to two after the last, when the old
        // worst window overlaps the change.
        const std::size_t recounted_at_most =
            changed.any() ? detail::first_at(trace, changed.last + 2 * window) -
                                detail::first_at(trace, changed.first - 2 * window + 1)
                          : 0;
        if (changed.any() && only_added && recounted_at_most * 4 <= size) {
            CHECK_FALSE(counted_all);
            ++counted_around;
        }
    }
    CHECK(counted_around > 25);
}
