#pragma once

#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/sweep.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace ratelab::ui {

class Session;
class SweepView;
struct SweepJob;
class DockPresence;

/// Which setting fits the trace: one lane run over a range of one parameter (a line) or two (a
/// heatmap), the chart showing rejected %, the worst burst or a delay at every point, the
/// document's own setting marked and, when L varies, the smallest L within a share of
/// rejections for each group of keys. Clicking a point makes it the document's setting (one
/// undoable step). Sweeps run on a thread of their own and start again when the trace or the
/// settings change; a stale one is cancelled.
class SweepPanel : public QWidget {
    Q_OBJECT

public:
    explicit SweepPanel(Session* session, QWidget* parent = nullptr);
    ~SweepPanel() override;

    /// The axes as the fields now say, or why they cannot be read.
    struct Axes {
        std::vector<SweepAxis> axes;
        QString problem;
    };
    Axes axes() const;
    /// The last finished sweep, if any.
    const std::optional<SweepResult>& result() const { return result_; }
    /// The smallest-L answers of the last sweep (when L is its only axis).
    const std::vector<GroupLimitFit>& limitFits() const { return fits_; }
    /// Where the closed form says the lane stops rejecting, when the first axis has one.
    const std::optional<ZeroRejectionFrontier>& frontier() const { return frontier_; }
    SweepView* view() const { return view_; }
    /// Starts a sweep now (the fields' changes start one after a short pause).
    void runNow();
    /// For tests: whether a sweep is running.
    bool isRunning() const { return running_ != nullptr; }

    // For tests and the toolbar of the panel: what the fields hold.
    QComboBox* laneBox() const { return lane_; }
    QComboBox* firstAxisBox() const { return first_; }
    QLineEdit* firstValues() const { return first_values_; }
    QComboBox* secondAxisBox() const { return second_; }
    QLineEdit* secondValues() const { return second_values_; }
    QComboBox* metricBox() const { return metric_; }
    QDoubleSpinBox* shareBox() const { return share_; }

Q_SIGNALS:
    /// A sweep finished and is on show.
    void sweepShown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void fillLanes();
    void fillTargets();
    /// The targets an axis may vary for the chosen lane: L, W and its algorithm's parameters.
    std::vector<SweepTarget> targets() const;
    void suggestValues(QComboBox* box, QLineEdit* values);
    void schedule();
    void finished(std::shared_ptr<SweepJob> job);
    void showResult();
    void showFits();
    void applyPoint(int point);
    void exportImage();
    void exportCsv();
    Lane chosenLane() const;

    Session* session_;
    QComboBox* lane_;
    QComboBox* first_;
    QLineEdit* first_values_;
    QComboBox* second_;
    QLineEdit* second_values_;
    QComboBox* metric_;
    QDoubleSpinBox* share_;
    QLabel* status_;
    QLabel* fits_label_;
    SweepView* view_;
    QTimer* debounce_;
    std::shared_ptr<SweepJob> running_;
    /// Superseded sweeps told to stop, until their threads end and are joined.
    std::vector<std::shared_ptr<SweepJob>> retired_;
    /// The last sweep that finished: what it was given.
    std::shared_ptr<SweepJob> last_inputs_;
    std::optional<SweepResult> result_;
    std::vector<GroupLimitFit> fits_;
    std::optional<ZeroRejectionFrontier> frontier_;
    bool stale_ = true;
    DockPresence* presence_ = nullptr;  ///< a sweep runs only while its tab is raised
};

}  // namespace ratelab::ui
