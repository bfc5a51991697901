#pragma once

#include <QWidget>
#include <functional>
#include <vector>

#include "ratelab/model.h"

class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QToolButton;

namespace ratelab::ui {

class ParameterFields;
class Session;

/// The lanes being compared: which algorithms, in which order, each with its own parameter
/// values and label, and which are shown. Two lanes may run one algorithm with different
/// settings. Every change is one undoable step of the session, saved with the trace.
class LanesPanel : public QWidget {
    Q_OBJECT

public:
    explicit LanesPanel(Session* session, QWidget* parent = nullptr);

    /// The lane selected in the list, or -1.
    int currentLane() const;
    void setCurrentLane(int lane);

    // The panel's actions, also offered by the timeline's lane menu.
    void addLane(const std::string& algorithm);
    void duplicateLane(int lane);
    void removeLane(int lane);
    void moveLane(int lane, int by);
    void setLaneHidden(int lane, bool hidden);
    void useDefaultLanes();

private:
    /// Applies `change` to a copy of the lanes; refuses (and says why) a change that leaves
    /// no lane, or no lane shown.
    bool changeLanes(const std::function<void(std::vector<Lane>&)>& change, const QString& text,
                     int merge_key, int select_after);
    void showLanes();
    void showLaneForm();
    void showProblem(const QString& problem);

    Session* session_;
    QListWidget* list_;
    QToolButton* add_;
    QPushButton* duplicate_;
    QPushButton* remove_;
    QPushButton* up_;
    QPushButton* down_;
    QPushButton* defaults_;
    QLabel* heading_;
    QLineEdit* label_;
    QWidget* form_holder_;
    QFormLayout* form_ = nullptr;
    ParameterFields* fields_ = nullptr;
    QLabel* problem_;
    int shown_form_lane_ = -2;  ///< the lane whose form is built; -2 for none yet
    std::string shown_form_algorithm_;
};

}  // namespace ratelab::ui
