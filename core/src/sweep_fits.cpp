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

}  // namespace ratelab
