// The bucket closed forms over a sweep's points, shared out over the cores.
#include <algorithm>
#include <mutex>

#include "ratelab/simulation.h"
#include "ratelab/sweep.h"
#include "sweep_support.h"

namespace ratelab {

FitSweepResult sweep_fits(const Trace& trace, const Params& params,
                          const std::vector<SweepAxis>& axes, const SweepOptions& options) {
    const detail::SweepPlan plan = detail::plan_sweep(trace, params, axes);
    FitSweepResult result;
    result.axes = axes;
    result.lanes = plan.lanes;
    result.points = plan.points;
    result.labels = plan.labels;
    const std::size_t lanes = result.lanes.size();
    std::vector<std::size_t> fitted;  // point * lanes + lane, in output order
    for (std::size_t index = 0; index < plan.shared.size(); ++index) {
        if (has_zero_rejection_fit(result.lanes[index % lanes].algorithm))
            fitted.push_back(index);
    }
    if (fitted.empty())
        throw SimulationError("no token_bucket or gcra lane to fit");
    std::vector<std::size_t> tasks;  // positions in `fitted` that share no other point's fit
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        if (plan.shared[fitted[i]] == fitted[i] / lanes)
            tasks.push_back(i);
    }
    result.rows.resize(fitted.size());
    std::mutex progress_lock;
    std::size_t done = 0;
    detail::share_out(tasks.size(), detail::sweep_threads(options.threads, tasks.size()),
                      [&](std::size_t t) {
                          const std::size_t index = fitted[tasks[t]];
                          const Params& point = plan.point_params[index / lanes];
                          result.rows[tasks[t]].fit =
                              fit_zero_rejections(trace, point, point.lanes[index % lanes]);
                          if (options.progress) {
                              const std::lock_guard<std::mutex> lock(progress_lock);
                              options.progress(++done, tasks.size());
                          }
                      });
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        const std::size_t p = fitted[i] / lanes;
        const std::size_t l = fitted[i] % lanes;
        FitSweepRow& row = result.rows[i];
        if (const std::size_t shared = plan.shared[fitted[i]]; shared != p) {
            // The fitted entries of a point are in lane order, so the shared point's is found
            // by its index.
            const auto it = std::lower_bound(fitted.begin(), fitted.end(), shared * lanes + l);
            row.fit = result.rows[static_cast<std::size_t>(it - fitted.begin())].fit;
        }
        row.point = p;
        row.lane = l;
        row.values = sweep_point_values(axes, p);
    }
    return result;
}

std::optional<ZeroRejectionFrontier> zero_rejection_frontier(const Trace& trace,
                                                             const Params& params,
                                                             const std::vector<SweepAxis>& axes,
                                                             std::size_t lane) {
    if (axes.empty() || axes.front().target.kind != SweepTarget::Kind::lane_parameter ||
        !has_zero_rejection_fit(axes.front().target.algorithm))
        return std::nullopt;
    const SweepTarget& target = axes.front().target;
    const std::vector<Lane> lanes = sweep_lanes(params, axes);
    if (lane >= lanes.size() || lanes[lane].algorithm != target.algorithm)
        return std::nullopt;
    ZeroRejectionFrontier frontier;
    frontier.parameter = target.parameter;
    frontier.at_most = target.parameter == "emission_interval";
    // The first axis varies slowest: the points 0 .. rows - 1 hold its first value beside each
    // value of the second axis, and a fit does not depend on the value of the axis it answers.
    const std::size_t rows = axes.size() > 1 ? axes[1].values.size() : 1;
    for (std::size_t row = 0; row < rows; ++row) {
        const Params point = sweep_point_params(params, axes, row);
        const LaneFit fit = fit_zero_rejections(trace, point, sweep_lanes(point, axes)[lane]);
        std::optional<Rational> value;
        if (target.parameter == fit.capacity_parameter) {
            value = Rational(fit.fleet.capacity);
        } else if (target.parameter == fit.rate_parameter && fit.fleet.rate &&
                   *fit.fleet.rate > Rational(0)) {
            value = frontier.at_most ? Rational(1) / *fit.fleet.rate : *fit.fleet.rate;
        }
        frontier.rows.push_back(value);
    }
    return frontier;
}

}  // namespace ratelab
