#include "window/lecture_actions.h"

#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>
#include <algorithm>
#include <climits>

#include "charts/algorithm_names.h"
#include "ratelab/navigation.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "window/app_actions.h"

namespace ratelab::ui {

namespace {

QAction* make(QObject* parent, const QString& text, const QKeySequence& key,
              const QString& explanation) {
    auto* action = new QAction(text, parent);
    action->setShortcut(key);
    AppActions::updateToolTip(action, explanation);
    return action;
}

/// The lanes that reject a request at `tick`, by name: what a lecturer points at.
QString rejectingLanes(const SimulationResult& result, Tick tick) {
    const auto& requests = result.trace->requests;
    const auto [first, last] =
        std::equal_range(requests.begin(), requests.end(), Request{tick, 1, 0},
                         [](const Request& a, const Request& b) { return a.tick < b.tick; });
    QStringList names;
    for (const AlgorithmRun& run : result.runs) {
        for (auto it = first; it != last; ++it) {
            if (run.has_decisions() &&
                !run.accepted(static_cast<std::size_t>(it - requests.begin()))) {
                names << laneName(run.id, run.label);
                break;
            }
        }
    }
    return names.join(QStringLiteral(", "));
}

}  // namespace

LectureActions::LectureActions(Session* session, PlaybackClock* clock, QMainWindow* window)
    : QObject(window), session_(session), clock_(clock), window_(window) {
    next_rejection = make(this, tr("&Next Rejection"), QKeySequence(Qt::Key_Period),
                          tr("Move the clock to the next request that some lane rejects"));
    previous_rejection =
        make(this, tr("&Previous Rejection"), QKeySequence(Qt::Key_Comma),
             tr("Move the clock back to the previous request that some lane rejects"));
    worst_burst = make(this, tr("&Worst Burst"), QKeySequence(Qt::CTRL | Qt::Key_B),
                       tr("Move the clock to the end of the largest burst any lane lets in"));
    go_to_tick = make(this, tr("&Go to Tick…"), QKeySequence(Qt::CTRL | Qt::Key_G),
                      tr("Move the clock to a tick"));
    start_lecture =
        make(this, tr("Start a &Lecture"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Home),
             tr("Back to tick 0 at %1 ticks a second, paused: Space plays").arg(kLectureSpeed));
    presentation = make(this, tr("&Presentation Mode"), QKeySequence(Qt::Key_F5),
                        tr("Large type and only the timeline, for a projector"));
    presentation->setCheckable(true);

    connect(next_rejection, &QAction::triggered, this, &LectureActions::goToNextRejection);
    connect(previous_rejection, &QAction::triggered, this, &LectureActions::goToPreviousRejection);
    connect(worst_burst, &QAction::triggered, this, &LectureActions::goToWorstBurst);
    connect(go_to_tick, &QAction::triggered, this, &LectureActions::askTick);
    connect(start_lecture, &QAction::triggered, this, &LectureActions::startLecture);
    connect(presentation, &QAction::toggled, this, &LectureActions::setPresenting);
}

QList<QAction*> LectureActions::goActions() const {
    return {next_rejection, previous_rejection, worst_burst, go_to_tick, start_lecture};
}

QList<QAction*> LectureActions::all() const {
    return goActions() << presentation;
}

void LectureActions::goToTick(Tick tick) {
    clock_->pause();
    clock_->setNow(tick);
    Q_EMIT message(tr("Clock at t = %1").arg(clock_->now()));
}

void LectureActions::goToNextRejection() {
    if (const auto tick = ratelab::next_rejection(*session_->result(), clock_->now())) {
        clock_->pause();
        clock_->setNow(*tick);
        Q_EMIT message(tr("Rejected at t = %1 by %2")
                           .arg(*tick)
                           .arg(rejectingLanes(*session_->result(), *tick)));
    } else {
        Q_EMIT message(tr("No lane rejects anything after t = %1").arg(clock_->now()));
    }
}

void LectureActions::goToPreviousRejection() {
    if (const auto tick = ratelab::previous_rejection(*session_->result(), clock_->now())) {
        clock_->pause();
        clock_->setNow(*tick);
        Q_EMIT message(tr("Rejected at t = %1 by %2")
                           .arg(*tick)
                           .arg(rejectingLanes(*session_->result(), *tick)));
    } else {
        Q_EMIT message(tr("No lane rejects anything before t = %1").arg(clock_->now()));
    }
}

void LectureActions::goToWorstBurst() {
    const auto result = session_->result();
    const auto place = worst_burst_place(*result);
    if (!place) {
        Q_EMIT message(tr("No lane accepts anything: there is no burst"));
        return;
    }
    clock_->pause();
    clock_->setNow(place->last);
    const AlgorithmRun& run = result->runs[place->lane];
    Q_EMIT message(tr("Worst burst: %1 lets in %2 in the %3 ticks from t = %4")
                       .arg(laneName(run.id, run.label))
                       .arg(place->burst.cost)
                       .arg(place->window)
                       .arg(QString::fromStdString(place->burst.start.to_string())));
}

void LectureActions::askTick() {
    bool ok = false;
    const int tick =
        QInputDialog::getInt(window_, tr("Go to Tick"), tr("Tick (0 to %1):").arg(clock_->end()),
                             static_cast<int>(clock_->now()), 0,
                             static_cast<int>(std::min<Tick>(clock_->end(), INT_MAX)), 1, &ok);
    if (ok)
        goToTick(tick);
}

void LectureActions::startLecture() {
    clock_->pause();
    clock_->setSpeed(kLectureSpeed);
    clock_->reset();
    Q_EMIT message(tr("Lecture: t = 0 at %1 ticks a second. Space plays, . and , go from one "
                      "rejection to the next")
                       .arg(kLectureSpeed));
}

void LectureActions::setPresenting(bool on) {
    if (on == presenting_)
        return;
    presenting_ = on;
    const QSignalBlocker block(presentation);
    presentation->setChecked(on);
    if (on) {
        state_before_ = window_->saveState();
        // A font never set stays unset afterwards, so it follows the system's again.
        font_before_ = window_->testAttribute(Qt::WA_SetFont) ? window_->font() : QFont();
        maximized_before_ = window_->isMaximized();
        QFont large = window_->font();
        large.setPointSizeF(large.pointSizeF() * kPresentationScale);
        window_->setFont(large);
        for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : window_->findChildren<QToolBar*>())
            bar->hide();
        window_->menuBar()->hide();
        window_->statusBar()->hide();
        window_->showFullScreen();
    } else {
        window_->setFont(font_before_);
        window_->menuBar()->show();
        window_->statusBar()->show();
        window_->restoreState(state_before_);
        if (maximized_before_)
            window_->showMaximized();
        else
            window_->showNormal();
    }
}

}  // namespace ratelab::ui
