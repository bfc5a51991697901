#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <memory>

#include "ratelab/simulation.h"

namespace ratelab::ui {

/// Runs a simulation that may take long on a thread of its own, so that the window keeps
/// painting, and behind a progress dialog with a Cancel button once it has taken more than a
/// moment. Until the dialog shows, input is held back (it cannot start another edit), and the
/// dialog is modal.
///
/// Small work runs at once on the calling thread: most edits take milliseconds, and a thread
/// and an event loop would only add to them.
class SimulationRun {
public:
    using Work = std::function<std::shared_ptr<const SimulationResult>(const RunOptions&)>;

    /// Decisions above which a simulation runs off the main thread: about a tenth of a second.
    static constexpr std::uint64_t kBackgroundDecisions = 4'000'000;
    /// How long the work runs before the dialog shows.
    static constexpr int kDialogDelayMs = 400;

    /// Runs `work`, which decides about `decisions` requests (summed over lanes), and returns
    /// its result or throws what it threw: SimulationCancelled when the user cancelled. `what`
    /// is the dialog's text, e.g. "Simulating big.json…".
    static std::shared_ptr<const SimulationResult> run(const Work& work, std::uint64_t decisions,
                                                       const QString& what);

    /// For tests: the dialog shows after `ms` instead of kDialogDelayMs.
    static void setDialogDelayForTest(int ms);
};

/// What simulating `trace` with `params` costs, in decisions: requests times lanes, plus the
/// cost units, which a leaky bucket over keys with different drain intervals counts one by one.
std::uint64_t estimatedDecisions(const Trace& trace, const Params& params);

/// Whether simulating `trace` with `params` goes behind the progress dialog: estimatedDecisions()
/// over SimulationRun::kBackgroundDecisions. Without a pass over the requests' costs when their
/// count alone says so, as it is asked after every edit.
bool simulatesInBackground(const Trace& trace, const Params& params);

}  // namespace ratelab::ui
