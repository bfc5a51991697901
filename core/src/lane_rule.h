#pragma once
// What counting one lane's keys needs besides its decisions, and how an accepted request of each
// kind of lane is counted: shared by the count in trace order and the count key by key
// (key_tally.cpp).

#include <cstddef>
#include <optional>
#include <vector>

#include "burst.h"
#include "ratelab/key_figures.h"

namespace ratelab::detail {

/// What counting one lane's keys needs besides its decisions: each key's limits, and for a
/// shaper the spacing of a key's units and the clock that cuts them.
struct LaneRule {
    const AlgorithmRun* run = nullptr;
    const Params* params = nullptr;
    /// A shaper's units go out one every `spacing` ticks, the last at the request's release
    /// (ShaperLaw): the key's own from its tier, the base one for every key when there are no
    /// tiers (`spacings` empty).
    Rational base_spacing;
    std::vector<Rational> spacings;  ///< by key, worked out for the keys counted alone
    std::optional<Tick> released_by;

    const Rational& spacing(KeyId key) const {
        return spacings.empty() ? base_spacing : spacings[key];
    }
};

/// The rule of lane `lane` of `result` over `scope`: a shaper's spacings are worked out for the
/// keys `keys` marks (every key when nothing).
LaneRule rule_of(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                 const std::vector<char>* keys);

/// Counts request `r` of a lane that lets requests through when they arrive, accepted: one
/// arrival for its key's tracker.
inline void count_arrival(ArrivalBurst& burst, const Request& r) {
    const ArrivalBurst::Arrival arrival{r.tick, r.cost};
    burst.add(&arrival, 1);
}

/// Counts request `r` of a shaper, accepted and let out `delay` after its tick: its longest
/// delay, and its units (those by the rule's clock) for its key's tracker.
void count_release(const LaneRule& rule, SegmentBurst& burst, Totals& totals, const Request& r,
                   const Rational& delay);

}  // namespace ratelab::detail
