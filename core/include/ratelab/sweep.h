#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/bucket_fit.h"
#include "ratelab/key_figures.h"
#include "ratelab/model.h"

namespace ratelab {

/// The most points a sweep runs: the product of its axes' value counts. A sweep of more is
/// refused before anything runs (10,000 points of six lanes over a million requests is already
/// an hour on two cores).
inline constexpr std::size_t kMaxSweepPoints = 10'000;

/// What one axis of a sweep varies: the trace's limit L, its window W, or one parameter of every
/// lane that runs `algorithm` (written "token_bucket.capacity").
struct SweepTarget {
    enum class Kind : std::uint8_t { limit, window, lane_parameter };
    Kind kind = Kind::limit;
    std::string algorithm;  ///< lane parameters only
    std::string parameter;  ///< lane parameters only

    /// "limit", "window" or "ID.NAME".
    std::string name() const;
    friend bool operator==(const SweepTarget&, const SweepTarget&) = default;
};

/// One axis: a target and the values it takes, in order. Limits and windows are whole numbers.
struct SweepAxis {
    SweepTarget target;
    std::vector<ParamValue> values;
    friend bool operator==(const SweepAxis&, const SweepAxis&) = default;
};

/// The points of a sweep are every combination of its axes' values, the last axis varying
/// fastest: axes {limit: 1,2} and {window: 10,20} give (1,10), (1,20), (2,10), (2,20).
std::size_t sweep_point_count(const std::vector<SweepAxis>& axes);
/// The value each axis takes at point `point`, one per axis.
std::vector<ParamValue> sweep_point_values(const std::vector<SweepAxis>& axes, std::size_t point);
/// `params` at point `point`: L and W set on the trace's base limits (key tiers keep their own),
/// and each lane parameter written into every lane that runs its algorithm.
Params sweep_point_params(const Params& params, const std::vector<SweepAxis>& axes,
                          std::size_t point);
/// The point of `axes` at which lane `lane` runs as `params` sets it (L, W and the lane's
/// parameters, overrides and defaults resolved), or nothing when some axis never takes that
/// value or names a parameter of another algorithm.
std::optional<std::size_t> sweep_point_of(const std::vector<SweepAxis>& axes, const Params& params,
                                          const Lane& lane);
/// The lanes a sweep runs: `params.lanes` when set; else, when every axis varies a lane
/// parameter, one default lane per algorithm the axes name (in the order they are named);
/// else the default lanes.
std::vector<Lane> sweep_lanes(const Params& params, const std::vector<SweepAxis>& axes);

/// One lane at one point.
struct SweepRow {
    std::size_t point = 0;
    std::size_t lane = 0;
    std::vector<ParamValue> values;  ///< the point's value of each axis
    std::int64_t limit = 0;          ///< L at the point, which the worst burst is compared with
    bool releases = false;           ///< a shaper: delays mean something
    Totals totals;
    Burst worst_burst;
    /// Shapers with at least one acceptance: the 95th percentile of the accepted requests'
    /// delays, nearest rank (the smallest delay that at least 95% of them do not exceed).
    std::optional<Rational> p95_delay;

    /// How many keys made requests, and how many of them had a worst burst over their own L
    /// (each counted over its own W: key_figures()).
    std::int64_t keys = 0;
    std::int64_t keys_over_limit = 0;
    /// The lane's headline burst, its worst key's against that key's own L (judged_burst());
    /// `worst_burst` above is summed over every key, as a simulation's run counts it.
    JudgedBurst judged;
    /// The name of the judged burst's key when the trace has several keys; else empty.
    std::string worst_key;
    /// Whether several keys made requests: the worst key, not the sum, is then held to an L.
    bool several_keys = false;
    /// 100 x rejected / requests, exact; 0 for no requests.
    Rational rejected_percent() const;
    /// worst burst / L, exact.
    Rational burst_ratio() const { return Rational(worst_burst.cost, limit); }
    friend bool operator==(const SweepRow&, const SweepRow&) = default;
};

/// Every row of a sweep, point after point and, within a point, lane after lane.
struct SweepResult {
    std::vector<SweepAxis> axes;
    std::vector<Lane> lanes;
    std::vector<std::string> labels;  ///< one per lane, as simulate() labels its runs
    std::size_t points = 0;
    std::vector<SweepRow> rows;

    const SweepRow& row(std::size_t point, std::size_t lane) const {
        return rows[point * lanes.size() + lane];
    }
};

struct SweepOptions {
    /// Threads that run points side by side; 0 picks one per core. The rows do not depend on it.
    unsigned threads = 0;
    /// Called after each run with the runs done and the runs in all, one call at a time, from
    /// whichever thread finished the run.
    std::function<void(std::size_t done, std::size_t total)> progress;
    /// When given, each run watches it as simulate() does, and a sweep told to stop throws
    /// SimulationCancelled without starting more runs (the app's Sweep panel cancels a stale one).
    RunControl* control = nullptr;
};

/// The nearest-rank 95th percentile of `values` (reordered), nothing when empty.
std::optional<Rational> percentile_95(std::vector<Rational>& values);

/// Runs every lane of sweep_lanes() at every point of `axes` over `trace`. A lane whose axes all
/// stand still between two points (a token_bucket lane while gcra.burst varies) is run once and
/// its row repeated. Each row equals the totals, worst burst and delays that simulate() gives at
/// that point. Throws SimulationError for an invalid trace, an invalid point (naming it), an
/// axis without values or naming no lane's algorithm, or more than kMaxSweepPoints points.
SweepResult sweep(const Trace& trace, const Params& params, const std::vector<SweepAxis>& axes,
                  const SweepOptions& options = {});

/// The closed forms of one token_bucket or gcra lane at one point (fit_zero_rejections()).
struct FitSweepRow {
    std::size_t point = 0;
    std::size_t lane = 0;            ///< index into FitSweepResult::lanes
    std::vector<ParamValue> values;  ///< the point's value of each axis
    LaneFit fit;
};

/// Every fit of a sweep, point after point and, within a point, lane after lane; only lanes
/// that have_zero_rejection_fit() have rows.
struct FitSweepResult {
    std::vector<SweepAxis> axes;
    std::vector<Lane> lanes;          ///< every lane of the sweep, as sweep() gives them
    std::vector<std::string> labels;  ///< one per lane
    std::size_t points = 0;
    std::vector<FitSweepRow> rows;
};

/// fit_zero_rejections() for every token_bucket and gcra lane of sweep_lanes() at every point
/// of `axes` (one point when there are none), shared out over the cores as sweep() does, and
/// computed once for points that differ only in axes that do not move the lane. Throws as
/// sweep() does, and SimulationError when no lane is a token_bucket or gcra.
FitSweepResult sweep_fits(const Trace& trace, const Params& params,
                          const std::vector<SweepAxis>& axes, const SweepOptions& options = {});

/// Where a token_bucket or gcra lane stops rejecting along a sweep's first axis, from the closed
/// forms (fit_zero_rejections()), exactly and wherever it falls between the axis's values.
struct ZeroRejectionFrontier {
    std::string parameter;  ///< the first axis's: capacity, burst, refill_rate, emission_interval
    /// False: the lane rejects nothing at this value and above (a capacity, a burst, a rate);
    /// true: at this value and below (an emission interval).
    bool at_most = false;
    /// One per value of the second axis (a single one without it): the boundary at that value,
    /// or nothing where none lies on the axis (no rate would do, or any would).
    std::vector<std::optional<Rational>> rows;
    friend bool operator==(const ZeroRejectionFrontier&, const ZeroRejectionFrontier&) = default;
};

/// The frontier of lane `lane` (an index into sweep_lanes()) when the first of `axes` varies its
/// capacity or rate parameter and the lane is a token_bucket or gcra; nothing otherwise. Throws
/// as fit_zero_rejections() does.
std::optional<ZeroRejectionFrontier> zero_rejection_frontier(const Trace& trace,
                                                             const Params& params,
                                                             const std::vector<SweepAxis>& axes,
                                                             std::size_t lane);

}  // namespace ratelab

namespace ratelab {

/// The smallest limit that keeps one group of keys within a share of rejections.
struct GroupLimitFit {
    /// The key whose own limits (a tier, Params::keys) the group is; empty for the keys that
    /// have none and take the trace's base limits.
    std::string key;
    bool has_own_limits = false;
    std::int64_t requests = 0;
    /// The smallest candidate L at which the lane rejects at most the share of the group's
    /// requests; nothing when no candidate does.
    std::optional<std::int64_t> limit;
    /// The rejected share at `limit` (100 x rejected / requests), exact.
    Rational rejected_percent;
};

/// For `lane`, the smallest of `candidates` (limits, ascending) at which it rejects at most
/// `max_percent` of a group's requests, for each group of keys that made requests: first the
/// keys without limits of their own (their L is the base L), then each key with its own limits
/// (its L in place of the tier's, its W kept), by name. Keys are decided apart, so each group
/// is swept alone. Throws as sweep() does.
std::vector<GroupLimitFit> smallest_limits(const Trace& trace, const Params& params,
                                           const Lane& lane,
                                           const std::vector<std::int64_t>& candidates,
                                           const Rational& max_percent,
                                           const SweepOptions& options = {});

}  // namespace ratelab
