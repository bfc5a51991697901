// Closed forms for the token bucket and GCRA: the least capacity or rate that rejects nothing.
// Integers and Rationals only; every product is formed in 128 bits.
#include "ratelab/bucket_fit.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "ratelab/limits.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"

namespace ratelab {
namespace {

/// The span of requests that is furthest over a bucket refilled at num/den per tick.
struct WorstSpan {
    Int128 excess = 0;  ///< (its cost - rate x its length) x den
    Int128 cost = 0;
    Tick length = 0;
};

/// One pass of the bucket's deficit (capacity less tokens, when it has rejected nothing so far):
/// d = max(0, d - rate x gap) + cost. Its largest value is the largest excess of any span that
/// ends on a request, which is the capacity the requests need.
WorstSpan worst_span(std::span<const Request> requests, std::int64_t num, std::int64_t den) {
    WorstSpan worst;
    Int128 deficit = 0;
    Int128 cost = 0;
    Tick start = 0;
    Tick last = 0;
    bool first = true;
    for (const Request& r : requests) {
        const Int128 left = first ? 0 : deficit - static_cast<Int128>(r.tick - last) * num;
        if (left <= 0) {
            // The bucket was full again: a span starting here is as bad as any longer one.
            deficit = 0;
            cost = 0;
            start = r.tick;
        } else {
            deficit = left;
        }
        deficit += static_cast<Int128>(r.cost) * den;
        cost += r.cost;
        last = r.tick;
        first = false;
        if (deficit > worst.excess)
            worst = WorstSpan{deficit, cost, r.tick - start};
    }
    return worst;
}

Int128 ceil_div(Int128 num, Int128 den) {
    return num / den + (num % den > 0 ? 1 : 0);
}

/// The requests of each key, in trace order, key after key.
struct ByKey {
    std::vector<Request> requests;
    std::vector<std::size_t> start;  ///< per key id, and one past the last
    std::span<const Request> of(KeyId key) const {
        return std::span<const Request>(requests).subspan(start[key], start[key + 1] - start[key]);
    }
};

ByKey group_by_key(const Trace& trace) {
    ByKey out;
    out.start.assign(trace.keys.size() + 1, 0);
    for (const Request& r : trace.requests)
        ++out.start[r.key + 1];
    for (std::size_t k = 1; k < out.start.size(); ++k)
        out.start[k] += out.start[k - 1];
    std::vector<std::size_t> next(out.start.begin(), out.start.end() - 1);
    out.requests.resize(trace.requests.size());
    for (const Request& r : trace.requests)
        out.requests[next[r.key]++] = r;
    return out;
}

/// One key's answers and the values it runs with.
struct KeyFit {
    std::int64_t capacity;
    std::optional<Rational> rate;
    Rational at_rate_parameter;
    std::int64_t at_capacity;
};

/// Folds one key's answers into a tier's: each the largest, a missing rate winning.
void add_key(TierFit& fit, const KeyFit& key) {
    const bool first = fit.keys == 0;
    fit.capacity = std::max(fit.capacity, key.capacity);
    if (first || (fit.rate && (!key.rate || *key.rate > *fit.rate)))
        fit.rate = key.rate;
    if (first) {
        fit.at_rate_parameter = key.at_rate_parameter;
        fit.at_capacity = key.at_capacity;
    } else {
        if (fit.at_rate_parameter != key.at_rate_parameter)
            fit.at_rate_parameter.reset();
        if (fit.at_capacity != key.at_capacity)
            fit.at_capacity.reset();
    }
    ++fit.keys;
}

}  // namespace

std::int64_t smallest_capacity(std::span<const Request> requests, const Rational& rate) {
    if (rate <= Rational(0))
        throw SimulationError("the rate must be above 0, not " + rate.to_string());
    const WorstSpan worst = worst_span(requests, rate.num(), rate.den());
    return static_cast<std::int64_t>(ceil_div(worst.excess, rate.den()));
}

std::optional<Rational> smallest_rate(std::span<const Request> requests, std::int64_t capacity) {
    // Dinkelbach's iteration: every candidate is the ratio of a real span, so it is never above
    // the answer, and each pass that finds a span over budget raises it strictly.
    Rational rate(0);
    for (;;) {
        const WorstSpan worst = worst_span(requests, rate.num(), rate.den());
        if (worst.excess <= static_cast<Int128>(capacity) * rate.den())
            return rate;
        if (worst.length == 0)
            return std::nullopt;  // one tick's requests alone overflow the bucket
        rate = Rational(static_cast<std::int64_t>(worst.cost - capacity), worst.length);
    }
}

namespace {

/// The closest fractions of denominator <= max_den at or below and at or above `value`.
std::pair<Rational, Rational> closest_bounded(const Rational& value, std::int64_t max_den) {
    if (value.den() <= max_den)
        return {value, value};
    // Walk the Stern-Brocot tree towards `value` in runs of equal steps: lo < value < hi are
    // the closest fractions of denominator <= max_den on each side when no step fits any more.
    const Int128 p = value.num();
    const Int128 q = value.den();
    Int128 lo_n = 0, lo_d = 1, hi_n = 1, hi_d = 0;
    for (;;) {
        const Int128 mid_n = lo_n + hi_n;
        const Int128 mid_d = lo_d + hi_d;
        if (mid_d > max_den)
            break;
        if (mid_n * q < p * mid_d) {
            // lo + k hi stays below value while k (hi_n q - p hi_d) < p lo_d - lo_n q.
            Int128 k = (p * lo_d - lo_n * q - 1) / (hi_n * q - p * hi_d);
            if (hi_d > 0)
                k = std::min(k, (max_den - lo_d) / hi_d);
            lo_n += k * hi_n;
            lo_d += k * hi_d;
        } else {
            // hi + k lo stays above value while k (p lo_d - lo_n q) < hi_n q - p hi_d.
            Int128 k = (hi_n * q - p * hi_d - 1) / (p * lo_d - lo_n * q);
            k = std::min(k, (max_den - hi_d) / lo_d);
            hi_n += k * lo_n;
            hi_d += k * lo_d;
        }
    }
    return {Rational(static_cast<std::int64_t>(lo_n), static_cast<std::int64_t>(lo_d)),
            Rational(static_cast<std::int64_t>(hi_n), static_cast<std::int64_t>(hi_d))};
}

struct FitNames {
    const char* capacity;
    const char* rate;
    bool interval;  ///< the rate parameter is 1 / rate (gcra's emission interval)
};

std::optional<FitNames> names_of(std::string_view id) {
    if (id == "token_bucket")
        return FitNames{"capacity", "refill_rate", false};
    if (id == "gcra")
        return FitNames{"burst", "emission_interval", true};
    return std::nullopt;
}

}  // namespace

Rational round_up_to_den(const Rational& value, std::int64_t max_den) {
    return closest_bounded(value, max_den).second;
}

Rational round_down_to_den(const Rational& value, std::int64_t max_den) {
    return closest_bounded(value, max_den).first;
}

bool has_zero_rejection_fit(std::string_view id) {
    return names_of(id).has_value();
}

LaneFit fit_zero_rejections(const Trace& trace, const Params& params, const Lane& lane) {
    const auto names = names_of(lane.algorithm);
    if (!names) {
        throw SimulationError("no closed form for " + lane.algorithm +
                              ": only token_bucket and gcra have one");
    }
    Params checked = params;
    checked.lanes = {lane};
    if (auto errors = validate(checked); !errors.empty())
        throw SimulationError("parameters: " + errors.front());
    if (auto errors = validate(trace); !errors.empty())
        throw SimulationError("trace: " + errors.front());
    const AlgorithmInfo& info = *Registry::instance().find(lane.algorithm);
    const Params lane_params = params_for_lane(params, lane);

    LaneFit fit;
    fit.capacity_parameter = names->capacity;
    fit.rate_parameter = names->rate;
    std::vector<TierFit> tiers;
    if (!params.keys.empty()) {
        tiers.push_back(TierFit{});
        for (const auto& [key, limits] : params.keys)
            tiers.push_back(TierFit{key, 0, 0, Rational(0), std::nullopt, std::nullopt});
    }
    const ByKey by_key = group_by_key(trace);
    for (KeyId key = 0; key < trace.keys.size(); ++key) {
        const std::span<const Request> requests = by_key.of(key);
        if (requests.empty())
            continue;
        const std::string& name = trace.key_name(key);
        const ParamValues values = resolved_params(info, lane_params.for_key(name));
        const Rational set_rate = std::get<Rational>(values.at(names->rate));
        const Rational rate = names->interval ? Rational(1) / set_rate : set_rate;
        const std::int64_t capacity = std::get<Rational>(values.at(names->capacity)).num();
        const KeyFit answers{smallest_capacity(requests, rate), smallest_rate(requests, capacity),
                             set_rate, capacity};
        add_key(fit.fleet, answers);
        if (!tiers.empty()) {
            const auto tier = params.keys.find(name);
            const auto index =
                tier == params.keys.end()
                    ? 0
                    : 1 + static_cast<std::size_t>(std::distance(params.keys.begin(), tier));
            add_key(tiers[index], answers);
        }
    }
    if (fit.fleet.keys == 0)
        fit.fleet.rate = Rational(0);
    for (TierFit& tier : tiers) {
        if (tier.keys == 0)
            tier.rate = Rational(0);
    }
    fit.tiers = std::move(tiers);
    if (fit.fleet.rate && *fit.fleet.rate > Rational(0)) {
        fit.settable_rate_parameter =
            names->interval
                ? round_down_to_den(Rational(1) / *fit.fleet.rate, bounds::kMaxRationalDen)
                : round_up_to_den(*fit.fleet.rate, bounds::kMaxRationalDen);
    }
    return fit;
}

}  // namespace ratelab
