// smallest_limits(): the smallest L within a share of rejections, per group of keys.
#include <algorithm>

#include "ratelab/sweep.h"

namespace ratelab {

namespace {

/// The requests of the keys `wanted` says yes to, with a key table of their own.
Trace requests_of(const Trace& trace, const std::vector<bool>& wanted) {
    Trace out;
    std::vector<KeyId> renamed(trace.keys.size(), 0);
    for (KeyId k = 0; k < trace.keys.size(); ++k) {
        if (wanted[k] && k != 0) {
            renamed[k] = static_cast<KeyId>(out.keys.size());
            out.keys.push_back(trace.keys[k]);
        }
    }
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (const KeyId key = trace.requests[i].key; wanted[key])
            out.append_from(trace, i, renamed[key]);
    }
    return out;
}

GroupLimitFit fit_group(const Trace& group, Params params, const Lane& lane,
                        const std::vector<std::int64_t>& candidates, const Rational& max_percent,
                        const SweepOptions& options) {
    GroupLimitFit fit;
    fit.requests = static_cast<std::int64_t>(group.requests.size());
    params.keys.clear();
    params.lanes = {lane};
    SweepAxis axis{SweepTarget{SweepTarget::Kind::limit, {}, {}}, {}};
    for (const std::int64_t limit : candidates)
        axis.values.emplace_back(Rational(limit));
    const SweepResult result = sweep(group, params, {axis}, options);
    for (const SweepRow& row : result.rows) {
        if (row.rejected_percent() <= max_percent) {
            fit.limit = row.limit;
            fit.rejected_percent = row.rejected_percent();
            break;
        }
    }
    return fit;
}

}  // namespace

std::vector<GroupLimitFit> smallest_limits(const Trace& trace, const Params& params,
                                           const Lane& lane,
                                           const std::vector<std::int64_t>& candidates,
                                           const Rational& max_percent,
                                           const SweepOptions& options) {
    std::vector<bool> has_requests(trace.keys.size(), false);
    for (const Request& r : trace.requests)
        has_requests[r.key] = true;
    std::vector<GroupLimitFit> fits;
    std::vector<bool> base_keys(trace.keys.size(), false);
    for (KeyId k = 0; k < trace.keys.size(); ++k)
        base_keys[k] = has_requests[k] && !params.keys.contains(trace.keys[k]);
    if (std::find(base_keys.begin(), base_keys.end(), true) != base_keys.end())
        fits.push_back(fit_group(requests_of(trace, base_keys), params, lane, candidates,
                                 max_percent, options));
    // Params::keys is ordered by name.
    for (const auto& [name, limits] : params.keys) {
        const std::optional<KeyId> id = trace.find_key(name);
        if (!id || !has_requests[*id])
            continue;
        std::vector<bool> only(trace.keys.size(), false);
        only[*id] = true;
        Params own = params;
        own.base = limits;
        GroupLimitFit fit =
            fit_group(requests_of(trace, only), own, lane, candidates, max_percent, options);
        fit.key = name;
        fit.has_own_limits = true;
        fits.push_back(std::move(fit));
    }
    return fits;
}

}  // namespace ratelab
