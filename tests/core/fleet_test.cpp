// The fleet's modes on small traces worked out by hand (core/src/fleet*.cpp).
#include "ratelab/fleet.h"
#include "catch.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::limits;
using ratelab::test::ticks;

namespace {

const Lane kFixedWindow{"fixed_window", {}, {}, false};

std::string pattern(const FleetModeResult& mode) {
    std::string text;
    for (const std::uint8_t a : mode.accepted)
        text += a != 0 ? 'A' : 'R';
    return text;
}

FleetSettings fleet(int servers, std::vector<FleetMode> modes) {
    FleetSettings settings;
    settings.servers = servers;
    settings.modes = std::move(modes);
    return settings;
}

std::shared_ptr<const Trace> at_tick(Tick tick, int count) {
    TraceBuilder builder;
    for (int i = 0; i < count; ++i)
        builder.add(tick);
    return std::make_shared<const Trace>(std::move(builder).take());
}

}  // namespace

TEST_CASE("fleet: local shares round down, so L = 10 on 3 servers allows 9") {
    const auto result = simulate_fleet(at_tick(0, 30), limits(10, 100), kFixedWindow,
                                       fleet(3, {FleetMode::local_share, FleetMode::central}));
    const FleetModeResult& local = result->modes[0];
    CHECK(local.totals.accepted == 9);
    CHECK(local.extra_rejected == 1);
    CHECK(local.load.size() == 3);
    for (const ServerLoad& load : local.load) {
        CHECK(load.requests == 10);
        CHECK(load.accepted == 3);
    }
    CHECK(result->modes[1].totals.accepted == 10);
    CHECK(result->modes[1].worst.overshoot() == Rational(1));
}

TEST_CASE("fleet: local shares divide sizes and rates and multiply intervals") {
    const Params shared =
        local_share_params(limits(10, 20), Lane{"gcra", {{"burst", Rational(7)}}, {}, false}, 3);
    CHECK(shared.base.limit == 3);
    const auto& gcra = shared.base.overrides.at("gcra");
    CHECK(std::get<Rational>(gcra.at("burst")) == Rational(2));
    CHECK(std::get<Rational>(gcra.at("emission_interval")) == Rational(6));  // W/L = 2, x 3
    const Params bucket =
        local_share_params(limits(10, 20), Lane{"token_bucket", {}, {}, false}, 4);
    CHECK(std::get<Rational>(bucket.base.overrides.at("token_bucket").at("refill_rate")) ==
          Rational(1, 8));
    CHECK(std::get<Rational>(bucket.base.overrides.at("token_bucket").at("capacity")) ==
          Rational(2));
    // A share never falls below one.
    CHECK(local_share_params(limits(2, 20), kFixedWindow, 5).base.limit == 1);
}

TEST_CASE("fleet: a racy store lets through what is still in flight") {
    // L = 2; the charge of a request lands 2 ticks after it: the request at 1 does not see the
    // one at 0, the one at 2 sees one charge, the one at 3 sees two.
    FleetSettings settings = fleet(2, {FleetMode::central_racy, FleetMode::central});
    settings.store_latency = 2;
    const auto result = simulate_fleet(ticks({0, 1, 2, 3}), limits(2, 100), kFixedWindow, settings);
    CHECK(pattern(result->modes[0]) == "AAAR");
    CHECK(pattern(result->modes[1]) == "AARR");
    CHECK(result->modes[0].extra_accepted == 1);
    CHECK(result->modes[0].worst.burst.cost == 3);
    CHECK(result->modes[0].worst.overshoot() == Rational(3, 2));
    CHECK(result->modes[0].store_wait == 2);
    CHECK(result->modes[0].store_round_trips == 4);
    CHECK(explain_fleet(*result, 0, 2) ==
          "server 0 reads the store, 1 charge(s) still in flight: window [0, 100): used 1 + "
          "cost 1 = 2 <= 2");
    // Everything in flight at once: two servers both read an empty store.
    settings.store_latency = 10;
    CHECK(pattern(simulate_fleet(ticks({0, 1, 2, 3}), limits(2, 100), kFixedWindow, settings)
                      ->modes[0]) == "AAAA");
}

TEST_CASE("fleet: periodic sync counts locally until the next sync point") {
    // L = 4 per 100 ticks, 2 servers by round robin, sync every 10: before the first sync each
    // server sees only itself and accepts 4; from tick 10 on the store holds 8.
    FleetSettings settings = fleet(2, {FleetMode::periodic_sync});
    settings.sync_every = 10;
    const auto result = simulate_fleet(ticks({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                                       limits(4, 100), kFixedWindow, settings);
    CHECK(pattern(result->modes[0]) == "AAAAAAAARRRR");
    CHECK(result->modes[0].extra_accepted == 4);
    CHECK(result->modes[0].worst.overshoot() == Rational(2));
    CHECK(result->modes[0].store_round_trips == 0);
    CHECK(explain_fleet(*result, 0, 7) ==
          "server 1, before the first sync, plus 3 accepted here since: window [0, 100): used 3 "
          "+ cost 1 = 4 <= 4");
    CHECK(explain_fleet(*result, 0, 10) ==
          "server 0, store as of the sync at 10, plus 0 accepted here since: window [0, 100): "
          "used 8 + cost 1 = 9 > 4");
}

TEST_CASE("fleet: an outage fails open, closed or to the local shares") {
    auto run = [](OutagePolicy policy) {
        FleetSettings settings = fleet(2, {FleetMode::central});
        settings.outage = Outage{2, 6, policy};
        return simulate_fleet(ticks({0, 1, 2, 3, 4, 5, 6, 7}), limits(4, 100), kFixedWindow,
                              settings);
    };
    // What passes while the store is down never reaches it: after the outage, 2 of 4 are used.
    CHECK(pattern(run(OutagePolicy::fail_open)->modes[0]) == "AAAAAAAA");
    CHECK(pattern(run(OutagePolicy::fail_closed)->modes[0]) == "AARRRRAA");
    // Each server's share is 2 of 4, from fresh: ticks 2 and 4 go to server 0, 3 and 5 to 1.
    const auto fallback = run(OutagePolicy::fallback_local);
    CHECK(pattern(fallback->modes[0]) == "AAAAAAAA");
    CHECK(fallback->modes[0].during_outage == 4);
    CHECK(fallback->modes[0].store_round_trips == 4);
    CHECK(explain_fleet(*fallback, 0, 4) ==
          "the store is down [2, 6): server 0 falls back to its local share: window [0, 100): "
          "used 1 + cost 1 = 2 <= 2");
}

TEST_CASE("fleet: round robin goes on over the new servers after a scale event") {
    FleetSettings settings = fleet(2, {FleetMode::central});
    settings.scale = {{3, 4}};
    const auto result =
        simulate_fleet(ticks({0, 1, 2, 3, 4, 5, 6}), limits(10, 10), kFixedWindow, settings);
    CHECK(result->modes[0].servers == std::vector<std::uint16_t>{0, 1, 0, 1, 2, 3, 0});
    CHECK(result->modes[0].load.size() == 4);
}

TEST_CASE("fleet: key routing is exact per key, and moved keys start fresh") {
    TraceBuilder again;
    for (Tick t = 0; t < 4; ++t) {
        for (int k = 0; k < 40; ++k)
            again.add(t * 10, 1, "user" + std::to_string(k));
    }
    const auto trace = std::make_shared<const Trace>(std::move(again).take());
    FleetSettings settings = fleet(3, {FleetMode::key_routed});
    settings.scale = {{20, 4}};
    // L = 2 per 100 ticks: each key passes at 0 and 10 and is rejected at 20 and 30, unless it
    // moved to the new server at 20, where it starts over.
    const auto result = simulate_fleet(trace, limits(2, 100), kFixedWindow, settings);
    const FleetModeResult& routed = result->modes[0];
    const HashRing three(3);
    const HashRing four(4);
    int moved = 0;
    for (int k = 0; k < 40; ++k) {
        const std::string key = "user" + std::to_string(k);
        const bool moves = three.server_of(key) != four.server_of(key);
        INFO(key);
        if (moves) {
            ++moved;
            CHECK(four.server_of(key) == 3);  // only to the new server
        }
        CHECK(routed.is_accepted(static_cast<std::size_t>(k)));
        CHECK(routed.is_accepted(static_cast<std::size_t>(40 + k)));
        CHECK(routed.is_accepted(static_cast<std::size_t>(80 + k)) == moves);
        CHECK(routed.is_accepted(static_cast<std::size_t>(120 + k)) == moves);
    }
    CHECK(moved > 0);
    CHECK(routed.extra_accepted == 2 * moved);
}

TEST_CASE("fleet: growing the ring moves about 1/N of the keys, all to the new servers") {
    for (const auto& [from, to] : std::vector<std::pair<int, int>>{{4, 5}, {10, 11}, {19, 20}}) {
        const HashRing before(from);
        const HashRing after(to);
        int moved = 0;
        const int keys = 20000;
        for (int k = 0; k < keys; ++k) {
            const std::string key = "key-" + std::to_string(k);
            if (before.server_of(key) != after.server_of(key)) {
                ++moved;
                CHECK(after.server_of(key) >= from);
            }
        }
        INFO(from << " -> " << to << ": " << moved << " of " << keys << " moved");
        const double share = static_cast<double>(moved) / keys;
        const double ideal = static_cast<double>(to - from) / to;
        CHECK(share > ideal * 0.5);
        CHECK(share < ideal * 1.6);
    }
}

TEST_CASE("fleet: settings out of bounds are refused with the setting named") {
    FleetSettings settings;
    settings.servers = 0;
    settings.sync_every = 0;
    settings.outage = Outage{5, 5, OutagePolicy::fail_open};
    settings.scale = {{10, 2}, {10, 1001}};
    settings.modes = {FleetMode::central, FleetMode::central};
    const auto problems = validate(settings);
    REQUIRE(problems.size() == 6);
    CHECK(problems[0] == "servers must be between 1 and 1000, not 0");
    CHECK(problems[1] == "sync_every must be between 1 and 1000000000000 ticks");
    CHECK(problems[2] == "the outage A:B must have 0 <= A < B, not 5:5");
    CHECK(problems[3] == "scale event 2: servers must be between 1 and 1000, not 1001");
    CHECK(problems[4] == "scale event 2: ticks must be >= 0 and increasing");
    CHECK(problems[5] == "mode central is given twice");
    CHECK_THROWS_AS(simulate_fleet(ticks({0}), limits(4, 10), kFixedWindow, settings),
                    SimulationError);
}

TEST_CASE("fleet: presets cannot merge charges, and say so") {
    const Lane preset{Registry::instance().presets().front()->id, {}, {}, false};
    CHECK_THROWS_WITH(
        simulate_fleet(ticks({0}), limits(4, 10), preset, fleet(2, {FleetMode::periodic_sync})),
        "periodic_sync merges charges decided elsewhere, which " + preset.algorithm + " cannot");
    Params counting = limits(4, 10);
    counting.rejections_count = true;
    CHECK_THROWS_WITH(
        simulate_fleet(ticks({0}), counting, kFixedWindow, fleet(2, {FleetMode::central_racy})),
        "central_racy merges accepted charges only: it runs without rejections_count");
}

TEST_CASE("fleet: with lost updates the last write wins, and the store forgets the others") {
    // L = 3 per fixed window of 100, the store 10 ticks away. Five requests at 0 to 4 all read
    // an empty store and pass, in both variants. Merged, their five charges land by 14 and the
    // requests at 20 and 40 are refused. Lost, each write replaces the one before: the store
    // holds 1 by 14, so the request at 20 passes (its write makes 2, landing at 30) and so does
    // the one at 40 (3); the one at 60 finds 3 and is refused.
    FleetSettings settings = fleet(1, {FleetMode::central_racy});
    settings.store_latency = 10;
    const auto trace = ticks({0, 1, 2, 3, 4, 20, 40, 60});
    const auto merged = simulate_fleet(trace, limits(3, 100), kFixedWindow, settings);
    CHECK(pattern(merged->modes[0]) == "AAAAARRR");
    settings.lost_updates = true;
    const auto lost = simulate_fleet(trace, limits(3, 100), kFixedWindow, settings);
    CHECK(pattern(lost->modes[0]) == "AAAAAAAR");
    CHECK(lost->modes[0].extra_accepted == 4);
    CHECK(explain_fleet(*lost, 0, 6).find("the last to land wins") != std::string::npos);
    // With no latency every write lands before the next read: exactly one limiter.
    settings.store_latency = 0;
    settings.servers = 3;
    const auto at_once = simulate_fleet(trace, limits(3, 100), kFixedWindow, settings);
    CHECK(at_once->modes[0].accepted == at_once->ideal);
}
