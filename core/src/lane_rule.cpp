#include "lane_rule.h"

#include <algorithm>
#include <limits>

#include "ratelab/registry.h"

namespace ratelab::detail {

LaneRule rule_of(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                 const std::vector<char>* keys) {
    LaneRule rule;
    rule.run = &result.runs[lane];
    rule.params = &result.lane_params[lane];
    if (!rule.run->releases)
        return rule;
    const Trace& trace = *result.trace;
    const Params& params = *rule.params;
    const AlgorithmInfo& info = *Registry::instance().find(rule.run->id);
    rule.base_spacing = info.shaper_law(params.base).spacing;
    rule.released_by = scope.released_by;
    // After an edit, only the few keys counted again need theirs.
    if (!params.keys.empty()) {
        rule.spacings.resize(trace.keys.size());
        for (KeyId key = 0; key < trace.keys.size(); ++key) {
            if (keys != nullptr && (*keys)[key] == 0)
                continue;
            const Limits& limits = params.for_key(trace.key_name(key));
            rule.spacings[key] =
                &limits == &params.base ? rule.base_spacing : info.shaper_law(limits).spacing;
        }
    }
    return rule;
}

void count_release(const LaneRule& rule, SegmentBurst& burst, Totals& totals, const Request& r,
                   const Rational& delay) {
    const Rational& spacing = rule.spacing(r.key);
    const std::int64_t step = spacing.num();
    const std::int64_t scale = spacing.den();
    totals.max_delay = std::max(totals.max_delay, delay);
    // Releases fall on the 1/den grid of the spacing (a queue starts a unit at an arrival or
    // one spacing after the unit before): the delay, in lowest terms, is on it when its
    // denominator divides the grid's. In 1/den ticks, the units start at release - (cost - 1) *
    // num; worked out in integers, as this runs per request.
    if (scale % delay.den() != 0)
        throw SimulationError(rule.run->id + ": a release off its spacing's grid");
    const Int128 last_scaled = static_cast<Int128>(r.tick) * scale +
                               static_cast<Int128>(delay.num()) * (scale / delay.den());
    if (last_scaled > std::numeric_limits<std::int64_t>::max())
        throw SimulationError(rule.run->id + ": a release too late to count");
    const auto last = static_cast<std::int64_t>(last_scaled);
    detail::UnitSegment units{last - (static_cast<std::int64_t>(r.cost) - 1) * step, r.cost, step,
                              scale};
    if (rule.released_by) {
        const Int128 by = static_cast<Int128>(*rule.released_by) * scale;
        units.count = units.first > by ? 0
                                       : static_cast<std::int64_t>(std::min<Int128>(
                                             units.count, (by - units.first) / step + 1));
    }
    if (units.count > 0)
        burst.add(units);
}

}  // namespace ratelab::detail
