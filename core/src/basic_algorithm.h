#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "burst.h"
#include "ratelab/algorithm.h"
#include "ratelab/registry.h"

namespace ratelab::detail {

/// What one algorithm file provides: its per-key configuration and state, and pure functions
/// over them. BasicAlgorithm turns such a policy into an Algorithm, so that every algorithm
/// shares one run loop, one way of computing bursts, and one way of explaining a decision.
///
///   static constexpr std::string_view kId;
///   static constexpr bool kShapes;            // delays instead of only accepting or rejecting
///   struct Config; static Config configure(const Limits&);
///   struct State;  static State initial(const Config&);
///   static bool decide(const Config&, State&, Tick now, std::int64_t cost, bool rejections_count);
///   static std::optional<Rational> retry_after(const Config&, const State&, Tick now,
///                                              std::int64_t cost);   // after a rejection; nothing
///                                              = never
///   static LimiterState describe(const Config&, const State&, Tick now);
///   static std::string check(const Config&, const State&, Tick now, std::int64_t cost);
///   static UnitSegment released_units(const Config&, const State&, std::int64_t cost); // shapers
///   only
template <class P>
class BasicAlgorithm final : public Algorithm {
public:
    using Config = typename P::Config;
    using State = typename P::State;

    std::string_view id() const override { return P::kId; }

    AlgorithmRun run(const Trace& trace, const Params& params,
                     const RunOptions& options) const override;
    LimiterState state_at(const Trace& trace, const Params& params, KeyId key, Tick at,
                          const AlgorithmRun* run) const override;
    Explanation explain(const Trace& trace, const Params& params, std::size_t index,
                        const AlgorithmRun* run) const override;

private:
    static constexpr std::size_t kCheckpointEvery = 4096;  // requests
    static constexpr std::size_t kCheckpointKeys = 4;      // more keys: replay from the start
    /// states[c] holds every key's state before request c * kCheckpointEvery.
    struct Checkpoints {
        std::vector<std::vector<State>> states;
    };

    /// The state of `key` after requests [0, end) of the trace.
    static State replay(const Trace& trace, const Params& params, const Config& config, KeyId key,
                        std::size_t end, const AlgorithmRun* run);

    static std::vector<Config> configure_keys(const Trace& trace, const Params& params);
};

template <class P>
std::vector<typename P::Config> BasicAlgorithm<P>::configure_keys(const Trace& trace,
                                                                  const Params& params) {
    if (params.keys.empty())
        return std::vector<Config>(trace.keys.size(), P::configure(params.base));
    std::vector<Config> configs;
    configs.reserve(trace.keys.size());
    for (const std::string& key : trace.keys)
        configs.push_back(P::configure(params.for_key(key)));
    return configs;
}

template <class P>
AlgorithmRun BasicAlgorithm<P>::run(const Trace& trace, const Params& params,
                                    const RunOptions& options) const {
    const std::vector<Request>& requests = trace.requests;
    const std::vector<Config> configs = configure_keys(trace, params);
    const bool uniform = configs.size() == 1;
    std::vector<State> states;
    states.reserve(trace.keys.size());
    for (std::size_t k = 0; k < trace.keys.size(); ++k) {
        states.push_back(P::initial(configs[uniform ? 0 : k]));
    }

    AlgorithmRun out;
    out.id = std::string(P::kId);
    out.releases = P::kShapes;
    if (options.keep_decisions) {
        out.outcomes.resize(requests.size());
        out.times.resize(requests.size());
    }
    const Tick window = params.base.window;
    ArrivalBurst arrivals(window);
    SegmentBurst one_shaper(window);
    MergedUnitBurst many_shapers(window);
    const bool single_key = std::all_of(requests.begin(), requests.end(), [&](const Request& r) {
        return r.key == requests.front().key;
    });
    auto checkpoints = std::make_shared<Checkpoints>();
    const bool keep_checkpoints = options.keep_decisions && trace.keys.size() <= kCheckpointKeys &&
                                  requests.size() > kCheckpointEvery;
    std::int64_t worst_delay = 0;  // over worst_delay_scale ticks
    std::int64_t worst_delay_scale = 1;

    for (std::size_t i = 0; i < requests.size(); ++i) {
        if (keep_checkpoints && i % kCheckpointEvery == 0)
            checkpoints->states.push_back(states);
        const Request& r = requests[i];
        const Config& config = configs[uniform ? 0 : r.key];
        State& state = states[r.key];
        if constexpr (P::kShapes) {
            if (!single_key)
                many_shapers.advance_to(r.tick);
        }
        if (P::decide(config, state, r.tick, r.cost, params.rejections_count)) {
            ++out.totals.accepted;
            out.totals.accepted_cost += r.cost;
            if constexpr (P::kShapes) {
                const UnitSegment units = P::released_units(config, state, r.cost);
                if (single_key) {
                    one_shaper.add(units);
                } else {
                    many_shapers.add(units);
                }
                const std::int64_t release = units.first + (units.count - 1) * units.step;
                const std::int64_t delay = release - r.tick * units.scale;
                if (static_cast<Int128>(delay) * worst_delay_scale >
                    static_cast<Int128>(worst_delay) * units.scale) {
                    worst_delay = delay;
                    worst_delay_scale = units.scale;
                }
                if (options.keep_decisions)
                    out.times[i] = Rational(release, units.scale);
            } else {
                arrivals.add(r.tick, r.cost);
            }
            if (options.keep_decisions)
                out.outcomes[i] = AlgorithmRun::kAccepted;
        } else {
            ++out.totals.rejected;
            out.totals.rejected_cost += r.cost;
            if (options.keep_decisions) {
                const std::optional<Rational> retry = P::retry_after(config, state, r.tick, r.cost);
                out.outcomes[i] = retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever;
                out.times[i] = retry.value_or(Rational());
            }
        }
    }
    if (keep_checkpoints)
        out.checkpoints = std::move(checkpoints);
    if constexpr (P::kShapes) {
        out.worst_burst = single_key ? one_shaper.result() : many_shapers.result();
        out.totals.max_delay = Rational(worst_delay, worst_delay_scale);
    } else {
        out.worst_burst = arrivals.result();
    }
    return out;
}

template <class P>
typename P::State BasicAlgorithm<P>::replay(const Trace& trace, const Params& params,
                                            const Config& config, KeyId key, std::size_t end,
                                            const AlgorithmRun* run) {
    std::size_t begin = 0;
    State state = P::initial(config);
    if (run != nullptr && run->id == P::kId && run->checkpoints) {
        const auto& saved = static_cast<const Checkpoints*>(run->checkpoints.get())->states;
        const std::size_t c = std::min(end / kCheckpointEvery, saved.size() - 1);
        state = saved[c][key];
        begin = c * kCheckpointEvery;
    }
    for (std::size_t i = begin; i < end; ++i) {
        const Request& r = trace.requests[i];
        if (r.key == key)
            P::decide(config, state, r.tick, r.cost, params.rejections_count);
    }
    return state;
}

template <class P>
LimiterState BasicAlgorithm<P>::state_at(const Trace& trace, const Params& params, KeyId key,
                                         Tick at, const AlgorithmRun* run) const {
    const Config config = P::configure(params.for_key(trace.key_name(key)));
    const auto end = std::partition_point(trace.requests.begin(), trace.requests.end(),
                                          [at](const Request& r) { return r.tick <= at; });
    const State state = replay(trace, params, config, key,
                               static_cast<std::size_t>(end - trace.requests.begin()), run);
    return P::describe(config, state, at);
}

template <class P>
Explanation BasicAlgorithm<P>::explain(const Trace& trace, const Params& params, std::size_t index,
                                       const AlgorithmRun* run) const {
    const Request& target = trace.requests.at(index);
    const Config config = P::configure(params.for_key(trace.key_name(target.key)));
    State state = replay(trace, params, config, target.key, index, run);
    Explanation why;
    why.state_before = P::describe(config, state, target.tick).summary;
    why.check = P::check(config, state, target.tick, target.cost);
    const bool accepted =
        P::decide(config, state, target.tick, target.cost, params.rejections_count);
    why.state_after = P::describe(config, state, target.tick).summary;
    if (accepted) {
        Rational release;
        if constexpr (P::kShapes) {
            const UnitSegment units = P::released_units(config, state, target.cost);
            release = Rational(units.first + (units.count - 1) * units.step, units.scale);
        }
        why.decision = make_decision(AlgorithmRun::kAccepted, release, P::kShapes, target.tick);
    } else {
        const auto retry = P::retry_after(config, state, target.tick, target.cost);
        why.decision = make_decision(retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever,
                                     retry.value_or(Rational()), P::kShapes, target.tick);
    }
    return why;
}

/// The registry entry for policy P.
template <class P>
AlgorithmInfo make_info(std::string name, std::string summary, int order,
                        std::vector<ParameterInfo> parameters = {}) {
    return AlgorithmInfo{
        std::string(P::kId),   std::move(name),
        std::move(summary),    order,
        std::move(parameters), [] { return std::make_unique<BasicAlgorithm<P>>(); }};
}

}  // namespace ratelab::detail
