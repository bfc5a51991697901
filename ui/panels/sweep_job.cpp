#include "panels/sweep_job.h"

namespace ratelab::ui {

bool SweepJob::sameInputs(const SweepJob& other) const {
    return trace == other.trace && axes == other.axes && lane == other.lane &&
           want_fits == other.want_fits && share == other.share &&
           sweep_point_params(params, axes, 0) == sweep_point_params(other.params, other.axes, 0);
}

void SweepJob::run() {
    try {
        SweepOptions options;
        options.control = &control;
        result = sweep(*trace, params, axes, options);
        if (want_fits)
            fits = smallest_limits(*trace, params, lane, candidates, share, options);
        frontier = zero_rejection_frontier(*trace, params, axes, 0);
    } catch (const SimulationCancelled&) {
        result.reset();
    } catch (const std::exception& failure) {
        result.reset();
        error = QString::fromLocal8Bit(failure.what());
    }
}

}  // namespace ratelab::ui
