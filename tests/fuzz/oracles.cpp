#include "oracles.h"

#include <algorithm>

#include "ratelab/registry.h"

namespace ratelab::fuzz {

Rational resolved(const Limits& limits, std::string_view algorithm, std::string_view parameter) {
    const ParamValues values = resolved_params(*Registry::instance().find(algorithm), limits);
    return std::get<Rational>(values.find(parameter)->second);
}

EffectiveLimits effective(const Limits& limits) {
    return EffectiveLimits{resolved(limits, "token_bucket", "capacity").num(),
                           resolved(limits, "token_bucket", "refill_rate"),
                           resolved(limits, "leaky_bucket", "queue_size").num(),
                           resolved(limits, "leaky_bucket", "drain_interval"),
                           resolved(limits, "gcra", "burst").num(),
                           resolved(limits, "gcra", "emission_interval")};
}

bool gcra_mirrors_bucket(const Limits& limits) {
    const EffectiveLimits e = effective(limits);
    // rate * interval == 1, cross-multiplied so that no product is narrowed to 64 bits.
    return e.capacity == e.burst &&
           static_cast<Int128>(e.refill_rate.num()) * e.emission_interval.num() ==
               static_cast<Int128>(e.refill_rate.den()) * e.emission_interval.den();
}

std::int64_t arrival_burst(const Trace& trace, const AlgorithmRun& run, Tick window) {
    std::int64_t best = 0;
    for (const Request& start : trace.requests) {
        std::int64_t sum = 0;
        for (std::size_t i = 0; i < trace.requests.size(); ++i) {
            const Request& r = trace.requests[i];
            if (run.accepted(i) && r.tick >= start.tick && r.tick - start.tick < window)
                sum += r.cost;
        }
        best = std::max(best, sum);
    }
    return best;
}

std::optional<std::vector<Rational>> released_units(const Trace& trace, const AlgorithmRun& run,
                                                    const Params& params, std::int64_t max) {
    std::int64_t total = 0;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (run.accepted(i))
            total += trace.requests[i].cost;
    }
    if (total > max)
        return std::nullopt;
    std::vector<Rational> units;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (!run.accepted(i))
            continue;
        const Request& r = trace.requests[i];
        const Rational step = effective(params.for_key(trace.key_name(r.key))).drain_interval;
        const Rational release = *run.decision(trace, i).release;
        for (std::int64_t u = 0; u < r.cost; ++u)
            units.push_back(release - step * Rational(u));
    }
    std::sort(units.begin(), units.end());
    return units;
}

std::int64_t unit_burst(const std::vector<Rational>& units, Tick window) {
    std::int64_t best = 0;
    std::size_t end = 0;
    for (std::size_t start = 0; start < units.size(); ++start) {
        const Rational limit = units[start] + Rational(window);
        end = std::max(end, start);
        while (end < units.size() && units[end] < limit)
            ++end;
        best = std::max<std::int64_t>(best, static_cast<std::int64_t>(end - start));
    }
    return best;
}

Int128 ceil_ratio(Int128 num, Int128 den) {
    return (num + den - 1) / den;
}

}  // namespace ratelab::fuzz
