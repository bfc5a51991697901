// The fleet's modes against the single limiter they reduce to (core/src/fleet*.cpp), on seeded
// random traces over many keys and tiers, for every algorithm of Registry::all(). A failure
// prints the seed; set RATELAB_PROPERTY_SEED to replay one.
#include <algorithm>
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/fleet.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;

namespace {

struct Case {
    std::shared_ptr<const Trace> trace;
    Params params;
    std::vector<Lane> lanes;  ///< every algorithm at its defaults, and with drawn values
    FleetSettings settings;
};

std::int64_t pick(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

Case random_case(std::uint64_t seed, bool presets = false) {
    std::mt19937_64 rng(seed);
    Case out;
    out.params.base.limit = pick(rng, 1, 10);
    out.params.base.window =
        std::vector<Tick>{1, 3, 7, 10, 25}[static_cast<std::size_t>(pick(rng, 0, 4))];
    const int keys = pick(rng, 0, 2) == 0 ? 1 : static_cast<int>(pick(rng, 2, 12));
    for (int k = 1; k < keys; k += 3) {
        Limits tier;
        tier.limit = pick(rng, 1, 10);
        tier.window = std::vector<Tick>{2, 5, 20}[static_cast<std::size_t>(pick(rng, 0, 2))];
        out.params.keys["k" + std::to_string(k)] = tier;
    }
    TraceBuilder builder;
    Tick tick = pick(rng, 0, 5);
    const std::int64_t requests = pick(rng, 1, 300);
    for (std::int64_t i = 0; i < requests; ++i) {
        tick += pick(rng, 0, 4) == 0 ? pick(rng, 0, 20) : pick(rng, 0, 1);
        const std::int64_t key = pick(rng, 0, keys - 1);
        const auto cost = static_cast<std::uint32_t>(pick(rng, 0, 9) == 0 ? pick(rng, 1, 8) : 1);
        builder.add(tick, cost, key == 0 ? std::string() : "k" + std::to_string(key));
    }
    out.trace = std::make_shared<const Trace>(std::move(builder).take());
    std::vector<const AlgorithmInfo*> algorithms = Registry::instance().all();
    if (presets) {
        for (const AlgorithmInfo* preset : Registry::instance().presets())
            algorithms.push_back(preset);
    }
    for (const AlgorithmInfo* info : algorithms) {
        out.lanes.push_back(Lane{info->id, {}, {}, false});
        Lane drawn{info->id, {}, {}, false};
        for (const ParameterInfo& p : info->parameters) {
            if (p.kind == ParamKind::whole)
                drawn.params[p.id] = Rational(pick(rng, 1, 12));
            else if (p.kind == ParamKind::rational)
                drawn.params[p.id] = Rational(pick(rng, 1, 30), pick(rng, 1, 6));
        }
        Params check = out.params;
        check.lanes = {drawn};
        if (validate(check).empty())
            out.lanes.push_back(std::move(drawn));
    }
    out.settings.servers = static_cast<int>(pick(rng, 1, 12));
    out.settings.balancer = static_cast<Balancer>(pick(rng, 0, 2));
    out.settings.seed = rng();
    out.settings.store_latency = pick(rng, 0, 6);
    out.settings.sync_every = pick(rng, 1, 15);
    return out;
}

std::vector<std::uint8_t> single_limiter(const Case& c, const Lane& lane) {
    Params one = c.params;
    one.lanes = {lane};
    const auto result = simulate(c.trace, one);
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < c.trace->requests.size(); ++i)
        out.push_back(result->runs.front().accepted(i) ? 1 : 0);
    return out;
}

const FleetModeResult& mode_of(const FleetResult& result, FleetMode mode) {
    for (const FleetModeResult& m : result.modes) {
        if (m.mode == mode)
            return m;
    }
    FAIL("mode " << mode_name(mode) << " missing");
    return result.modes.front();
}

}  // namespace

TEST_CASE("fleet: central, key_routed and racy at latency 0 decide as simulate() for any N") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 60; ++n) {
        Case c = random_case(seed0 + n);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), N " << c.settings.servers
                     << ", balancer " << balancer_name(c.settings.balancer));
        c.settings.modes = {FleetMode::central, FleetMode::key_routed, FleetMode::central_racy};
        c.settings.store_latency = 0;
        for (const Lane& lane : c.lanes) {
            INFO("lane " << lane_label(lane));
            const auto ideal = single_limiter(c, lane);
            const auto fleet = simulate_fleet(c.trace, c.params, lane, c.settings);
            CHECK(fleet->ideal == ideal);
            for (const FleetModeResult& mode : fleet->modes) {
                INFO("mode " << mode_name(mode.mode));
                CHECK(mode.accepted == ideal);
                CHECK(mode.extra_accepted == 0);
                CHECK(mode.extra_rejected == 0);
            }
            // On one key the fleet's worst burst is the run's, for a lane that does not shape
            // (a shaper's run counts its releases, the fleet its accepted arrivals).
            const bool one_key = std::all_of(c.trace->requests.begin(), c.trace->requests.end(),
                                             [](const Request& r) { return r.key == 0; });
            if (one_key && !Registry::instance().find(lane.algorithm)->releases) {
                Params one = c.params;
                one.lanes = {lane};
                CHECK(fleet->modes.front().worst.burst ==
                      simulate_reference(c.trace, one)->runs.front().worst_burst);
            }
        }
    }
}

TEST_CASE("fleet: with one server every mode decides as simulate()") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 60; ++n) {
        Case c = random_case(seed0 + n);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), sync every "
                     << c.settings.sync_every);
        c.settings.servers = 1;
        // A racy store races a lone server against its own charges in flight: only at latency
        // 0 does it see them all.
        c.settings.store_latency = 0;
        for (const Lane& lane : c.lanes) {
            INFO("lane " << lane_label(lane));
            const auto ideal = single_limiter(c, lane);
            const auto fleet = simulate_fleet(c.trace, c.params, lane, c.settings);
            REQUIRE(fleet->modes.size() == 5);
            for (const FleetModeResult& mode : fleet->modes) {
                INFO("mode " << mode_name(mode.mode));
                CHECK(mode.accepted == ideal);
            }
        }
    }
}

TEST_CASE("fleet: library presets run central and key_routed exactly") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 20; ++n) {
        Case c = random_case(seed0 + n, true);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        c.settings.modes = {FleetMode::central, FleetMode::key_routed};
        for (const Lane& lane : c.lanes) {
            INFO("lane " << lane_label(lane));
            const auto fleet = simulate_fleet(c.trace, c.params, lane, c.settings);
            for (const FleetModeResult& mode : fleet->modes)
                CHECK(mode.accepted == fleet->ideal);
        }
    }
}

TEST_CASE("fleet: local_share with round robin is each server's own run with its share") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 60; ++n) {
        Case c = random_case(seed0 + n, n % 3 == 0);  // the presets every third trace
        const int servers = c.settings.servers;
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), N " << servers);
        c.settings.modes = {FleetMode::local_share};
        c.settings.balancer = Balancer::round_robin;
        for (const Lane& lane : c.lanes) {
            INFO("lane " << lane_label(lane));
            const auto fleet = simulate_fleet(c.trace, c.params, lane, c.settings);
            const Params shared = local_share_params(c.params, lane, servers);
            std::vector<std::uint8_t> expected(c.trace->requests.size());
            for (int s = 0; s < servers; ++s) {
                Trace own;
                own.keys = c.trace->keys;
                std::vector<std::size_t> where;
                for (std::size_t i = static_cast<std::size_t>(s); i < c.trace->requests.size();
                     i += static_cast<std::size_t>(servers)) {
                    own.requests.push_back(c.trace->requests[i]);
                    where.push_back(i);
                }
                const auto run = simulate(std::make_shared<const Trace>(std::move(own)), shared);
                for (std::size_t j = 0; j < where.size(); ++j)
                    expected[where[j]] = run->runs.front().accepted(j) ? 1 : 0;
            }
            CHECK(fleet->modes.front().accepted == expected);
        }
    }
}

// The bound periodic_sync keeps, for an exact count (sliding_log). Take a key's window of W
// ticks ending at e, and p the last sync point at or before e. A server's view always holds
// every charge it accepted itself, so each server alone accepts at most L in any W ticks: the
// fleet at most N x L. And if any server accepts in [p, e], what the fleet accepted in the
// window before p was in its view, so at most L: the window holds at most L plus what arrived
// in [p, e], a span shorter than both S and W. So the worst burst is at most
// min(N x L, L + the most cost of the key that arrives in any min(S, W) ticks).
TEST_CASE("fleet: periodic_sync overshoots no more than its bound") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 200; ++n) {
        Case c = random_case(seed0 + n);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED), N " << c.settings.servers
                     << ", sync every " << c.settings.sync_every);
        c.settings.modes = {FleetMode::periodic_sync};
        const Lane lane{"sliding_log", {}, {}, false};
        const auto fleet = simulate_fleet(c.trace, c.params, lane, c.settings);
        const Trace& trace = *c.trace;
        for (const KeyBurst& key : fleet->modes.front().keys) {
            const Limits& limits = c.params.for_key(trace.key_name(key.key));
            const Tick span = std::min(c.settings.sync_every, limits.window);
            std::int64_t arriving = 0;  // the most cost of the key in any `span` ticks
            for (std::size_t i = 0; i < trace.requests.size(); ++i) {
                std::int64_t inside = 0;
                for (std::size_t j = i; j < trace.requests.size() &&
                                        trace.requests[j].tick < trace.requests[i].tick + span;
                     ++j)
                    inside += trace.requests[j].key == key.key ? trace.requests[j].cost : 0;
                arriving = std::max(arriving, inside);
            }
            INFO("key " << key.key << ": burst " << key.burst.cost << ", L " << limits.limit
                        << ", arriving " << arriving);
            CHECK(key.burst.cost <= c.settings.servers * limits.limit);
            CHECK(key.burst.cost <= limits.limit + arriving);
        }
    }
}

TEST_CASE("fleet: a seeded run is reproducible, and the seed is what routes") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 20; ++n) {
        Case c = random_case(seed0 + n);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        c.settings.balancer = Balancer::random;
        c.settings.servers = 7;
        c.settings.scale = {{20, 3}, {40, 9}};
        c.settings.outage = Outage{10, 30, OutagePolicy::fallback_local};
        const Lane& lane = c.lanes.front();
        const auto first = simulate_fleet(c.trace, c.params, lane, c.settings);
        const auto again = simulate_fleet(c.trace, c.params, lane, c.settings);
        REQUIRE(first->modes.size() == again->modes.size());
        for (std::size_t m = 0; m < first->modes.size(); ++m)
            CHECK(first->modes[m] == again->modes[m]);
        for (std::size_t i = 0; i < c.trace->requests.size(); ++i) {
            const int size = c.trace->requests[i].tick >= 40   ? 9
                             : c.trace->requests[i].tick >= 20 ? 3
                                                               : 7;
            CHECK(mode_of(*first, FleetMode::central).servers[i] < size);
        }
    }
}
