#pragma once
// Small helpers shared by the core tests: building traces and running one algorithm.

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ratelab/registry.h"
#include "ratelab/simulation.h"

namespace ratelab::test {

/// The first seed of a property test: $RATELAB_PROPERTY_SEED when set (to replay a failure,
/// whose message prints its seed), else a fresh one.
inline std::uint64_t base_seed() {
    if (const char* fixed = std::getenv("RATELAB_PROPERTY_SEED"))
        return std::strtoull(fixed, nullptr, 10);
    return std::random_device{}();
}

/// The position of the first lane of `result` that runs algorithm `id` (the default lanes run
/// each algorithm once).
inline std::size_t lane_of(const SimulationResult& result, std::string_view id) {
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        if (result.runs[lane].id == id)
            return lane;
    }
    return result.runs.size();
}

/// Every algorithm, opt-in lane and preset, each as a lane at its defaults.
inline std::vector<Lane> every_lane() {
    std::vector<Lane> lanes;
    for (const auto& list : {Registry::instance().all(), Registry::instance().opt_in(),
                             Registry::instance().presets()}) {
        for (const AlgorithmInfo* info : list)
            lanes.push_back(Lane{info->id, {}, {}, false});
    }
    return lanes;
}

struct Req {
    Req(Tick t, std::uint32_t c = 1, std::string k = {}) : tick(t), cost(c), key(std::move(k)) {}
    Tick tick;
    std::uint32_t cost;
    std::string key;
};

inline std::shared_ptr<const Trace> make_trace(std::initializer_list<Req> requests) {
    TraceBuilder builder;
    for (const Req& r : requests)
        builder.add(r.tick, r.cost, r.key);
    return std::make_shared<const Trace>(std::move(builder).take());
}

inline std::shared_ptr<const Trace> ticks(std::initializer_list<Tick> list) {
    TraceBuilder builder;
    for (Tick t : list)
        builder.add(t);
    return std::make_shared<const Trace>(std::move(builder).take());
}

inline Params limits(std::int64_t limit, Tick window) {
    Params params;
    params.base.limit = limit;
    params.base.window = window;
    return params;
}

/// Runs one algorithm and returns its run (the result is kept alive by the caller's copy).
inline AlgorithmRun run_one(const std::string& id, std::shared_ptr<const Trace> trace,
                            const Params& params) {
    return simulate(std::move(trace), params, {id})->runs.front();
}

/// "AARR..." for the run's decisions, to compare whole traces at a glance.
inline std::string pattern(const AlgorithmRun& run) {
    std::string text;
    for (std::size_t i = 0; i < run.decisions.size(); ++i)
        text += run.accepted(i) ? 'A' : 'R';
    return text;
}

/// A trace's requests in one vector, for functions that read a span.
inline std::vector<Request> flat(const RequestColumn& requests) {
    return {requests.begin(), requests.end()};
}

/// `count` requests 0 to 2 ticks apart, of cost 1 to 3, over `keys` keys (key 0 is the unnamed
/// one, the others "k1", "k2", ...): seeded traces for the property tests.
inline std::shared_ptr<const Trace> random_trace(std::mt19937_64& rng, std::size_t count,
                                                 int keys) {
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

}  // namespace ratelab::test
