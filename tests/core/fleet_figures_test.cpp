// What the Fleet view draws besides the decisions (core/src/fleet_figures.cpp), by hand.
#include <algorithm>

#include "catch.h"
#include "ratelab/fleet.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::limits;

namespace {

const Lane kFixedWindow{"fixed_window", {}, {}, false};

std::shared_ptr<const Trace> trace_at(const std::vector<Tick>& ticks) {
    TraceBuilder builder;
    for (const Tick tick : ticks)
        builder.add(tick);
    return std::make_shared<const Trace>(std::move(builder).take());
}

}  // namespace

TEST_CASE("fleet figures: the size follows the scale events from their tick on") {
    FleetSettings settings;
    settings.servers = 4;
    settings.scale = {{10, 8}, {20, 2}};
    CHECK(fleet_size_at(settings, 0) == 4);
    CHECK(fleet_size_at(settings, 9) == 4);
    CHECK(fleet_size_at(settings, 10) == 8);
    CHECK(fleet_size_at(settings, 19) == 8);
    CHECK(fleet_size_at(settings, 25) == 2);
}

TEST_CASE("fleet figures: sync points are the multiples of S, never tick 0") {
    FleetSettings settings;
    settings.sync_every = 5;
    CHECK(fleet_sync_points(settings, 0, 17) == std::vector<Tick>{5, 10, 15});
    CHECK(fleet_sync_points(settings, 6, 20) == std::vector<Tick>{10, 15, 20});
    CHECK(fleet_sync_points(settings, 11, 14).empty());
}

TEST_CASE("fleet figures: the heat strip counts each server's requests per span") {
    // Round robin on 2 servers: requests 0, 2, 4 to server 0, requests 1, 3 to server 1.
    FleetSettings settings;
    settings.servers = 2;
    settings.modes = {FleetMode::local_share};
    const auto result =
        simulate_fleet(trace_at({0, 1, 4, 5, 9}), limits(4, 10), kFixedWindow, settings);
    const FleetHeat heat = fleet_heat(*result, 0, 5, 9);
    REQUIRE(heat.servers == 2);
    REQUIRE(heat.buckets == 2);
    CHECK(heat.at(0, 0) == 2);  // ticks 0 and 4
    CHECK(heat.at(1, 0) == 1);  // tick 1
    CHECK(heat.at(0, 1) == 1);  // tick 9
    CHECK(heat.at(1, 1) == 1);  // tick 5
    CHECK(heat.peak == 2);
    CHECK_THROWS_AS(fleet_heat(*result, 1, 5, 9), std::out_of_range);
    // From tick 4 to 6 in spans of 2: [4, 6) holds ticks 4 and 5, [6, 8) nothing; tick 9 is
    // past the end and ticks 0 and 1 before the start.
    const FleetHeat part = fleet_heat(*result, 0, 2, 6, 4);
    REQUIRE(part.buckets == 2);
    CHECK(part.at(0, 0) == 1);  // tick 4
    CHECK(part.at(1, 0) == 1);  // tick 5
    CHECK(part.at(0, 1) == 0);
    CHECK(part.at(1, 1) == 0);
    CHECK(part.peak == 1);
}

TEST_CASE(
    "fleet figures: the window load counts what the whole fleet accepted in the last W ticks") {
    // L = 2 per fixed window of W = 10. Central accepts two of tick 0 and rejects the rest of
    // the first window; at 12 the requests of tick 0 have left (t - W, t] and a new window
    // accepts. The racy store, 5 ticks behind, lets all three of tick 0 through, and by tick 6
    // sees their three charges.
    FleetSettings settings;
    settings.servers = 2;
    settings.store_latency = 5;
    settings.modes = {FleetMode::central, FleetMode::central_racy};
    const auto result =
        simulate_fleet(trace_at({0, 0, 0, 6, 12}), limits(2, 10), kFixedWindow, settings);
    REQUIRE(result->modes[0].accepted == std::vector<std::uint8_t>{1, 1, 0, 0, 1});
    CHECK(fleet_window_load(*result, 0) == std::vector<std::int64_t>{2, 2, 2, 2, 1});
    REQUIRE(result->modes[1].accepted == std::vector<std::uint8_t>{1, 1, 1, 0, 1});
    CHECK(fleet_window_load(*result, 1) == std::vector<std::int64_t>{3, 3, 3, 3, 1});
}

TEST_CASE("fleet figures: periodic sync lets more through the less often it syncs") {
    // L = 4 per fixed window of 100, 2 servers by round robin, one request on each tick 0 to 11.
    // Syncing every tick, each server sees all but the other's latest: 4 pass, as one limiter.
    // Syncing every 20, no sync comes before tick 12: each server passes 4 of its own, 8 in all.
    std::vector<Tick> ticks;
    for (Tick t = 0; t < 12; ++t)
        ticks.push_back(t);
    FleetSettings settings;
    settings.servers = 2;
    const std::vector<SyncOvershoot> points =
        periodic_sync_overshoots(trace_at(ticks), limits(4, 100), kFixedWindow, settings, {1, 20});
    REQUIRE(points.size() == 2);
    CHECK(points[0] == SyncOvershoot{1, Rational(1), 4});
    CHECK(points[1] == SyncOvershoot{20, Rational(2), 8});
}

TEST_CASE("fleet figures: on one server periodic sync is central for every interval") {
    std::vector<Tick> ticks;
    for (Tick t = 0; t < 60; ++t)
        ticks.push_back((t * 7) % 23 + t / 3);
    std::sort(ticks.begin(), ticks.end());
    const auto trace = trace_at(ticks);
    FleetSettings one;
    one.modes = {FleetMode::central};
    const auto central = simulate_fleet(trace, limits(3, 10), kFixedWindow, one);
    for (const SyncOvershoot& point :
         periodic_sync_overshoots(trace, limits(3, 10), kFixedWindow, one, {1, 2, 5, 9, 30})) {
        INFO("sync every " << point.sync_every);
        CHECK(point.accepted == central->modes[0].totals.accepted);
        CHECK(point.overshoot == central->modes[0].worst.overshoot());
    }
}

TEST_CASE("fleet: a run told to stop throws SimulationCancelled, one left alone counts its work") {
    FleetSettings settings;
    settings.servers = 3;
    settings.sync_every = 4;
    std::vector<Tick> many;
    for (Tick t = 0; t < 20'000; ++t)
        many.push_back(t / 3);
    const auto trace = trace_at(many);
    RunControl stopped;
    stopped.stop = true;
    CHECK_THROWS_AS(simulate_fleet(trace, limits(4, 10), kFixedWindow, settings, &stopped),
                    SimulationCancelled);
    CHECK_THROWS_AS(
        periodic_sync_overshoots(trace, limits(4, 10), kFixedWindow, settings, {1, 8}, &stopped),
        SimulationCancelled);
    RunControl watching;
    const auto watched = simulate_fleet(trace, limits(4, 10), kFixedWindow, settings, &watching);
    const auto plain = simulate_fleet(trace, limits(4, 10), kFixedWindow, settings);
    CHECK(watched->modes == plain->modes);
    // The single limiter and every one of the five modes report their stretches.
    CHECK(watching.decided.load() >= 6 * (many.size() / 4096) * 4096);
}
