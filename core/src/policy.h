#pragma once
// The contract of an algorithm file: what a policy provides for BasicAlgorithm (the fast run
// loop) and for reference_run (the plain one that specifies it) to turn into an algorithm.

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "burst.h"
#include "ratelab/algorithm.h"
#include "ratelab/parameters.h"
#include "ratelab/registry.h"

namespace ratelab::detail {

/// One algorithm's per-key configuration and state, and pure functions over them. A policy may
/// also provide `static std::vector<ParameterInfo> parameters()` (every parameter configure()
/// reads with ParamReader<P>; none without it), `static void prefetch(const State&)` (touch
/// memory a state points to) and `static LevelLaw level_law(const Config&)` (its state as a
/// refilling level).
template <class P>
concept Policy = requires(const typename P::Config& config, typename P::State& state,
                          const typename P::State& seen, const Limits& limits, Tick now,
                          std::int64_t cost, bool rejections_count) {
    { P::kId } -> std::convertible_to<std::string_view>;
    /// Delays instead of only accepting or rejecting.
    { P::kShapes } -> std::convertible_to<bool>;
    { P::configure(limits) } -> std::same_as<typename P::Config>;
    { P::initial(config) } -> std::same_as<typename P::State>;
    /// States are compared (after an edit, to see a run decide alike again) by == or same().
    requires(std::equality_comparable<typename P::State> || requires(const typename P::State& a) {
        { P::same(a, a) } -> std::same_as<bool>;
    });
    /// Decides a request of `cost` at `now`, updating the state.
    { P::decide(config, state, now, cost, rejections_count) } -> std::same_as<bool>;
    /// After a rejection: how long until the same request would pass; nothing for never.
    { P::retry_after(config, seen, now, cost) } -> std::same_as<std::optional<Rational>>;
    { P::describe(config, seen, now) } -> std::same_as<LimiterState>;
    /// The inequality a decision tested, with its numbers.
    { P::check(config, seen, now, cost) } -> std::same_as<std::string>;
}
&&(!P::kShapes ||
   requires(const typename P::Config& config, const typename P::State& seen, std::int64_t cost) {
       /// Shapers, after accepting: the units the request is let through as. How many, how far
       /// apart and on what scale depend on the configuration and cost alone, not the state: a
       /// run after an edit builds them again from the delay kept (see units_after()).
       { P::released_units(config, seen, cost) } -> std::same_as<UnitSegment>;
       /// Shapers: how they release.
       { P::shaper_law(config) } -> std::same_as<ShaperLaw>;
   });

/// A policy whose decisions depend on how long each request holds what it takes (concurrency)
/// decides through decide_holding(), given the request's own duration (Trace::durations), or 0
/// where the request leaves it to the policy's configuration.
template <class P>
concept Holds = requires(const typename P::Config& config, typename P::State& state, Tick now,
                         std::int64_t cost, Tick duration, bool rejections_count) {
    {
        P::decide_holding(config, state, now, cost, duration, rejections_count)
        } -> std::same_as<bool>;
};

/// Decides one request: P::decide(), or P::decide_holding() with `duration` for a policy that
/// holds. The run loops read a request's duration only for the latter.
template <Policy P>
bool decide_request(const typename P::Config& config, typename P::State& state, Tick now,
                    std::int64_t cost, Tick duration, bool rejections_count) {
    if constexpr (Holds<P>)
        return P::decide_holding(config, state, now, cost, duration, rejections_count);
    else
        return P::decide(config, state, now, cost, rejections_count);
}

}  // namespace ratelab::detail
