#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ratelab/model.h"
#include "ratelab/rational.h"

namespace ratelab {

// Exact answers to "how much burst, or how much rate, does this traffic need so that a token
// bucket rejects nothing?". A bucket of capacity C refilled at r per tick, full at the start,
// rejects nothing exactly when every span of requests from tick s to tick e (both included)
// costs at most C + r (e - s). A GCRA of burst B and emission interval T decides as a token
// bucket of capacity B refilled at 1/T, so the same answers hold with B for C and 1/T for r.

/// The smallest capacity with which a bucket refilled at `rate` (> 0) per tick rejects none of
/// `requests` (one key's, in tick order): the ceiling of the largest cost of a span minus
/// `rate` times its length, found in one pass. 0 for no requests. May exceed bounds::kMaxLimit.
std::int64_t smallest_capacity(std::span<const Request> requests, const Rational& rate);

/// The smallest rate with which a bucket of `capacity` rejects none of `requests`: the largest
/// (cost of a span - capacity) / its length over spans that cost more than `capacity`. 0 when
/// even a bucket that never refills would do (they cost at most `capacity` in all); nothing when
/// no rate would (the requests of one tick cost more than `capacity`). Exact: a few passes, each
/// raising the candidate to the ratio of the span that the last one left most over budget.
std::optional<Rational> smallest_rate(std::span<const Request> requests, std::int64_t capacity);

/// The smallest fraction >= `value` (>= 0) whose denominator is at most `max_den`, and the
/// largest <= it: what a parameter with bounded denominators can be set to. Exact.
Rational round_up_to_den(const Rational& value, std::int64_t max_den);
Rational round_down_to_den(const Rational& value, std::int64_t max_den);

/// What one token_bucket or gcra lane needs to reject nothing, for one tier of keys (or all).
struct TierFit {
    std::string tier;      ///< the tier's key; empty for the keys without a tier of their own
    std::size_t keys = 0;  ///< keys of the trace in the tier that have requests
    /// The smallest capacity (burst) at each key's own rate, the largest over the tier's keys.
    std::int64_t capacity = 0;
    /// The smallest refill rate (token_bucket) at each key's own capacity, the largest over the
    /// keys; nothing when some key's requests on one tick cost more than its capacity. For gcra
    /// this is 1/T: the emission interval is at most 1 / rate.
    std::optional<Rational> rate;
    /// The rate parameter (refill_rate, emission_interval) and the capacity (capacity, burst)
    /// the tier's keys run with, which `capacity` and `rate` are the answers at; nothing when
    /// its keys run with different ones (the fleet over several tiers).
    std::optional<Rational> at_rate_parameter;
    std::optional<std::int64_t> at_capacity;
    friend bool operator==(const TierFit&, const TierFit&) = default;
};

/// The answers for one lane: per tier, and for the whole fleet, which is what one value set on
/// the lane (it applies to every key) must be: the largest over every key, each at its own rate
/// or capacity.
struct LaneFit {
    std::string capacity_parameter;  ///< "capacity" or "burst"
    std::string rate_parameter;      ///< "refill_rate" or "emission_interval"
    TierFit fleet;                   ///< tier is empty, keys counts every key with requests
    std::vector<TierFit> tiers;      ///< only when `params` has key tiers: base first, then by key
    /// The fleet's rate as the lane's rate parameter, rounded to what the parameter's bounded
    /// denominator can hold without rejecting: refill_rate rounded up, emission_interval (1 / rate)
    /// rounded down. Nothing when the fleet has no rate, or needs none (rate 0).
    std::optional<Rational> settable_rate_parameter;
};

/// Whether fit_zero_rejections() answers for lanes of algorithm `id` (token_bucket and gcra).
bool has_zero_rejection_fit(std::string_view id);

/// The capacity and rate with which `lane` rejects nothing of `trace` under `params` (each key
/// with its own tier's values, the lane's own values over them). Throws SimulationError for a
/// lane of another algorithm or invalid input.
LaneFit fit_zero_rejections(const Trace& trace, const Params& params, const Lane& lane);

}  // namespace ratelab
