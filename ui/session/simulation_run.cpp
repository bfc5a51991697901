#include "session/simulation_run.h"

#include <QApplication>
#include <QEventLoop>
#include <QLocale>
#include <QProgressDialog>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace ratelab::ui {
namespace {

int dialog_delay_ms = SimulationRun::kDialogDelayMs;

}  // namespace

void SimulationRun::setDialogDelayForTest(int ms) {
    dialog_delay_ms = ms;
}

std::shared_ptr<const SimulationResult> SimulationRun::run(const Work& work,
                                                           std::uint64_t decisions,
                                                           const QString& what) {
    // The app shows one key's state at the clock and edits a few keys at a time: with many
    // keys, each run holds where every key's requests are.
    RunOptions options;
    options.index_keys = true;
    // Without widgets (a test, a tool) there is no dialog to show: the work runs here.
    if (decisions <= kBackgroundDecisions ||
        qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr)
        return work(options);

    RunControl control;
    options.control = &control;
    std::shared_ptr<const SimulationResult> result;
    std::exception_ptr error;
    std::atomic<bool> done{false};
    QEventLoop loop;
    std::thread worker([&] {
        try {
            result = work(options);
        } catch (...) {
            error = std::current_exception();
        }
        done = true;
        // Wakes the loop at once rather than at its next poll.
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });

    // First a moment with input held back: the window paints, but no click starts an edit.
    QTimer moment;
    moment.setSingleShot(true);
    moment.start(dialog_delay_ms);
    while (!done && moment.isActive())
        loop.processEvents(QEventLoop::ExcludeUserInputEvents | QEventLoop::WaitForMoreEvents);

    if (!done) {
        QProgressDialog dialog(what, QApplication::translate("SimulationRun", "Cancel"), 0, 1000,
                               QApplication::activeWindow());
        dialog.setWindowTitle(QApplication::translate("SimulationRun", "Simulating"));
        dialog.setWindowModality(Qt::ApplicationModal);
        dialog.setMinimumDuration(0);
        dialog.setAutoClose(false);
        dialog.setAutoReset(false);
        QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [&] {
            control.stop = true;
            dialog.setLabelText(QApplication::translate("SimulationRun", "Stopping…"));
        });
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &dialog, [&] {
            if (done) {
                loop.quit();
                return;
            }
            const double part = decisions == 0 ? 0.0
                                               : static_cast<double>(control.decided.load()) /
                                                     static_cast<double>(decisions);
            dialog.setValue(static_cast<int>(std::min(part, 1.0) * 999));
        });
        poll.start(50);
        dialog.show();
        while (!done)
            loop.exec();
    }
    worker.join();
    if (error)
        std::rethrow_exception(error);
    return result;
}

std::uint64_t estimatedDecisions(const Trace& trace, const Params& params) {
    const std::uint64_t lanes = lanes_of(without_hidden_lanes(params)).size();
    std::uint64_t units = 0;  // with tiers, a shaper's worst burst may go unit by unit
    if (!params.keys.empty()) {
        for (const Request& r : trace.requests)
            units += r.cost;
    }
    return lanes * trace.requests.size() + units;
}

bool simulatesInBackground(const Trace& trace, const Params& params) {
    const std::uint64_t lanes = lanes_of(without_hidden_lanes(params)).size();
    return lanes * trace.requests.size() > SimulationRun::kBackgroundDecisions ||
           estimatedDecisions(trace, params) > SimulationRun::kBackgroundDecisions;
}

}  // namespace ratelab::ui
