#pragma once
// The reference engine: the specification of what a run of a policy is, written as plainly as
// possible and with no care for speed. BasicAlgorithm's run loop (checkpoints, stretches,
// branch-free counting, burst trackers over segments) must give exactly this; the property
// tests hold it to it. New semantics are written here first.

#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

#include "policy.h"
#include "ratelab/algorithm.h"
#include "ratelab/model.h"

namespace ratelab::detail {

/// The largest count of `points` inside any half-open span [u, u + window) that starts at one
/// of them, with `weights` (a cost each), and the earliest such u. `points` in any order.
inline Burst reference_burst(std::vector<std::pair<Rational, std::int64_t>> points, Tick window) {
    std::sort(points.begin(), points.end());
    Burst best;
    for (std::size_t i = 0; i < points.size(); ++i) {
        std::int64_t inside = 0;
        for (std::size_t j = i; j < points.size() && points[j].first < points[i].first + window;
             ++j)
            inside += points[j].second;
        if (inside > best.cost)
            best = Burst{inside, points[i].first};
    }
    return best;
}

/// Decides every request of `trace` in order with policy P, one key state per key, and measures
/// the worst burst by listing every accepted arrival (or, for a shaper, every released unit).
template <Policy P>
AlgorithmRun reference_run(const Trace& trace, const Params& params) {
    AlgorithmRun out;
    out.id = std::string(P::kId);
    out.releases = P::kShapes;
    std::map<KeyId, typename P::Config> configs;
    std::map<KeyId, typename P::State> states;
    std::vector<std::pair<Rational, std::int64_t>> let_through;  // (time, cost) to count
    DecisionColumns::Builder decisions;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& r = trace.requests[i];
        if (!configs.contains(r.key)) {
            configs.emplace(r.key, P::configure(params.for_key(trace.key_name(r.key))));
            states.emplace(r.key, P::initial(configs.at(r.key)));
        }
        const typename P::Config& config = configs.at(r.key);
        typename P::State& state = states.at(r.key);
        const bool accepted = decide_request<P>(config, state, r.tick, r.cost, trace.duration(i),
                                                params.rejections_count);
        if (accepted) {
            ++out.totals.accepted;
            out.totals.accepted_cost += r.cost;
            Rational delay;
            if constexpr (P::kShapes) {
                const UnitSegment units = P::released_units(config, state, r.cost);
                for (std::int64_t k = 0; k < units.count; ++k)
                    let_through.emplace_back(Rational(units.first + k * units.step, units.scale),
                                             1);
                delay = Rational(units.last(), units.scale) - Rational(r.tick);
                out.totals.max_delay = std::max(out.totals.max_delay, delay);
            } else {
                let_through.emplace_back(Rational(r.tick), r.cost);
            }
            decisions.push(AlgorithmRun::kAccepted, delay);
        } else {
            ++out.totals.rejected;
            out.totals.rejected_cost += r.cost;
            const std::optional<Rational> retry = P::retry_after(config, state, r.tick, r.cost);
            decisions.push(retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever,
                           retry.value_or(Rational()));
        }
    }
    out.decisions = decisions.finish();
    out.worst_burst = reference_burst(std::move(let_through), params.base.window);
    out.requests_decided = trace.requests.size();
    return out;
}

/// The explanation of deciding a request of `cost` (holding it for `duration`, 0: the lane's) at
/// `now` on a key in `state`, which it updates: the state before, the check, the state after,
/// and the decision. The engines differ only in how they reach the state before.
template <Policy P>
Explanation explain_decision(const typename P::Config& config, typename P::State& state, Tick now,
                             std::int64_t cost, Tick duration, bool rejections_count) {
    Explanation why;
    why.state_before = P::describe(config, state, now).summary;
    why.check = P::check(config, state, now, cost);
    const bool accepted = decide_request<P>(config, state, now, cost, duration, rejections_count);
    why.state_after = P::describe(config, state, now).summary;
    if (accepted) {
        Rational release;
        if constexpr (P::kShapes) {
            const UnitSegment units = P::released_units(config, state, cost);
            release = Rational(units.last(), units.scale);
        }
        why.decision = make_decision(AlgorithmRun::kAccepted, release, P::kShapes, now);
    } else {
        const auto retry = P::retry_after(config, state, now, cost);
        why.decision = make_decision(retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever,
                                     retry.value_or(Rational()), P::kShapes, now);
    }
    return why;
}

/// The state of `key` after every request of `trace` before `end` (an index) is decided, from
/// its initial state: the key's requests in order, the others passed over.
template <Policy P>
typename P::State reference_state(const Trace& trace, const Params& params,
                                  const typename P::Config& config, KeyId key, std::size_t end) {
    typename P::State state = P::initial(config);
    for (std::size_t i = 0; i < end; ++i) {
        const Request& r = trace.requests[i];
        if (r.key == key)
            decide_request<P>(config, state, r.tick, r.cost, trace.duration(i),
                              params.rejections_count);
    }
    return state;
}

/// The state of `key` once every request with a tick at or before `at` is decided, as it reads
/// at `at`.
template <Policy P>
LimiterState reference_state_at(const Trace& trace, const Params& params, KeyId key, Tick at) {
    const typename P::Config config = P::configure(params.for_key(trace.key_name(key)));
    std::size_t end = 0;
    while (end < trace.requests.size() && trace.requests[end].tick <= at)
        ++end;
    return P::describe(config, reference_state<P>(trace, params, config, key, end), at);
}

/// Why request `index` of `trace` was decided as it was.
template <Policy P>
Explanation reference_explain(const Trace& trace, const Params& params, std::size_t index) {
    const Request& target = trace.requests.at(index);
    const typename P::Config config = P::configure(params.for_key(trace.key_name(target.key)));
    typename P::State state = reference_state<P>(trace, params, config, target.key, index);
    return explain_decision<P>(config, state, target.tick, target.cost, trace.duration(index),
                               params.rejections_count);
}

}  // namespace ratelab::detail
