// Parameter sweeps: one run per lane and point, shared out over the cores, each run writing only
// its own row so that the rows come out the same whatever the thread count.
#include "ratelab/sweep.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <numeric>
#include <thread>
#include <utility>

#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "sweep_support.h"

namespace ratelab {

std::string SweepTarget::name() const {
    switch (kind) {
        case Kind::limit:
            return "limit";
        case Kind::window:
            return "window";
        case Kind::lane_parameter:
            break;
    }
    return algorithm + "." + parameter;
}

Rational SweepRow::rejected_percent() const {
    const std::int64_t requests = totals.accepted + totals.rejected;
    return requests == 0 ? Rational(0) : Rational(100 * totals.rejected, requests);
}

std::size_t sweep_point_count(const std::vector<SweepAxis>& axes) {
    std::size_t count = 1;
    for (const SweepAxis& axis : axes) {
        if (axis.values.empty())
            return 0;
        // Saturates instead of overflowing: anything past the bound is refused anyway.
        count = count > kMaxSweepPoints ? count : count * axis.values.size();
    }
    return count;
}

namespace {

/// The rank, counted from 1, of the nearest-rank 95th percentile of `count` values.
std::size_t nearest_rank_95(std::size_t count) {
    return (95 * count + 99) / 100;
}

/// The index each axis takes at `point`: the last axis varies fastest.
std::vector<std::size_t> point_indices(const std::vector<SweepAxis>& axes, std::size_t point) {
    std::vector<std::size_t> indices(axes.size(), 0);
    for (std::size_t a = axes.size(); a-- > 0;) {
        indices[a] = point % axes[a].values.size();
        point /= axes[a].values.size();
    }
    return indices;
}

std::size_t point_of(const std::vector<SweepAxis>& axes, const std::vector<std::size_t>& indices) {
    std::size_t point = 0;
    for (std::size_t a = 0; a < axes.size(); ++a)
        point = point * axes[a].values.size() + indices[a];
    return point;
}

/// Whether moving along `target` can change what `lane` decides.
bool moves(const SweepTarget& target, const Lane& lane) {
    return target.kind != SweepTarget::Kind::lane_parameter || target.algorithm == lane.algorithm;
}

/// The point whose run `lane` shares with `point`: the axes that do not move the lane at their
/// first value.
std::size_t shared_point(const std::vector<SweepAxis>& axes, const Lane& lane, std::size_t point) {
    std::vector<std::size_t> indices = point_indices(axes, point);
    for (std::size_t a = 0; a < axes.size(); ++a) {
        if (!moves(axes[a].target, lane))
            indices[a] = 0;
    }
    return point_of(axes, indices);
}

std::string point_text(const std::vector<SweepAxis>& axes, const std::vector<ParamValue>& values) {
    std::string text;
    for (std::size_t a = 0; a < axes.size(); ++a)
        text += (a == 0 ? "" : ", ") + axes[a].target.name() + "=" + to_text(values[a]);
    return text;
}

/// The labels simulate() gives these lanes: numbered where two would read the same.
std::vector<std::string> labels_of(const std::vector<Lane>& lanes) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const std::string label = lane_label(lanes[i]);
        int same = 1;
        for (std::size_t j = 0; j < i; ++j)
            same += lane_label(lanes[j]) == label ? 1 : 0;
        labels.push_back(same == 1 ? label : label + " (" + std::to_string(same) + ")");
    }
    return labels;
}

void check_axes(const std::vector<SweepAxis>& axes, const std::vector<Lane>& lanes) {
    for (const SweepAxis& axis : axes) {
        if (axis.values.empty())
            throw SimulationError(axis.target.name() + " has no values");
        if (axis.target.kind != SweepTarget::Kind::lane_parameter)
            continue;
        const bool runs = std::any_of(lanes.begin(), lanes.end(), [&axis](const Lane& lane) {
            return lane.algorithm == axis.target.algorithm;
        });
        if (!runs) {
            throw SimulationError(axis.target.name() + " varies " + axis.target.algorithm +
                                  ", which no lane runs");
        }
    }
    if (sweep_point_count(axes) > kMaxSweepPoints) {
        throw SimulationError("a sweep has at most " + std::to_string(kMaxSweepPoints) + " points");
    }
}

}  // namespace

namespace detail {

unsigned sweep_threads(unsigned asked, std::size_t tasks) {
    static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned wanted = asked != 0 ? asked : cores;
    return std::max(
        1u, std::min<unsigned>(wanted, static_cast<unsigned>(std::min<std::size_t>(tasks, 1024))));
}

SweepPlan plan_sweep(const Trace& trace, const Params& params, const std::vector<SweepAxis>& axes) {
    if (auto errors = validate(trace); !errors.empty())
        throw SimulationError("trace: " + errors.front());
    SweepPlan plan;
    plan.lanes = sweep_lanes(params, axes);
    plan.labels = labels_of(plan.lanes);
    check_axes(axes, plan.lanes);
    plan.points = sweep_point_count(axes);
    for (std::size_t p = 0; p < plan.points; ++p) {
        plan.point_params.push_back(sweep_point_params(params, axes, p));
        if (auto errors = validate(plan.point_params.back()); !errors.empty()) {
            throw SimulationError("point " + std::to_string(p + 1) + " (" +
                                  point_text(axes, sweep_point_values(axes, p)) +
                                  "): " + errors.front());
        }
        for (const Lane& lane : plan.lanes)
            plan.shared.push_back(shared_point(axes, lane, p));
    }
    return plan;
}

}  // namespace detail

namespace {

/// The accepted requests' delays of a shaper's run, all over one common denominator.
struct ScaledDelays {
    std::vector<std::int64_t> numerators;
    std::int64_t denominator = 1;
    std::int64_t largest = 0;
};

/// ScaledDelays in one pass, or nothing when the common denominator or a numerator would not
/// fit in 64 bits. Delays have the few denominators of each tier's drain interval: each
/// is divided into the common one once, not once per request, which would cost as much as the
/// run's own decisions.
std::optional<ScaledDelays> scaled_delays(const AlgorithmRun& run) {
    constexpr std::int64_t kMaxDen = std::int64_t{1} << 40;
    constexpr Int128 kMaxNum = std::numeric_limits<std::int64_t>::max();
    ScaledDelays out;
    std::vector<std::pair<std::int64_t, std::int64_t>> factors;  // den, common den / den
    const auto factor_of = [&](std::int64_t den) -> std::optional<std::int64_t> {
        for (const auto& [known, factor] : factors) {
            if (known == den)
                return factor;
        }
        if (out.denominator % den != 0) {
            const std::int64_t common = std::lcm(out.denominator, den);
            const std::int64_t scale = common / out.denominator;
            if (common > kMaxDen || static_cast<Int128>(out.largest) * scale > kMaxNum)
                return std::nullopt;
            for (std::int64_t& numerator : out.numerators)
                numerator *= scale;
            out.largest *= scale;
            out.denominator = common;
            factors.clear();
        }
        factors.emplace_back(den, out.denominator / den);
        return factors.back().second;
    };
    out.numerators.reserve(static_cast<std::size_t>(run.totals.accepted));
    for (std::size_t i = 0; i < run.decisions.size(); ++i) {
        if (!run.accepted(i))
            continue;
        const Rational delay = run.delay(i);
        const auto factor = delay.den() == 1 ? out.denominator : factor_of(delay.den());
        if (!factor)
            return std::nullopt;
        const Int128 scaled = static_cast<Int128>(delay.num()) * *factor;
        if (scaled > kMaxNum)
            return std::nullopt;
        out.numerators.push_back(static_cast<std::int64_t>(scaled));
        out.largest = std::max(out.largest, out.numerators.back());
    }
    return out;
}

/// The `rank`-th smallest (from 1) of `values`, all in [0, largest]: counted when the range is
/// small next to the count, as a shaper's delays mostly are, else by selection.
std::int64_t nth_smallest(std::vector<std::int64_t>& values, std::size_t rank,
                          std::int64_t largest) {
    if (largest <= static_cast<std::int64_t>(2 * values.size())) {
        std::vector<std::uint32_t> counts(static_cast<std::size_t>(largest) + 1, 0);
        for (const std::int64_t value : values)
            ++counts[static_cast<std::size_t>(value)];
        std::size_t seen = 0;
        for (std::size_t value = 0; value < counts.size(); ++value) {
            seen += counts[value];
            if (seen >= rank)
                return static_cast<std::int64_t>(value);
        }
    }
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

/// The 95th percentile of a shaper's delays: on whole numbers over a common denominator, which
/// is many times quicker to order than a million fractions.
std::optional<Rational> p95_delay(const AlgorithmRun& run) {
    if (auto scaled = scaled_delays(run)) {
        std::vector<std::int64_t>& values = scaled->numerators;
        if (values.empty())
            return std::nullopt;
        return Rational(nth_smallest(values, nearest_rank_95(values.size()), scaled->largest),
                        scaled->denominator);
    }
    std::vector<Rational> delays;
    for (std::size_t i = 0; i < run.decisions.size(); ++i) {
        if (run.accepted(i))
            delays.push_back(run.delay(i));
    }
    return percentile_95(delays);
}

/// The row of one run: its totals, worst burst and, for a shaper, its delays' 95th percentile.
SweepRow row_of(const AlgorithmRun& run) {
    SweepRow row;
    row.releases = run.releases;
    row.totals = run.totals;
    row.worst_burst = run.worst_burst;
    if (run.releases && run.has_decisions())
        row.p95_delay = p95_delay(run);
    return row;
}

/// Fills the row's key counts from `run`, the lane's run at point `point`.
void count_keys(const std::shared_ptr<const Trace>& trace, std::optional<KeyId> sole_key,
                const Params& point, Params lane_params, AlgorithmRun run, SweepRow& row) {
    SimulationResult result;
    result.trace = trace;
    result.params = point;
    result.lanes = lane_params.lanes;
    result.lane_params = {std::move(lane_params)};
    result.runs.push_back(std::move(run));
    result.sole_key = sole_key;
    row.several_keys = !sole_key && !trace->requests.empty();
    if (!has_key_figures(result, 0)) {
        row.judged = judged_burst(result, 0, nullptr, result.runs[0]);
        return;
    }
    const LaneKeys keys = key_figures(result, 0);
    row.keys = static_cast<std::int64_t>(keys.keys.size());
    for (const KeyFigures& key : keys.keys)
        row.keys_over_limit += key.over_limit() ? 1 : 0;
    row.judged = judged_burst(result, 0, &keys, result.runs[0]);
    row.several_keys = !sole_key && !trace->requests.empty();
    if (row.several_keys && row.judged.key)
        row.worst_key = trace->key_name(*row.judged.key);
}

}  // namespace

std::vector<ParamValue> sweep_point_values(const std::vector<SweepAxis>& axes, std::size_t point) {
    const std::vector<std::size_t> indices = point_indices(axes, point);
    std::vector<ParamValue> values;
    for (std::size_t a = 0; a < axes.size(); ++a)
        values.push_back(axes[a].values[indices[a]]);
    return values;
}

Params sweep_point_params(const Params& params, const std::vector<SweepAxis>& axes,
                          std::size_t point) {
    Params out = params;
    out.lanes = sweep_lanes(params, axes);
    const std::vector<ParamValue> values = sweep_point_values(axes, point);
    for (std::size_t a = 0; a < axes.size(); ++a) {
        const SweepTarget& target = axes[a].target;
        const ParamValue& value = values[a];
        const auto* whole = std::get_if<Rational>(&value);
        switch (target.kind) {
            case SweepTarget::Kind::limit:
                out.base.limit = whole != nullptr ? whole->num() : 0;
                break;
            case SweepTarget::Kind::window:
                out.base.window = whole != nullptr ? whole->num() : 0;
                break;
            case SweepTarget::Kind::lane_parameter:
                for (Lane& lane : out.lanes) {
                    if (lane.algorithm == target.algorithm)
                        lane.params[target.parameter] = value;
                }
                break;
        }
    }
    return out;
}

std::vector<Lane> sweep_lanes(const Params& params, const std::vector<SweepAxis>& axes) {
    if (!params.lanes.empty())
        return params.lanes;
    std::vector<Lane> named;
    for (const SweepAxis& axis : axes) {
        if (axis.target.kind != SweepTarget::Kind::lane_parameter)
            return default_lanes();
        const bool known = std::any_of(named.begin(), named.end(), [&axis](const Lane& lane) {
            return lane.algorithm == axis.target.algorithm;
        });
        if (!known)
            named.push_back(Lane{axis.target.algorithm, {}, {}, false});
    }
    return named.empty() ? default_lanes() : named;
}

std::optional<std::size_t> sweep_point_of(const std::vector<SweepAxis>& axes, const Params& params,
                                          const Lane& lane) {
    const Params lane_params = params_for_lane(params, lane);
    const AlgorithmInfo* info = Registry::instance().find(lane.algorithm);
    std::size_t point = 0;
    for (const SweepAxis& axis : axes) {
        std::optional<ParamValue> now;
        switch (axis.target.kind) {
            case SweepTarget::Kind::limit:
                now = Rational(params.base.limit);
                break;
            case SweepTarget::Kind::window:
                now = Rational(params.base.window);
                break;
            case SweepTarget::Kind::lane_parameter:
                if (info != nullptr && axis.target.algorithm == lane.algorithm) {
                    const ParamValues values = resolved_params(*info, lane_params.base);
                    if (const auto it = values.find(axis.target.parameter); it != values.end())
                        now = it->second;
                }
                break;
        }
        const auto at =
            now ? std::find(axis.values.begin(), axis.values.end(), *now) : axis.values.end();
        if (at == axis.values.end())
            return std::nullopt;
        point = point * axis.values.size() + static_cast<std::size_t>(at - axis.values.begin());
    }
    return point;
}

std::optional<Rational> percentile_95(std::vector<Rational>& values) {
    if (values.empty())
        return std::nullopt;
    // Nearest rank: the ceil(95 n / 100)-th smallest, counted from 1.
    const auto nth =
        values.begin() + static_cast<std::ptrdiff_t>(nearest_rank_95(values.size()) - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

SweepResult sweep(const Trace& trace, const Params& params, const std::vector<SweepAxis>& axes,
                  const SweepOptions& options) {
    const detail::SweepPlan plan = detail::plan_sweep(trace, params, axes);
    // The runs are judged per key as a simulation's are, over the caller's trace.
    const std::shared_ptr<const Trace> shared_trace(std::shared_ptr<const Trace>(), &trace);
    const std::optional<KeyId> sole_key = only_key(trace);
    SweepResult result;
    result.axes = axes;
    result.lanes = plan.lanes;
    result.labels = plan.labels;
    result.points = plan.points;
    std::vector<std::unique_ptr<Algorithm>> algorithms;
    for (const Lane& lane : result.lanes)
        algorithms.push_back(Registry::instance().find(lane.algorithm)->make());

    // Only the runs no other point shares are made; the others copy their rows afterwards.
    const std::size_t lanes = result.lanes.size();
    std::vector<std::size_t> tasks;  // row indices
    for (std::size_t row = 0; row < plan.shared.size(); ++row) {
        if (plan.shared[row] == row / lanes)
            tasks.push_back(row);
    }
    result.rows.resize(plan.points * lanes);
    std::mutex progress_lock;
    std::size_t done = 0;
    detail::share_out(
        tasks.size(), detail::sweep_threads(options.threads, tasks.size()), [&](std::size_t t) {
            const std::size_t p = tasks[t] / lanes;
            const std::size_t l = tasks[t] % lanes;
            if (options.control != nullptr && options.control->stop)
                throw SimulationCancelled();
            RunOptions run_options;
            run_options.threads = 1;
            run_options.control = options.control;
            const Params& point = plan.point_params[p];
            // A shaper's delays need the decisions, for their percentile, and so do the keys'
            // own figures when there are several keys.
            run_options.keep_decisions =
                Registry::instance().find(result.lanes[l].algorithm)->releases || !sole_key ||
                point.for_key(trace.key_name(*sole_key)).window != point.base.window;
            Params lane_params = params_for_lane(point, point.lanes[l]);
            AlgorithmRun run = algorithms[l]->run(trace, lane_params, run_options);
            result.rows[tasks[t]] = row_of(run);
            count_keys(shared_trace, sole_key, point, std::move(lane_params), std::move(run),
                       result.rows[tasks[t]]);
            if (options.progress) {
                const std::lock_guard<std::mutex> lock(progress_lock);
                options.progress(++done, tasks.size());
            }
        });
    for (std::size_t index = 0; index < result.rows.size(); ++index) {
        const std::size_t p = index / lanes;
        const std::size_t l = index % lanes;
        SweepRow& row = result.rows[index];
        if (plan.shared[index] != p)
            row = result.rows[plan.shared[index] * lanes + l];
        row.point = p;
        row.lane = l;
        row.values = sweep_point_values(axes, p);
        row.limit = plan.point_params[p].base.limit;
    }
    return result;
}

}  // namespace ratelab
