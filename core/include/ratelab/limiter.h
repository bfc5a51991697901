#pragma once
// One algorithm deciding requests one at a time, in the order a caller gives them, rather than a
// whole trace in its own order: what the layers built above the algorithms use (clients that
// retry, a fleet of servers).

#include <cstdint>
#include <memory>
#include <string>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"

namespace ratelab {

/// An algorithm's limiters for every key of one trace, each key configured by its own tier.
/// Made by Algorithm::limiter(). Deciding the requests of a trace in trace order gives exactly
/// the decisions of Algorithm::run().
class Limiter {
public:
    virtual ~Limiter() = default;

    /// Decides a request of `cost` for `key` at `now`, updating that key's state. The ticks given
    /// for one key must not decrease. `duration` is how long the request holds what it takes
    /// (Trace::durations; 0: the lane's), which only the concurrency lane reads.
    virtual Decision decide(KeyId key, Tick now, std::int64_t cost, Tick duration) = 0;
    /// decide() for a request that sets no duration of its own.
    Decision decide(KeyId key, Tick now, std::int64_t cost) { return decide(key, now, cost, 0); }
    /// The inequality decide() would test now, with its numbers; changes nothing.
    virtual std::string check(KeyId key, Tick now, std::int64_t cost) const = 0;
    /// The key's state as seen at `now`; changes nothing.
    virtual LimiterState state(KeyId key, Tick now) const = 0;
    /// Forgets the key's state: its next request meets a fresh limiter.
    virtual void forget(KeyId key) = 0;
    /// An independent copy, state included.
    virtual std::unique_ptr<Limiter> clone() const = 0;

    // For layers that merge charges decided elsewhere (a fleet's shared store): each returns
    // false, changing nothing, where the algorithm cannot do it (the library presets).

    /// Counts `cost` for `key` at `now` as an accepted request, whether or not it would pass:
    /// a count may go past its limit, tokens below zero, a queue past its size.
    virtual bool charge(KeyId key, Tick now, std::int64_t cost) {
        (void)key;
        (void)now;
        (void)cost;
        return false;
    }
    /// Sets the state of `key` to that of `key` in `other`, a limiter made alike (a clone of
    /// this one or of the limiter it was cloned from).
    virtual bool adopt(KeyId key, const Limiter& other) {
        (void)key;
        (void)other;
        return false;
    }
    /// What decide() would give now, changing nothing. This default copies every key.
    virtual Decision peek(KeyId key, Tick now, std::int64_t cost) const {
        return clone()->decide(key, now, cost);
    }
};

}  // namespace ratelab
