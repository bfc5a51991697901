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
    /// for one key must not decrease.
    virtual Decision decide(KeyId key, Tick now, std::int64_t cost) = 0;
    /// The inequality decide() would test now, with its numbers; changes nothing.
    virtual std::string check(KeyId key, Tick now, std::int64_t cost) const = 0;
    /// The key's state as seen at `now`; changes nothing.
    virtual LimiterState state(KeyId key, Tick now) const = 0;
    /// Forgets the key's state: its next request meets a fresh limiter.
    virtual void forget(KeyId key) = 0;
    /// An independent copy, state included.
    virtual std::unique_ptr<Limiter> clone() const = 0;
};

}  // namespace ratelab
