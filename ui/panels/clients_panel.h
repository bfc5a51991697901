#pragma once

#include <QWidget>
#include <memory>
#include <thread>
#include <vector>

#include "charts/chart_spec.h"
#include "ratelab/clients.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableWidget;
class QToolButton;
class QTimer;

namespace ratelab::ui {

class ChartView;
class DockPresence;
class Session;
struct LaneRetries;

/// The offered attempts, the accepted ones (goodput) and the rejected ones per tick of one
/// lane's clients, at most `columns` points a line (the largest of each span, so peaks stay).
ChartSpec clientAttemptsSpec(const AttemptsPerTick& per_tick, const QString& lane, int columns);
/// Each lane's time to success at the 95th percentile, a bar each in the lane's colour.
ChartSpec clientTimeSpec(const std::vector<QString>& lanes, const std::vector<QColor>& colours,
                         const std::vector<IntentFigures>& figures);

/// The Clients tab: the open trace's requests as intents of clients that answer back with the
/// chosen policy (give_up, immediate, fixed, backoff, retry_after, paced, with the CLI's
/// parameters). Figures: a row per shown lane, intents served and abandoned, attempts,
/// rejections, and time to success. Charts: the chosen lane's attempts per tick, and every
/// lane's time to success. Runs happen on a thread of their own, only while the tab is raised.
class ClientsPanel : public QWidget {
    Q_OBJECT

public:
    explicit ClientsPanel(Session* session, QWidget* parent = nullptr);
    ~ClientsPanel() override;

    /// The policy as the CLI's --client writes it ("backoff:base=2,jitter=full").
    QString policyText() const;
    /// Sets the policy from text in that form; false (and the reason in the status) when it is
    /// not one.
    bool setPolicyText(const QString& text);
    /// For tests: starts a run now, and whether one is running.
    void runNow();
    bool isRunning() const { return running_ != nullptr; }
    QTableWidget* table() const { return table_; }
    QString status() const { return status_text_; }
    const ChartSpec& attemptsSpec() const;
    const ChartSpec& timeSpec() const;
    /// The lane whose attempts the chart shows (an index into runs()).
    QComboBox* laneBox() const { return lane_; }
    /// Shows the charts instead of the figures, or back.
    void showCharts(bool charts);
    /// Tall enough for the table's rows or the charts.
    QSize sizeHint() const override;
    /// The runs on show, one per shown lane.
    const std::vector<ClientRun>& runs() const { return runs_; }

    /// Intents beyond which the tab points to the command line instead of running.
    static constexpr std::size_t kMaxIntents = 200'000;

    /// Whether the retries are drawn on the timeline's lanes.
    QCheckBox* onLanesBox() const { return on_lanes_; }

Q_SIGNALS:
    /// A run finished and is on show.
    void runShown();
    /// The retries to draw on the timeline's lanes (for the result they were run on), or null
    /// when none should be drawn.
    void retriesChanged(std::shared_ptr<const ratelab::ui::LaneRetries> retries);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Job;
    void schedule();
    void finished(std::shared_ptr<Job> job);
    void showChosenLane();
    void showStatus(const QString& text, bool problem);

    Session* session_;
    QComboBox* kind_;
    QComboBox* lane_;
    QToolButton* show_figures_;
    QToolButton* show_charts_;
    QCheckBox* on_lanes_;
    QStackedWidget* pages_;
    QLineEdit* options_;
    QLabel* status_;
    QString status_text_;
    QTableWidget* table_;
    ChartView* attempts_;
    ChartView* time_;
    QTimer* debounce_;
    DockPresence* presence_ = nullptr;
    bool stale_ = true;
    ClientPolicy policy_;
    std::shared_ptr<Job> running_;
    std::vector<std::shared_ptr<Job>> retired_;
    std::vector<ClientRun> runs_;
    std::shared_ptr<const LaneRetries> retries_;  // of runs_
    std::vector<QString> lane_names_;
    std::vector<QColor> lane_colours_;
};

}  // namespace ratelab::ui
