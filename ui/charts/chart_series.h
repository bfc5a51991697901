#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "ratelab/series.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

/// The series the live charts draw, computed when first asked for: at once for a small trace,
/// on a thread of their own for a big one, so that the window stays in use meanwhile.
///
/// It holds the series of one result and one choice of keys at a time; drop() forgets them when
/// either changes, and stops a thread still computing them. Series of ten million requests take
/// about a gigabyte, which takes tens of milliseconds to hand back: those are let go on a thread
/// too.
class ChartSeries : public QObject {
    Q_OBJECT

public:
    /// Requests from which the series are computed on a thread: about a tenth of a second of
    /// work. Smaller traces are computed at once.
    static constexpr std::size_t kBackgroundRequests = 200'000;
    /// How long a thread waits to start, computing series or letting go of them: an edit's own
    /// work is done by then, and a run of edits (a drag) starts none.
    static constexpr int kStartDelayMs = 250;

    explicit ChartSeries(QObject* parent = nullptr);
    /// Stops every thread and waits for it.
    ~ChartSeries() override;

    /// Those series are no longer wanted: the next get() computes others.
    void drop();
    /// The series of `result` with `keys` chosen (empty: every key) when they are ready. A big
    /// trace's are started on a thread the first time (computed() says when they are ready) and
    /// this is empty until then, or when they could not be computed (error()).
    std::shared_ptr<const ResultSeries> get(const std::shared_ptr<const SimulationResult>& result,
                                            const std::vector<KeyId>& keys);
    /// The same, waiting for the thread computing them, or computing them here (exports).
    std::shared_ptr<const ResultSeries> wait(const std::shared_ptr<const SimulationResult>& result,
                                             const std::vector<KeyId>& keys);
    /// Whether the series wanted are being computed on a thread, or about to be.
    bool computing() const { return job_ != nullptr; }
    /// Why the series wanted could not be computed (e.g. out of memory); empty otherwise.
    const QString& error() const { return error_; }

Q_SIGNALS:
    /// The thread computing the series wanted has finished: get() has them, or error() says why
    /// not.
    void computed();

private:
    struct Job;
    /// Starts `job` after kStartDelayMs, if it is still wanted then.
    void startSoon(const std::shared_ptr<Job>& job);
    void start(const std::shared_ptr<Job>& job);
    void finished(const std::shared_ptr<Job>& job);
    /// Lets go of `series` on a thread when that takes long.
    void release(std::shared_ptr<const ResultSeries> series);

    std::shared_ptr<const ResultSeries> series_;
    QString error_;
    /// The thread computing the series wanted, and those stopped but not yet finished.
    std::shared_ptr<Job> job_;
    std::vector<std::shared_ptr<Job>> retired_;
};

}  // namespace ratelab::ui
