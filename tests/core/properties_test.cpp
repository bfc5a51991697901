// Property tests on seeded random traces. A failure prints the seed that reproduces it; set
// RATELAB_PROPERTY_SEED to replay one.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>

#include "catch.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;
using namespace ratelab::test;

namespace {

struct Scenario {
    std::uint64_t seed;
    std::shared_ptr<const Trace> trace;
    Params params;
};

/// A random single-key (or, with `keys` > 1, multi-key) trace with bursts, gaps and mixed costs.
Scenario random_scenario(std::uint64_t seed, int keys = 1) {
    std::mt19937_64 rng(seed);
    auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    const std::int64_t limits_choice[] = {1, 2, 3, 4, 5, 7, 10};
    const Tick windows_choice[] = {1, 2, 3, 5, 10, 13, 60};
    Scenario s{seed, nullptr, Params{}};
    s.params.base.limit = limits_choice[pick(0, 6)];
    s.params.base.window = windows_choice[pick(0, 6)];
    const int cost_mix = static_cast<int>(pick(0, 2));  // all 1; 1..3; occasionally above L
    TraceBuilder builder;
    Tick tick = pick(0, 5);
    const auto count = pick(1, 120);
    for (std::int64_t i = 0; i < count; ++i) {
        const auto gap_kind = pick(0, 9);
        tick += gap_kind < 4   ? 0
                : gap_kind < 8 ? pick(1, 3)
                               : pick(4, 4 + 3 * s.params.base.window);
        std::int64_t cost = 1;
        if (cost_mix == 1)
            cost = pick(1, 3);
        if (cost_mix == 2)
            cost = pick(1, 10) == 1 ? s.params.base.limit + 1 : pick(1, 2);
        builder.add(tick, static_cast<std::uint32_t>(cost),
                    keys > 1 ? std::to_string(pick(1, keys)) : "");
    }
    s.trace = std::make_shared<const Trace>(std::move(builder).take());
    return s;
}

/// Accepted cost arriving in the half-open span [start, start + W).
std::int64_t accepted_in_span(const Trace& trace, const AlgorithmRun& run, Tick start,
                              Tick window) {
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& r = trace.requests[i];
        if (run.accepted(i) && r.tick >= start && r.tick < start + window)
            sum += r.cost;
    }
    return sum;
}

/// Largest accepted cost over any half-open span [s, s + W), by brute force over arrivals.
std::int64_t brute_force_arrival_burst(const Trace& trace, const AlgorithmRun& run, Tick window) {
    std::int64_t best = 0;
    for (const Request& start : trace.requests)
        best = std::max(best, accepted_in_span(trace, run, start.tick, window));
    return best;
}

/// The start time of every unit the leaky bucket lets through.
std::vector<Rational> leaky_units(const Trace& trace, const AlgorithmRun& run,
                                  const Params& params) {
    std::vector<Rational> units;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (!run.accepted(i))
            continue;
        const Limits& limits = params.for_key(trace.key_name(trace.requests[i].key));
        const Rational step(limits.window, limits.limit);
        const Rational release = *run.decision(trace, i).release;
        for (std::uint32_t u = 0; u < trace.requests[i].cost; ++u) {
            units.push_back(release - step * Rational(static_cast<std::int64_t>(u)));
        }
    }
    std::sort(units.begin(), units.end());
    return units;
}

std::int64_t brute_force_unit_burst(const std::vector<Rational>& units, Tick window) {
    std::int64_t best = 0;
    for (const Rational& start : units) {
        const auto n = std::count_if(units.begin(), units.end(), [&](const Rational& u) {
            return u >= start && u < start + Rational(window);
        });
        best = std::max<std::int64_t>(best, n);
    }
    return best;
}

const std::vector<std::string> kAll = {"fixed_window", "sliding_log",  "sliding_counter",
                                       "token_bucket", "leaky_bucket", "gcra"};

}  // namespace

TEST_CASE("properties: worst bursts stay within each algorithm's contract") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 1500; ++n) {
        const Scenario s = random_scenario(seed0 + n);
        INFO("seed " << s.seed << " (RATELAB_PROPERTY_SEED=" << s.seed
                     << "), L = " << s.params.base.limit << ", W = " << s.params.base.window);
        const auto result = simulate(s.trace, s.params);
        const Trace& trace = *s.trace;
        const std::int64_t L = s.params.base.limit;
        const Tick W = s.params.base.window;
        for (const char* id :
             {"fixed_window", "sliding_log", "sliding_counter", "token_bucket", "gcra"}) {
            INFO(id);
            const AlgorithmRun& run = *result->find(id);
            CHECK(run.worst_burst.cost == brute_force_arrival_burst(trace, run, W));
            // The span it names holds that much.
            REQUIRE(run.worst_burst.start.is_integer());
            CHECK(accepted_in_span(trace, run, run.worst_burst.start.num(), W) ==
                  run.worst_burst.cost);
        }
        CHECK(result->find("sliding_log")->worst_burst.cost <= L);
        CHECK(result->find("fixed_window")->worst_burst.cost <= 2 * L);
        CHECK(result->find("sliding_counter")->worst_burst.cost <= 2 * L);
        // A full bucket plus what refills during the other W - 1 ticks.
        CHECK(Rational(result->find("token_bucket")->worst_burst.cost) <=
              Rational(L) + Rational(L, W) * Rational(W - 1));

        std::map<std::int64_t, std::int64_t>
            per_window;  // fixed window: at most L per aligned window
        const AlgorithmRun& fixed = *result->find("fixed_window");
        for (std::size_t i = 0; i < trace.requests.size(); ++i) {
            if (fixed.accepted(i))
                per_window[trace.requests[i].tick / W] += trace.requests[i].cost;
        }
        for (const auto& [window, cost] : per_window)
            CHECK(cost <= L);

        const AlgorithmRun& leaky = *result->find("leaky_bucket");
        const std::vector<Rational> units = leaky_units(trace, leaky, s.params);
        CHECK(leaky.worst_burst.cost == brute_force_unit_burst(units, W));
        CHECK(leaky.worst_burst.cost <= L);
        for (std::size_t i = 0; i < trace.requests.size(); ++i) {
            if (leaky.accepted(i))
                CHECK(*leaky.decision(trace, i).delay <= Rational(W));  // Q * D = L * W/L
        }
    }
}

TEST_CASE("properties: a worst burst across two run stretches counts whole") {
    // The run loop hands the burst tracker a stretch's accepted arrivals at a time, 4,096
    // requests a stretch. Here the densest W ticks straddle request 4,096, and nothing else
    // comes close: 150 requests one tick apart around it, every other one 10 ticks apart, and
    // limits that accept everything. The worst burst is the 100 requests of one W = 100 span.
    TraceBuilder builder;
    Tick tick = 0;
    for (std::size_t i = 0; i < 12'000; ++i) {
        tick += i >= 4'096 - 75 && i < 4'096 + 75 ? 1 : 10;
        builder.add(tick);
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    Params params;
    params.base.limit = 1'000;
    params.base.window = 100;
    const auto result = simulate(trace, params);
    for (const char* id :
         {"fixed_window", "sliding_log", "sliding_counter", "token_bucket", "gcra"}) {
        INFO(id);
        const AlgorithmRun& run = *result->find(id);
        REQUIRE(run.totals.rejected == 0);
        CHECK(run.worst_burst.cost == 100);
        CHECK(accepted_in_span(*trace, run, run.worst_burst.start.num(), params.base.window) ==
              100);
    }
}

TEST_CASE("properties: GCRA decides exactly as the token bucket") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 1500; ++n) {
        const Scenario s = random_scenario(seed0 + n, n % 3 == 0 ? 3 : 1);
        INFO("seed " << s.seed << " (RATELAB_PROPERTY_SEED=" << s.seed << ")");
        const auto result = simulate(s.trace, s.params, {"token_bucket", "gcra"});
        const AlgorithmRun& bucket = result->runs[0];
        const AlgorithmRun& gcra = result->runs[1];
        CHECK(bucket.decisions == gcra.decisions);  // the same retry-after too
    }
}

TEST_CASE("properties: retry-after is tight and a rejection changes no state") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 400; ++n) {
        const Scenario s = random_scenario(seed0 + n, n % 4 == 0 ? 2 : 1);
        INFO("seed " << s.seed << " (RATELAB_PROPERTY_SEED=" << s.seed << ")");
        const auto result = simulate(s.trace, s.params);
        const Trace& trace = *s.trace;
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            const AlgorithmRun& run = result->runs[lane];
            INFO(run.id);
            int checked = 0;
            for (std::size_t i = 0; i < trace.requests.size() && checked < 3; ++i) {
                if (run.outcome(i) != AlgorithmRun::kRejected)
                    continue;
                ++checked;
                const Explanation why = explain(*result, lane, i);
                CHECK(why.state_before == why.state_after);
                CHECK_FALSE(why.decision.accepted);
                // Replay everything before i, then the same request again at t + ceil(retry) and
                // one tick earlier.
                const Request r = trace.requests[i];
                const Tick wait = run.decision(trace, i).retry_after->ceil();
                REQUIRE(wait >= 1);
                for (const Tick delta : {wait, wait - 1}) {
                    Trace retry = trace;
                    retry.requests.resize(i);
                    retry.requests.push_back(Request{r.tick + delta, r.cost, r.key});
                    const auto replay = simulate(std::make_shared<const Trace>(std::move(retry)),
                                                 s.params, {run.id});
                    INFO("request " << i << " at tick " << r.tick << ", retried after " << delta);
                    CHECK(replay->runs[0].accepted(i) == (delta == wait));
                }
            }
        }
    }
}

TEST_CASE("properties: the leaky bucket's bursts are exact with several keys") {
    const std::uint64_t seed0 = base_seed();
    for (std::uint64_t n = 0; n < 500; ++n) {
        Scenario s = random_scenario(seed0 + n, 3);
        if (n % 2 == 1) {
            // Key "2" in a tier of its own: its units are timed in other fractions of a tick
            // than the other keys', and the tracker compares times across scales.
            Limits tier = s.params.base;
            tier.limit += 1 + static_cast<std::int64_t>(n % 3);
            s.params.keys["2"] = tier;
        }
        INFO("seed " << s.seed << " (RATELAB_PROPERTY_SEED=" << s.seed
                     << "), key 2 with its own L: " << (n % 2 == 1));
        const auto result = simulate(s.trace, s.params, {"leaky_bucket", "sliding_log"});
        const AlgorithmRun& leaky = result->runs[0];
        CHECK(leaky.worst_burst.cost ==
              brute_force_unit_burst(leaky_units(*s.trace, leaky, s.params), s.params.base.window));
        CHECK(result->runs[1].worst_burst.cost ==
              brute_force_arrival_burst(*s.trace, result->runs[1], s.params.base.window));
    }
}

/// Largest accepted cost inside any half-open span [s, s + W): a sweep over the accepted
/// arrivals, which come in tick order, for traces too long to check span by span.
std::int64_t swept_arrival_burst(const Trace& trace, const AlgorithmRun& run, Tick window) {
    std::vector<const Request*> accepted;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (run.accepted(i))
            accepted.push_back(&trace.requests[i]);
    }
    std::int64_t best = 0;
    std::int64_t inside = 0;
    std::size_t first = 0;
    for (const Request* r : accepted) {  // spans that end just after r, holding all of r's tick
        inside += r->cost;
        while (r->tick - accepted[first]->tick >= window)
            inside -= accepted[first++]->cost;
        best = std::max(best, inside);
    }
    return best;
}

/// The same over the leaky bucket's units, sorted by time.
std::int64_t swept_unit_burst(const std::vector<Rational>& units, Tick window) {
    std::int64_t best = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < units.size(); ++i) {
        while (units[i] - units[first] >= Rational(window))
            ++first;
        best = std::max(best, static_cast<std::int64_t>(i - first + 1));
    }
    return best;
}

TEST_CASE("properties: with thousands of keys each key is decided as if it were alone") {
    // More keys than the run loop keeps in cache (it then fetches states ahead, and large state
    // arrays get huge pages), popularity skewed so that a few keys' logs and queues grow long
    // while most keys see a request or two; one key has limits of its own.
    const std::uint64_t seed = base_seed();
    INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
    std::mt19937_64 rng(seed);
    constexpr int kKeys = 6000;
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 40'000; ++i) {
        tick += static_cast<Tick>(rng() % 3 == 0);
        // Key k drawn with weight about 1/k.
        const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        const auto k = std::min(kKeys, static_cast<int>(std::exp(u * std::log(kKeys + 1.0))));
        builder.add(tick, static_cast<std::uint32_t>(1 + rng() % 3), "k" + std::to_string(k));
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    REQUIRE(trace->keys.size() > 4097);
    Params params = limits(6, 20);
    params.keys["k2"] = Limits{};
    params.keys["k2"].limit = 9;
    params.keys["k2"].window = 20;
    const auto result = simulate(trace, params);

    // The hottest keys and a spread of the rest, each run on its own requests only.
    std::vector<KeyId> sample = {1, 2, 3, 4, 5, 8, 13};
    for (int i = 0; i < 40; ++i)
        sample.push_back(static_cast<KeyId>(1 + rng() % (trace->keys.size() - 1)));
    for (const KeyId key : sample) {
        const std::string& name = trace->key_name(key);
        TraceBuilder alone;
        std::vector<std::size_t> positions;
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            const Request& r = trace->requests[i];
            if (r.key == key) {
                alone.add(r.tick, r.cost);
                positions.push_back(i);
            }
        }
        const auto solo_trace = std::make_shared<const Trace>(std::move(alone).take());
        Params solo_params;
        solo_params.base = params.for_key(name);
        const auto solo = simulate(solo_trace, solo_params);
        for (std::size_t a = 0; a < result->runs.size(); ++a) {
            const AlgorithmRun& run = result->runs[a];
            INFO(run.id << ", key " << name << " (" << positions.size() << " requests)");
            for (std::size_t j = 0; j < positions.size(); ++j) {
                if (!(run.decision(*trace, positions[j]) ==
                      solo->runs[a].decision(*solo_trace, j))) {
                    FAIL("decision differs at request " << positions[j] << ", the key's " << j + 1
                                                        << "th");
                }
            }
        }
    }
    for (const AlgorithmRun& run : result->runs) {
        INFO(run.id);
        CHECK(run.worst_burst.cost == (run.releases
                                           ? swept_unit_burst(leaky_units(*trace, run, params), 20)
                                           : swept_arrival_burst(*trace, run, 20)));
    }
}

TEST_CASE("properties: the same input gives the same output") {
    const Scenario s = random_scenario(base_seed(), 2);
    INFO("seed " << s.seed);
    const auto first = simulate(s.trace, s.params);
    const auto second = simulate(s.trace, s.params);
    for (std::size_t a = 0; a < first->runs.size(); ++a) {
        CHECK(first->runs[a].decisions == second->runs[a].decisions);
        CHECK(first->runs[a].totals == second->runs[a].totals);
        CHECK(first->runs[a].worst_burst == second->runs[a].worst_burst);
    }
}

TEST_CASE("properties: running the algorithms on several threads changes nothing") {
    std::mt19937_64 rng(base_seed());
    TraceBuilder builder;
    Tick tick = 0;
    for (int i = 0; i < 60'000; ++i) {  // large enough to be split across threads
        tick += static_cast<Tick>(rng() % 3);
        builder.add(tick, static_cast<std::uint32_t>(1 + rng() % 3), (rng() % 4 == 0) ? "b" : "a");
    }
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    RunOptions one;
    one.threads = 1;
    RunOptions many;
    many.threads = 4;
    const auto serial = simulate(trace, limits(7, 30), {}, one);
    const auto parallel = simulate(trace, limits(7, 30), {}, many);
    REQUIRE(serial->runs.size() == parallel->runs.size());
    for (std::size_t a = 0; a < serial->runs.size(); ++a) {
        INFO(serial->runs[a].id);
        CHECK(serial->runs[a].id == parallel->runs[a].id);
        CHECK(serial->runs[a].decisions == parallel->runs[a].decisions);
        CHECK(serial->runs[a].worst_burst == parallel->runs[a].worst_burst);
    }
}
