// The Go actions for teaching from the timeline, on the hand-worked trace of the core's
// navigation test: L = 2 per W = 10, requests at 8 9 10 11 25 26 27. Some lane rejects at 10 and
// 11 (the sliding log) and at 27 (both); the fixed window lets four in from tick 8, the worst
// burst. Start a Lecture rewinds and slows the clock; presentation mode hides the chrome and
// enlarges the type, and gives both back.
#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <QToolBar>

#include "isolated_settings.h"
#include "panels/comparison_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "window/lecture_actions.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

SessionDocument handWorked(bool hide_sliding_log) {
    SessionDocument document;
    TraceBuilder builder;
    for (Tick tick : {8, 9, 10, 11, 25, 26, 27})
        builder.add(tick, 1);
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    document.params.base.limit = 2;
    document.params.base.window = 10;
    document.params.lanes = {Lane{"fixed_window", {}, {}, false},
                             Lane{"sliding_log", {}, {}, hide_sliding_log}};
    return document;
}

struct Fixture {
    explicit Fixture(bool hide_sliding_log = false) {
        session.reset(handWorked(hide_sliding_log), QString());
        clock.setEnd(session.endTick());
    }
    QMainWindow window;
    Session session;
    PlaybackClock clock;
    LectureActions lecture{&session, &clock, &window};
};

}  // namespace

class LectureActionsTest : public QObject {
    Q_OBJECT

    test::IsolatedSettings settings_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }

    void nextAndPreviousRejectionMoveTheClock() {
        Fixture f;
        QSignalSpy said(&f.lecture, &LectureActions::message);
        f.clock.setNow(0);
        for (const Tick expected : {10, 11, 27, 27}) {
            f.lecture.next_rejection->trigger();
            QCOMPARE(f.clock.now(), expected);
        }
        QVERIFY(said.last().at(0).toString().contains(QStringLiteral("after t = 27")));
        f.lecture.previous_rejection->trigger();
        // Both lanes reject at 27; at 11 only the sliding log does.
        QCOMPARE(said.last().at(0).toString(), QStringLiteral("Rejected at t = 11 by Sliding log"));
        f.clock.setNow(20);
        f.lecture.next_rejection->trigger();
        QCOMPARE(said.last().at(0).toString(),
                 QStringLiteral("Rejected at t = 27 by Fixed window, Sliding log"));
        for (const Tick expected : {11, 10, 10}) {  // from 27
            f.lecture.previous_rejection->trigger();
            QCOMPARE(f.clock.now(), expected);
        }
    }

    void aHiddenLanesRejectionsAreNotStops() {
        Fixture f(true);  // only the fixed window shows: it rejects at 27 alone
        f.clock.setNow(0);
        f.lecture.next_rejection->trigger();
        QCOMPARE(f.clock.now(), Tick{27});
    }

    void theWorstBurstIsShownWhole() {
        Fixture f;
        QSignalSpy said(&f.lecture, &LectureActions::message);
        f.clock.setNow(0);
        f.lecture.worst_burst->trigger();
        QCOMPARE(f.clock.now(), Tick{11});
        const QString text = said.last().at(0).toString();
        QVERIFY2(text.contains(QStringLiteral("Fixed window lets in 4")), qPrintable(text));
    }

    void goToTickAsksForTheTick() {
        Fixture f;
        f.clock.setNow(0);
        QTimer::singleShot(0, this, [] {
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->setIntValue(17);
            dialog->accept();
        });
        f.lecture.go_to_tick->trigger();
        QCOMPARE(f.clock.now(), Tick{17});
    }

    void startingALectureRewindsAndSlowsTheClock() {
        Fixture f;
        f.clock.setSpeed(100);
        f.clock.setNow(20);
        f.clock.play();
        f.lecture.start_lecture->trigger();
        QCOMPARE(f.clock.now(), Tick{0});
        QCOMPARE(f.clock.speed(), LectureActions::kLectureSpeed);
        QVERIFY(!f.clock.isPlaying());
    }

    void presentationModeHidesTheChromeAndGivesItBack() {
        Fixture f;
        auto* dock = new QDockWidget(QStringLiteral("Dock"), &f.window);
        dock->setObjectName(QStringLiteral("dock"));
        f.window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        QToolBar* bar = f.window.addToolBar(QStringLiteral("Bar"));
        bar->setObjectName(QStringLiteral("bar"));
        f.window.menuBar()->addMenu(QStringLiteral("Menu"));
        f.window.statusBar();
        f.window.setCentralWidget(new QWidget);
        f.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.window));
        const qreal size = f.window.font().pointSizeF();
        f.lecture.presentation->trigger();
        QVERIFY(f.lecture.isPresenting());
        QVERIFY(!dock->isVisible() && !bar->isVisible());
        QVERIFY(!f.window.menuBar()->isVisible() && !f.window.statusBar()->isVisible());
        QCOMPARE(f.window.font().pointSizeF(), size * LectureActions::kPresentationScale);
        f.lecture.presentation->trigger();
        QVERIFY(!f.lecture.isPresenting());
        QVERIFY(dock->isVisible() && bar->isVisible());
        QVERIFY(f.window.menuBar()->isVisible() && f.window.statusBar()->isVisible());
        QCOMPARE(f.window.font().pointSizeF(), size);
    }

    void closingWhilePresentingRemembersTheDocks() {
        test::IsolatedSettings::clear();
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.lecture()->presentation->trigger();
            QVERIFY(!window.comparison()->isVisible());
            QVERIFY(window.close());
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(again.comparison()->isVisible());
        QVERIFY(again.menuBar()->isVisible());
    }

    void theMainWindowListsTheGoActionsAndTheirKeys() {
        test::IsolatedSettings::clear();
        MainWindow window;
        const QList<ShortcutRow> rows = window.shortcutRows();
        for (const ShortcutRow& row :
             {ShortcutRow{QStringLiteral("Next Rejection"), QStringLiteral(".")},
              ShortcutRow{QStringLiteral("Previous Rejection"), QStringLiteral(",")},
              ShortcutRow{QStringLiteral("Presentation Mode"), QStringLiteral("F5")}})
            QVERIFY2(rows.contains(row), qPrintable(row.command));
        QMenu* go = nullptr;
        for (QAction* menu : window.menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&Go"))
                go = menu->menu();
        }
        QVERIFY(go);
        QVERIFY(go->actions().contains(window.lecture()->worst_burst));
    }
};

QTEST_MAIN(LectureActionsTest)
#include "lecture_actions_test.moc"
