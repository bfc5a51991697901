#pragma once

#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "fleet/fleet_export.h"
#include "ratelab/fleet.h"
#include "ratelab/io/fleet_file.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;
class QStackedWidget;
class QSpinBox;
class QTimer;
class QToolButton;

namespace ratelab::ui {

class DockPresence;
class FleetCharts;
class FleetView;
class PlaybackClock;
class Session;

/// The Fleet tab: the open trace run by N servers in the chosen placement modes for one lane,
/// drawn by a FleetView, with the controls of the document's fleet settings above it. Every
/// change of a control is one undo step kept in the trace file's "fleet" object; a document
/// without one shows the defaults and stays without until a control changes. Runs happen on a
/// thread of their own; a superseded run is told to stop, and dropped when it ends.
class FleetPanel : public QWidget {
    Q_OBJECT

public:
    FleetPanel(Session* session, PlaybackClock* clock, QWidget* parent = nullptr);
    ~FleetPanel() override;

    /// What a document without fleet settings shows: 4 servers, every mode.
    static io::FleetFile defaults();
    /// The settings the panel shows: the document's, else defaults().
    io::FleetFile shown() const;
    /// For tests: starts a run now, and whether one is running.
    void runNow();
    bool isRunning() const { return running_ != nullptr; }
    /// For tests: runs started and not yet ended, the one on show included.
    std::size_t runsUnderWay() const { return retired_.size() + (running_ ? 1 : 0); }
    /// For tests: runs that stopped part way because a newer one superseded them.
    int cancelledRuns() const { return cancelled_; }
    FleetView* view() const { return view_; }
    FleetCharts* charts() const { return charts_; }
    /// Shows the charts instead of the decisions, or back.
    void showCharts(bool charts);
    /// The timeline's span in ticks, [from, to): the decisions show the same span.
    void setVisibleRange(double from, double to);
    /// Writes the charts or the decisions to `path`, its format from the suffix (.png, .svg,
    /// .pdf); the problem in words, or an empty string. Nothing to export before a run.
    QString exportTo(FleetExport what, const QString& path);
    QToolButton* exportButton() const { return export_; }
    /// The status as plain text: a run's figures, or why a change was refused.
    QString status() const;
    /// Tall enough for the whole view: raising the tab grows the dock to show every row.
    QSize sizeHint() const override;

    // For tests: the controls.
    QComboBox* laneBox() const { return lane_; }
    QSpinBox* serversBox() const { return servers_; }
    QComboBox* balancerBox() const { return balancer_; }
    QToolButton* modeButton(FleetMode mode) const;
    QSpinBox* latencyBox() const { return latency_; }
    QSpinBox* syncBox() const { return sync_; }
    QCheckBox* lostUpdatesBox() const { return lost_updates_; }
    QCheckBox* outageBox() const { return outage_; }
    QSpinBox* outageStartBox() const { return outage_start_; }
    QSpinBox* outageEndBox() const { return outage_end_; }
    QComboBox* policyBox() const { return policy_; }
    QLineEdit* scaleEdit() const { return scale_; }

Q_SIGNALS:
    /// A run finished and is on show.
    void fleetShown();
    /// A mode's row was clicked: the Learn text for it ("fleet_central", ...) is worth showing.
    void learnAbout(const std::string& text_id);
    /// An export was written: what and where, for the status bar.
    void exported(const QString& message);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Job;

    void showSettings();
    /// The controls' settings, or why they cannot be read.
    struct Read {
        io::FleetFile fleet;
        QString problem;
    };
    Read readControls() const;
    /// Keeps what the controls say as one undo step, or says why not and shows the document's.
    void commit(const QString& description);
    void fillLanes(const io::FleetFile& fleet);
    void schedule();
    void finished(std::shared_ptr<Job> job);
    void showProblem(const QString& problem);
    void showStatus(const QString& plain);
    /// Asks where, then exports.
    void exportChosen(FleetExport what);

    Session* session_;
    QComboBox* lane_;
    QSpinBox* servers_;
    QComboBox* balancer_;
    std::array<QToolButton*, 5> modes_{};
    QSpinBox* latency_;
    QSpinBox* sync_;
    QCheckBox* lost_updates_;
    QCheckBox* outage_;
    QSpinBox* outage_start_;
    QSpinBox* outage_end_;
    QComboBox* policy_;
    QLineEdit* scale_;
    QLabel* status_;
    QString status_text_;  // what status_ says, without its markup
    FleetView* view_;
    QScrollArea* scroll_;
    FleetCharts* charts_;
    QStackedWidget* pages_;
    QToolButton* show_decisions_;
    QToolButton* show_charts_;
    QToolButton* export_;
    QTimer* debounce_;
    /// The lanes the lane box offers, in its order.
    std::vector<Lane> lanes_;
    std::shared_ptr<Job> running_;
    std::vector<std::shared_ptr<Job>> retired_;
    bool stale_ = true;
    int cancelled_ = 0;                 ///< runs that stopped because a newer one superseded them
    DockPresence* presence_ = nullptr;  ///< runs only while its tab is raised
};

/// "10:8, 40:2" as scale events (tick:servers), or why not in `problem`.
std::vector<ScaleEvent> parseScaleEvents(const QString& text, QString* problem);
QString scaleEventsText(const std::vector<ScaleEvent>& events);

}  // namespace ratelab::ui
