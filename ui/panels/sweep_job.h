#pragma once
// One sweep of the Sweep panel, run on a thread of its own: what it was given and what it found.

#include <QString>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "ratelab/sweep.h"

namespace ratelab::ui {

struct SweepJob {
    std::shared_ptr<const Trace> trace;
    Params params;  ///< with `lane` as its only lane
    std::vector<SweepAxis> axes;
    Lane lane;
    /// Also find the smallest of `candidates` (limits) rejecting at most `share` percent.
    bool want_fits = false;
    std::vector<std::int64_t> candidates;
    Rational share;

    RunControl control;
    std::optional<SweepResult> result;
    std::vector<GroupLimitFit> fits;
    /// Where the closed form says the lane stops rejecting along the first axis, when it has one.
    std::optional<ZeroRejectionFrontier> frontier;
    QString error;
    std::thread thread;

    /// The inputs, for telling whether a new sweep would find anything new.
    bool sameInputs(const SweepJob& other) const;
    /// Sweeps, and finds the fits and the frontier; a failure leaves `result` empty and says why
    /// in `error` (nothing when it was cancelled).
    void run();
};

}  // namespace ratelab::ui
