// The worst burst over several shapers' units (core/src/merged_burst.h), which counts from
// segments rather than units: checked against a count over every unit on seeded random streams
// of per-key queues, and on traces whose units are far too many to count one by one. A failure
// prints the seed; set RATELAB_PROPERTY_SEED to replay one.
#include "merged_burst.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "catch.h"
#include "ratelab/simulation.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::detail::ManyShaperBurst;
using ratelab::detail::UnitSegment;
using ratelab::test::base_seed;

namespace {

constexpr std::int64_t kCommonScale = 6;  // every scale below divides it, but for prime paces

struct Stream {
    std::vector<std::pair<Tick, UnitSegment>> segments;  // arrival tick, units
    std::vector<std::int64_t> units;                     // over scale
    std::int64_t scale = kCommonScale;                   // every key's scale divides it
};

/// The worst span by counting every unit: the most units in [u, u + W) over units u, and the
/// earliest u with that many.
Burst count_every_unit(const Stream& stream, Tick window) {
    std::vector<std::int64_t> units = stream.units;
    std::sort(units.begin(), units.end());
    Burst best;
    std::size_t end = 0;
    for (std::size_t i = 0; i < units.size(); ++i) {
        end = std::max(end, i);
        while (end < units.size() && units[end] < units[i] + window * stream.scale)
            ++end;
        const auto held = static_cast<std::int64_t>(end - i);
        if (held > best.cost)
            best = Burst{held, Rational(units[i], stream.scale)};
    }
    return best;
}

/// The worst span as the units tracker counts it, fed as a run feeds it, and the steps it took.
std::pair<Burst, std::int64_t> merged_burst(const Stream& stream, Tick window) {
    ratelab::detail::MergedUnitBurst tracker(window);
    for (const auto& [tick, segment] : stream.segments) {
        tracker.advance_to(tick);
        tracker.add(segment);
    }
    const Burst burst = tracker.result();
    return {burst, tracker.steps()};
}

/// A seeded source of whole numbers from lo to hi, for one case of a property.
struct Pick {
    explicit Pick(std::uint64_t seed) : rng(seed) {}
    std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    }
    std::mt19937_64 rng;
};

/// The units tracker on one case: the exact worst span, in at most `steps_per_request` steps
/// for each request.
void check_counted(const Stream& stream, Tick window, std::uint64_t seed,
                   std::int64_t steps_per_request) {
    INFO("seed " << seed << " (RATELAB_PROPERTY_SEED), W " << window << ", " << stream.units.size()
                 << " units");
    const auto [burst, steps] = merged_burst(stream, window);
    CHECK(burst == count_every_unit(stream, window));
    CHECK(steps <= steps_per_request * static_cast<std::int64_t>(stream.segments.size()));
}

/// A key's queue: one unit through every step/scale ticks, its last unit at last/scale.
struct Key {
    std::int64_t step, scale, last = -1;
};

/// A request of `cost` units arriving at `now` on `key`: its units queue after the key's last.
void queue_request(Stream& out, Key& key, Tick now, std::int64_t cost) {
    const std::int64_t first =
        key.last < 0 ? now * key.scale : std::max(now * key.scale, key.last + key.step);
    const UnitSegment segment{first, cost, key.step, key.scale};
    key.last = segment.last();
    out.segments.emplace_back(now, segment);
    for (std::int64_t j = 0; j < cost; ++j)
        out.units.push_back((first + j * key.step) * (out.scale / key.scale));
}

/// Requests on `keys` keys, each key a queue letting one unit through every step/scale ticks
/// (its own step when `mixed`), as the leaky bucket's many-key run produces them.
Stream random_stream(std::mt19937_64& rng, int keys, bool mixed, std::size_t requests) {
    auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    std::vector<Key> key_list;
    const std::int64_t shared_step = pick(1, 7);
    const std::int64_t shared_scale = std::vector<std::int64_t>{1, 2, 3}[pick(0, 2)];
    for (int k = 0; k < keys; ++k) {
        if (mixed && k % 2 == 1)
            key_list.push_back(
                Key{shared_step + pick(1, 5), std::vector<std::int64_t>{1, 2, 3}[pick(0, 2)]});
        else
            key_list.push_back(Key{shared_step, shared_scale});
    }
    const std::int64_t long_costs = pick(0, 2);  // 0: short queues; 2: runs of up to 60 units
    Stream out;
    Tick now = 0;
    for (std::size_t r = 0; r < requests; ++r) {
        now += pick(0, 3) == 0 ? pick(0, 40) : pick(0, 1);
        Key& key = key_list[static_cast<std::size_t>(pick(0, keys - 1))];
        queue_request(out, key, now, pick(1, long_costs == 0 ? 3 : long_costs == 1 ? 12 : 60));
    }
    return out;
}

/// Feeds `stream` to a tracker that moves to segments after `when`; `segments` says whether
/// it counts from segments at the end.
Burst track(const Stream& stream, Tick window, ManyShaperBurst::Switch when, bool& segments) {
    ManyShaperBurst tracker(window, when);
    for (const auto& [tick, segment] : stream.segments) {
        tracker.advance_to(tick);
        tracker.add(segment);
    }
    segments = tracker.counts_segments();
    return tracker.result();
}

constexpr ManyShaperBurst::Switch kAtOnce{0, 0};
constexpr ManyShaperBurst::Switch kMidway{200, 8};  // after some of the costlier streams

}  // namespace

TEST_CASE("many-shaper bursts: segments count as every unit would, with one drain interval") {
    const std::uint64_t seed0 = base_seed();
    int switched_midway = 0;
    for (std::uint64_t n = 0; n < 400; ++n) {
        std::mt19937_64 rng(seed0 + n);
        const int keys = 2 + static_cast<int>(n % 9);
        const Tick window = std::vector<Tick>{1, 2, 5, 13, 60, 400}[n % 6];
        // Past 64 segments the tracker settles in batches: most streams here cross that.
        const Stream stream = random_stream(rng, keys, false, 20 + (n % 5) * 60);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), keys " << keys << ", W " << window);
        const Burst expected = count_every_unit(stream, window);
        bool segments = false;
        CHECK(track(stream, window, kAtOnce, segments) == expected);
        CHECK(segments);
        CHECK(track(stream, window, kMidway, segments) == expected);
        switched_midway += segments;
        CHECK(track(stream, window, ManyShaperBurst::Switch{}, segments) == expected);
        CHECK_FALSE(segments);  // too few units to leave the unit tracker
    }
    // The streams of costlier requests move over after 200 units or more, mid-stream.
    CHECK(switched_midway > 50);
}

TEST_CASE("many-shaper bursts: keys with other drain intervals are counted by units, exactly") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 300; ++n) {
        std::mt19937_64 rng(seed0 + n);
        const Tick window = std::vector<Tick>{1, 3, 10, 60, 200, 5000}[n % 6];
        const Stream stream = random_stream(rng, 2 + static_cast<int>(n % 5), true, 300);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), W " << window);
        const Burst expected = count_every_unit(stream, window);
        bool segments = true;
        CHECK(track(stream, window, kAtOnce, segments) == expected);
        CHECK(track(stream, window, kMidway, segments) == expected);
        CHECK_FALSE(segments);
    }
}

TEST_CASE("many-shaper bursts: a small trace of costly requests is counted from its requests") {
    // 200 keys, one request each of cost 10^6 at tick 0, with L = 10^6 and W = 10^12: every
    // queue lets a unit through every 10^6 ticks, and one W holds all 2 * 10^8 units. Counted
    // unit by unit this took 4 GB; from segments it is 200 of them.
    TraceBuilder builder;
    for (int k = 0; k < 200; ++k)
        builder.add(0, 1'000'000, "key" + std::to_string(k));
    Params params;
    params.base.limit = 1'000'000;
    params.base.window = 1'000'000'000'000;
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params,
                                 {"leaky_bucket"});
    const AlgorithmRun& leaky = result->runs[0];
    CHECK(leaky.totals.accepted == 200);
    CHECK(leaky.worst_burst == Burst{200'000'000, Rational(0)});
}

TEST_CASE("many-shaper bursts: keys with other drain intervals hold a run per request") {
    // Two keys letting a unit through every tick and two every 5/3 ticks, with queues of up to
    // 40,000 units and W = 50,000: a window holds some 10^5 units, which the tracker used to
    // keep one by one. It keeps one run per request inside instead, and counts exactly. Then
    // smaller streams: after a long gap the window holds far fewer units than the worst span,
    // and stretches of units are taken without counting each span.
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 40; ++n) {
        const bool large = n < 4;
        std::mt19937_64 rng(seed0 + n);
        auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
            return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
        };
        const Tick window = large ? 50'000 : std::vector<Tick>{700, 5'000, 20'000}[n % 3];
        std::vector<Key> keys{{1, 1}, {5, 3}, {1, 1}, {5, 3}};
        Stream stream;
        Tick now = 0;
        for (int r = 0; r < (large ? 120 : 80); ++r) {
            now += pick(0, 3) == 0 ? pick(0, large ? 30'000 : 3'000) : pick(0, 50);
            Key& key = keys[static_cast<std::size_t>(pick(0, 3))];
            queue_request(stream, key, now, pick(1, large ? 40'000 : 2'000));
        }
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), " << stream.units.size()
                     << " units");
        ManyShaperBurst tracker(window);
        std::size_t most_held = 0;
        for (const auto& [tick, segment] : stream.segments) {
            tracker.advance_to(tick);
            tracker.add(segment);
            most_held = std::max(most_held, tracker.held());
        }
        // A request held pending, as a run inside and in its slot: a few entries each.
        CHECK(most_held <= 4 * stream.segments.size());
        CHECK_FALSE(tracker.counts_segments());
        CHECK(tracker.result() == count_every_unit(stream, window));
    }
}

TEST_CASE("many-shaper bursts: a small trace of costly requests on two tiers") {
    // As above, but half the keys have a tier of L = 10^6 per W = 10^11: their queues let a
    // unit through every 10^5 ticks, the others every 10^6. One W holds all 2 * 10^8 units,
    // which the keys' different drain intervals had the tracker count one by one, in 4 GB.
    TraceBuilder builder;
    Params params;
    params.base.limit = 1'000'000;
    params.base.window = 1'000'000'000'000;
    for (int k = 0; k < 200; ++k) {
        const std::string key = "key" + std::to_string(k);
        builder.add(0, 1'000'000, key);
        if (k % 2 == 1)
            params.keys[key] = Limits{1'000'000, 100'000'000'000, {}, 1000};
    }
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params,
                                 {"leaky_bucket"});
    const AlgorithmRun& leaky = result->runs[0];
    CHECK(leaky.totals.accepted == 200);
    CHECK(leaky.worst_burst == Burst{200'000'000, Rational(0)});
}

TEST_CASE("many-shaper bursts: busy queues at different paces are counted a stretch at a time") {
    // Queues that never empty, on keys that let a unit through every 1, 5/3, 2 or 7/2 ticks:
    // the window stays near its worst span, units coming in as fast as others leave. Between
    // the ends of requests the count repeats itself every period, so the tracker takes such a
    // stretch at once rather than unit by unit, and still counts exactly.
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 24; ++n) {
        Pick pick(seed0 + n);
        const Tick window = std::vector<Tick>{900, 10'000, 60'000}[n % 3];
        std::vector<Key> all_keys{{1, 1}, {5, 3}, {2, 1}, {7, 2}};
        std::vector<Key> keys(all_keys.begin(), all_keys.begin() + 2 + static_cast<long>(n % 3));
        Stream stream;
        Tick now = 0;
        // Requests arrive faster than their units drain, so every queue stays busy, but for a
        // pause now and then.
        for (int r = 0; r < 90; ++r) {
            now += pick(0, 9) == 0 ? pick(20'000, 80'000) : pick(0, 2'000);
            Key& key = keys[static_cast<std::size_t>(pick(0, static_cast<int>(keys.size()) - 1))];
            queue_request(stream, key, now, pick(5'000, 30'000));
        }
        // Unit by unit this took about two steps per unit (one taken, one let out), some 3 *
        // 10^6 here; a stretch at a time it takes a few periods' worth of units at each end of a
        // request, whatever its cost.
        check_counted(stream, window, seed0 + n, 2000);
    }
}

TEST_CASE("many-shaper bursts: a long queue's units leave the window a run at a time") {
    // One key's costly requests queue up hundreds of thousands of units within one W, taken at
    // once because they let nothing out; other keys, draining at other paces, send a few units
    // at a time meanwhile. Each of those lets out a stretch of the long queue's units, which
    // the tracker once did one heap step per unit: 18 s for a 1 MB trace of 20,000 requests.
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 12; ++n) {
        Pick pick(seed0 + n);
        const Tick window = std::vector<Tick>{250'000, 600'000, 1'000'000}[n % 3];
        Key long_queue{1, 1};
        std::vector<Key> others{{3, 1}, {5, 3}, {7, 2}};
        Stream stream;
        Tick now = 0;
        for (int r = 0; r < 400; ++r) {
            // Now and then a pause of W or more, and a long queue behind it that drains within
            // half a W.
            if (pick(0, 49) == 0) {
                now += pick(window, 2 * window);
                queue_request(stream, long_queue, now, pick(window / 8, window / 2));
                continue;
            }
            now += pick(0, 60);
            Key& key = others[static_cast<std::size_t>(pick(0, 2))];
            queue_request(stream, key, now, pick(1, 3));
        }
        // A unit at a time, the long queue's units cost a step each: about 10^6 here.
        check_counted(stream, window, seed0 + n, 20);
    }
}

TEST_CASE("many-shaper bursts: paces over large primes are bounded a pace at a time") {
    // Three keys let a unit through every 4111/4099, 4099/4111 and 1 tick: their common period
    // is about 10^14 units long, so the count never repeats within a stretch, and the window,
    // as full as it gets for as long as the queues stay busy, was counted unit by unit (900
    // requests of 999,000 units on keys with L = 10^6, 999,983 and 999,979 took 35 s). Each
    // pace's worst count on its own bounds its share of any span; where those add up to no
    // more than the best, a stretch is taken at once.
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 12; ++n) {
        Pick pick(seed0 + n);
        std::vector<Key> keys{{4111, 4099}, {4099, 4111}, {1, 1}};
        Stream stream;
        stream.scale = 4099 * 4111;
        // Rounds of a request of one cost on every key, each round a little after the queues
        // have drained.
        const std::int64_t cost = pick(2'000, 4'000);
        const Tick round = cost + pick(20, 200);
        const Tick window = round * pick(1, 3) + pick(0, round);
        for (Tick now = 0; now < 40 * round; now += round) {
            for (Key& key : keys)
                queue_request(stream, key, now, cost);
        }
        // Unit by unit, up to two steps per unit: up to 8 * 10^5 here. A stretch at a time, a
        // few dozen steps at each end of a request before the shortcut is tried.
        check_counted(stream, window, seed0 + n, 200);
    }
}

TEST_CASE("many-shaper bursts: a busy queue's short requests count as one progression") {
    // Keys whose queues never empty, each sent its next short request just before its queue
    // would: the window, near its worst for as long as that lasts, holds hundreds of one key's
    // requests back to back. Each was a term of its own, which ended a stretch where it began
    // and, past 64 of them, had the tracker count unit by unit. Units that carry on one
    // another's are one progression, whatever request they belong to.
    const std::uint64_t seed0 = base_seed();
    std::int64_t steps = 0;
    std::int64_t requests = 0;
    for (std::uint64_t n = 0; n < 12; ++n) {
        Pick pick(seed0 + n);
        const Tick window = std::vector<Tick>{6'000, 9'000, 15'000}[n % 3];
        std::vector<Key> keys{{1, 1}, {2, 1}, {1, 2}};
        std::vector<Tick> due(keys.size(), 0);  // when each key sends its next request
        Stream stream;
        for (int r = 0; r < 1'500; ++r) {
            const auto k =
                static_cast<std::size_t>(std::min_element(due.begin(), due.end()) - due.begin());
            queue_request(stream, keys[k], due[k], pick(20, 200));
            // Its queue empties after its last unit: the next request comes a little before,
            // or now and then after a pause.
            due[k] = std::max(due[k], keys[k].last / keys[k].scale - pick(0, 10));
            if (pick(0, 199) == 0)
                due[k] += pick(window, 2 * window);
        }
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), W " << window);
        const auto [burst, case_steps] = merged_burst(stream, window);
        CHECK(burst == count_every_unit(stream, window));
        steps += case_steps;
        requests += static_cast<std::int64_t>(stream.segments.size());
    }
    // Unit by unit, about two steps per unit: some 220 per request here. Each request its own
    // term, 35-67 over these cases; as progressions, 7-13. Over the cases together, as one
    // case alone varies too much to tell.
    INFO("seeds from " << seed0 << " (RATELAB_PROPERTY_SEED)");
    CHECK(steps <= 24 * requests);
}
