#pragma once

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>

#include "ratelab/model.h"

class QAction;
class QMainWindow;

namespace ratelab::ui {

class PlaybackClock;
class Session;

/// For teaching from the timeline: Go actions that move the clock to the next or previous
/// rejection of any shown lane, to the worst burst, or to a tick; Start a Lecture (tick 0, a
/// slow speed, paused); and a presentation mode with large type and no menus, toolbars, docks
/// or status bar. What each move finds is computed in core (ratelab/navigation.h).
class LectureActions : public QObject {
    Q_OBJECT

public:
    /// Ticks per second a lecture plays at: slow enough to talk over each decision.
    static constexpr double kLectureSpeed = 2.0;
    /// How much larger the type is in presentation mode.
    static constexpr double kPresentationScale = 1.6;

    LectureActions(Session* session, PlaybackClock* clock, QMainWindow* window);

    QAction* next_rejection;
    QAction* previous_rejection;
    QAction* worst_burst;
    QAction* go_to_tick;
    QAction* start_lecture;
    QAction* presentation;

    /// The Go menu's actions, in order (presentation mode belongs to View).
    QList<QAction*> goActions() const;
    QList<QAction*> all() const;

    /// Moves the clock to `tick` (clamped to the trace) and says so.
    void goToTick(Tick tick);
    void goToNextRejection();
    void goToPreviousRejection();
    void goToWorstBurst();
    void startLecture();
    void setPresenting(bool on);
    bool isPresenting() const { return presenting_; }

Q_SIGNALS:
    /// Where the clock went, or why it did not move, for the status bar.
    void message(const QString& text);

private:
    void askTick();

    Session* session_;
    PlaybackClock* clock_;
    QMainWindow* window_;
    bool presenting_ = false;
    QByteArray state_before_;  // docks and toolbars as they were before presenting
    QFont font_before_;
    bool maximized_before_ = false;
};

}  // namespace ratelab::ui
