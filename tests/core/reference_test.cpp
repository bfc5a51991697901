// The fast engine against the reference engine (core/src/reference_engine.h), which specifies
// it: on seeded random traces and random lane parameters, every algorithm must give the same
// decisions, retry and release times, totals and worst bursts, simulate_prefix() the same as
// the reference over the prefix, and state_at() and explain() the same as the reference replays
// from the first request. A failure prints the seed; set RATELAB_PROPERTY_SEED to replay one.
#include <cstdlib>
#include <random>

#include "catch.h"
#include "ratelab/limiter.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;

namespace {

struct Case {
    std::shared_ptr<const Trace> trace;
    Params params;
};

/// A trace of bursts and gaps over up to three keys, of `min_requests` to `max_requests`, and
/// lanes: every algorithm and library preset with its defaults, and again with each declared
/// parameter drawn at random.
Case random_case(std::uint64_t seed, std::int64_t min_requests = 1,
                 std::int64_t max_requests = 250) {
    std::mt19937_64 rng(seed);
    auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    Case out;
    out.params.base.limit = pick(1, 8);
    out.params.base.window = std::vector<Tick>{1, 2, 3, 7, 10, 25}[pick(0, 5)];
    out.params.rejections_count = pick(0, 3) == 0;
    const int keys = static_cast<int>(pick(1, 3));
    if (keys > 1 && pick(0, 1) == 1) {
        Limits tier;
        tier.limit = pick(1, 8);
        tier.window = std::vector<Tick>{1, 4, 10, 30}[pick(0, 3)];
        out.params.keys["k1"] = tier;
    }
    TraceBuilder builder;
    Tick tick = pick(0, 5);
    const std::int64_t requests = pick(min_requests, max_requests);
    for (std::int64_t i = 0; i < requests; ++i) {
        tick += pick(0, 4) == 0 ? pick(0, 30) : pick(0, 1);
        const std::int64_t key = pick(0, keys - 1);
        const auto cost = static_cast<std::uint32_t>(pick(0, 9) == 0 ? pick(1, 12) : pick(1, 3));
        builder.add(tick, cost, key == 0 ? std::string() : "k" + std::to_string(key));
    }
    out.trace = std::make_shared<const Trace>(std::move(builder).take());
    // The library presets too: they run on the same engine, and so must agree with its
    // specification like every other algorithm.
    std::vector<const AlgorithmInfo*> algorithms = Registry::instance().all();
    for (const AlgorithmInfo* preset : Registry::instance().presets())
        algorithms.push_back(preset);
    for (const AlgorithmInfo* extra : Registry::instance().opt_in())
        algorithms.push_back(extra);
    set_tick_ms(out.params, std::vector<std::int64_t>{1, 10, 100, 1000}[pick(0, 3)]);
    for (const AlgorithmInfo* info : algorithms) {
        out.params.lanes.push_back(Lane{info->id, {}, {}, false});
        Lane drawn{info->id, {}, info->id + " drawn", false};
        for (const ParameterInfo& p : info->parameters) {
            switch (p.kind) {
                case ParamKind::whole: {
                    // From the parameter's least value up (an HTTP status starts at 400).
                    const std::int64_t lo = std::max<std::int64_t>(1, p.min.floor());
                    drawn.params[p.id] = Rational(std::min(pick(lo, lo + 11), p.max.floor()));
                    break;
                }
                case ParamKind::rational:
                    drawn.params[p.id] = Rational(pick(1, 30), pick(1, 6));
                    break;
                case ParamKind::flag:
                    drawn.params[p.id] = pick(0, 1) == 1;
                    break;
                case ParamKind::choice:
                    drawn.params[p.id] = p.choices[static_cast<std::size_t>(
                        pick(0, static_cast<std::int64_t>(p.choices.size()) - 1))];
                    break;
            }
        }
        out.params.lanes.push_back(std::move(drawn));
    }
    return out;
}

void require_same_runs(const SimulationResult& fast, const SimulationResult& reference) {
    REQUIRE(fast.runs.size() == reference.runs.size());
    for (std::size_t lane = 0; lane < fast.runs.size(); ++lane) {
        const AlgorithmRun& got = fast.runs[lane];
        const AlgorithmRun& want = reference.runs[lane];
        INFO("lane " << lane << ": " << got.label);
        CHECK(got.id == want.id);
        CHECK(got.decisions == want.decisions);
        CHECK(got.totals == want.totals);
        CHECK(got.worst_burst == want.worst_burst);
    }
}

}  // namespace

TEST_CASE("reference engine: the fast engine decides every lane as the specification does") {
    const std::uint64_t seed0 = base_seed();
    int checked = 0;
    for (std::uint64_t n = 0; n < 300; ++n) {
        const Case c = random_case(seed0 + n);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        if (!validate(c.params).empty())
            continue;  // a drawn value outside its rules
        const auto fast = simulate(c.trace, c.params);
        const auto reference = simulate_reference(c.trace, c.params);
        require_same_runs(*fast, *reference);
        // A prefix, resumed or not, is the reference run over that prefix.
        const std::size_t count = c.trace->requests.size() / 2;
        Trace head = *c.trace;
        head.requests.resize(count);
        const auto prefix = simulate_prefix(*fast, count);
        const auto head_reference =
            simulate_reference(std::make_shared<const Trace>(std::move(head)), c.params);
        for (std::size_t lane = 0; lane < prefix->runs.size(); ++lane) {
            INFO("prefix of " << count << ", lane " << lane);
            CHECK(prefix->runs[lane].totals == head_reference->runs[lane].totals);
            CHECK(prefix->runs[lane].worst_burst == head_reference->runs[lane].worst_burst);
        }
        ++checked;
    }
    // Most drawn parameter sets are valid; a change that refused them all would check nothing.
    CHECK(checked > 150);
}

namespace {

/// Request indexes worth asking about in a trace of `size`: both ends, each side of every
/// checkpoint the fast engine keeps (every 4,096 requests), and a few drawn at random.
std::vector<std::size_t> probe_indexes(std::size_t size, std::mt19937_64& rng) {
    std::vector<std::size_t> out = {0, size - 1};
    for (std::size_t checkpoint = 4096; checkpoint < size; checkpoint += 4096)
        out.insert(out.end(), {checkpoint - 1, checkpoint, checkpoint + 1});
    for (int n = 0; n < 8; ++n)
        out.push_back(std::uniform_int_distribution<std::size_t>(0, size - 1)(rng));
    std::erase_if(out, [size](std::size_t i) { return i >= size; });
    return out;
}

/// Every lane's state at the ticks around `probes`, for every key, and its explanation of each
/// probe, as the reference engine replays them from the first request.
void require_same_answers(const SimulationResult& result, const std::vector<std::size_t>& probes) {
    const Trace& trace = *result.trace;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        INFO("lane " << lane << ": " << result.runs[lane].label);
        for (const std::size_t index : probes) {
            INFO("request " << index);
            CHECK(explain(result, lane, index) == reference_explain(result, lane, index));
            const Tick tick = trace.requests[index].tick;
            for (const Tick at : {tick - 1, tick, tick + 1}) {
                for (KeyId key = 0; key < trace.keys.size(); ++key) {
                    INFO("key " << key << " at tick " << at);
                    CHECK(state_at(result, lane, key, at) ==
                          reference_state_at(result, lane, key, at));
                }
            }
        }
    }
}

}  // namespace

TEST_CASE(
    "reference engine: states at a tick and explanations, resumed from checkpoints, are "
    "those replayed from the first request") {
    const std::uint64_t seed0 = base_seed();
    int checked = 0;
    // Four valid draws; a drawn value outside its rules is drawn again.
    for (std::uint64_t n = 0; n < 100 && checked < 4; ++n) {
        // Long enough for checkpoints, with few keys so that the runs keep them.
        const Case c = random_case(seed0 + n, 4'100, 10'000);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        if (!validate(c.params).empty())
            continue;
        std::mt19937_64 rng(seed0 + n);
        const auto fast = simulate(c.trace, c.params);
        REQUIRE(fast->kept_checkpoints());
        const std::vector<std::size_t> probes = probe_indexes(c.trace->requests.size(), rng);
        require_same_answers(*fast, probes);
        // After an edit the new run shares the old one's checkpoints, with adjustments.
        Trace edited = *c.trace;
        edited.requests.erase(edited.requests.begin() +
                              static_cast<std::ptrdiff_t>(edited.requests.size() / 3));
        const auto after = resimulate(*fast, std::make_shared<const Trace>(std::move(edited)));
        require_same_answers(*after, probe_indexes(after->trace->requests.size(), rng));
        ++checked;
    }
    CHECK(checked == 4);
}

TEST_CASE("reference engine: the default scenario as worked out by hand") {
    const auto reference =
        simulate_reference(std::make_shared<const Trace>(default_trace()), default_params());
    // The worked example of default_scenario_test.cpp: the burst each algorithm lets through.
    const std::vector<std::pair<std::string, std::int64_t>> bursts = {
        {"fixed_window", 8}, {"sliding_log", 4},  {"sliding_counter", 5},
        {"token_bucket", 6}, {"leaky_bucket", 4}, {"gcra", 6}};
    for (const auto& [id, burst] : bursts) {
        INFO(id);
        REQUIRE(reference->find(id) != nullptr);
        CHECK(reference->find(id)->worst_burst.cost == burst);
    }
    CHECK(reference->find("leaky_bucket")->totals.max_delay == Rational(9));
}

TEST_CASE("limiters: one request at a time in trace order decides as a run does") {
    const std::uint64_t seed0 = base_seed();
    int checked = 0;
    for (std::uint64_t n = 0; n < 120; ++n) {
        const Case c = random_case(seed0 + n);
        INFO("seed " << seed0 + n << " (RATELAB_PROPERTY_SEED)");
        if (!validate(c.params).empty())
            continue;
        const Trace& trace = *c.trace;
        const auto fast = simulate(c.trace, c.params);
        for (std::size_t lane = 0; lane < fast->lanes.size(); ++lane) {
            INFO("lane " << lane << ": " << fast->runs[lane].label);
            const auto limiter = make_limiter(trace, c.params, fast->lanes[lane]);
            std::unique_ptr<Limiter> copy;
            const std::size_t half = trace.requests.size() / 2;
            for (std::size_t i = 0; i < trace.requests.size(); ++i) {
                if (i == half)
                    copy = limiter->clone();
                const Request& r = trace.requests[i];
                const std::string check = limiter->check(r.key, r.tick, r.cost);
                const Explanation why = explain(*fast, lane, i);
                CHECK(check == why.check);
                CHECK(limiter->state(r.key, r.tick).summary == why.state_before);
                CHECK(limiter->decide(r.key, r.tick, r.cost) ==
                      fast->runs[lane].decision(trace, i));
            }
            // The copy taken half-way goes on from there as the original did.
            for (std::size_t i = half; copy && i < trace.requests.size(); ++i) {
                const Request& r = trace.requests[i];
                CHECK(copy->decide(r.key, r.tick, r.cost) == fast->runs[lane].decision(trace, i));
            }
            // A forgotten key decides as a fresh limiter would.
            const Request& first = trace.requests.front();
            const auto fresh = make_limiter(trace, c.params, fast->lanes[lane]);
            limiter->forget(first.key);
            const Tick later = trace.requests.back().tick;
            CHECK(limiter->decide(first.key, later, first.cost) ==
                  fresh->decide(first.key, later, first.cost));
        }
        ++checked;
    }
    CHECK(checked > 60);
}
