// The Sweep panel as a user meets it: a sweep of the document's lane runs off the main thread,
// its chart marks the document's setting, the smallest L is given per group of keys, and a click
// on a point makes it the setting in one undoable step.
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include "charts/sweep_view.h"
#include "panels/sweep_panel.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// Runs the panel's sweep and waits for it to be on show.
bool sweepNow(SweepPanel& panel) {
    QSignalSpy shown(&panel, &SweepPanel::sweepShown);
    panel.runNow();
    return shown.wait(10000);
}

void click(SweepPanel& panel, int point) {
    SweepView* view = panel.view();
    const SweepPlotGeometry geometry(view->spec(), QRectF(view->rect()));
    QTest::mouseClick(view, Qt::LeftButton, {}, geometry.pointAt(point).toPoint());
}

}  // namespace

class SweepPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sweepsTheLimitAndAppliesAClickedPoint() {
        Session session;  // the default scenario: L = 4, W = 10, ticks 6 to 13
        SweepPanel panel(&session);
        panel.resize(900, 420);
        panel.show();
        QCOMPARE(panel.firstAxisBox()->currentData().toString(), QStringLiteral("limit"));
        panel.firstValues()->setText(QStringLiteral("1..8"));
        QVERIFY(sweepNow(panel));
        QVERIFY(!panel.isRunning());
        const SweepResult& result = *panel.result();
        QCOMPARE(result.points, std::size_t{8});
        // The fixed window (the first lane) as simulate() decides it at L = 2: 4 of 8.
        QCOMPARE(result.row(1, 0).totals.accepted, 4);
        QCOMPARE(panel.view()->spec().current, std::optional<int>(3));
        // Two windows of four requests: L = 4 rejects nothing, and is the smallest that does not.
        panel.shareBox()->setValue(0.0);
        QVERIFY(sweepNow(panel));
        QCOMPARE(panel.limitFits().size(), std::size_t{1});
        QCOMPARE(panel.limitFits().front().limit, std::optional<std::int64_t>(4));
        QCOMPARE(panel.view()->spec().marked, std::optional<int>(3));

        click(panel, 6);
        QCOMPARE(session.params().base.limit, std::int64_t{7});
        QCOMPARE(panel.view()->spec().current, std::optional<int>(6));  // the mark follows
        session.undoStack()->undo();
        QCOMPARE(session.params().base.limit, std::int64_t{4});
    }

    void aLaneParameterIsSweptAndSetOnThatLaneOnly() {
        Session session;
        SweepPanel panel(&session);
        panel.resize(900, 420);
        panel.show();
        panel.laneBox()->setCurrentIndex(3);  // the token bucket
        const int capacity =
            panel.firstAxisBox()->findData(QStringLiteral("token_bucket.capacity"));
        QVERIFY(capacity >= 0);
        panel.firstAxisBox()->setCurrentIndex(capacity);
        panel.firstValues()->setText(QStringLiteral("1..8"));
        QVERIFY(sweepNow(panel));
        // A full bucket of C takes C of the burst at once, then one more every 2.5 ticks.
        QCOMPARE(panel.result()->row(7, 0).totals.accepted, 8);
        // Eight requests in eight ticks at 2/5 a tick need 8 - 2/5 x 7 = 5.2 tokens: the closed
        // form marks 6, where the swept line reaches no rejections.
        QVERIFY(panel.frontier());
        QCOMPARE(panel.frontier()->rows, std::vector<std::optional<Rational>>{Rational(6)});
        QCOMPARE(panel.view()->spec().frontier, QList<std::optional<double>>{6.0});
        QCOMPARE(panel.view()->spec().frontier_label,
                 QStringLiteral("capacity ≥ 6: none rejected"));
        QCOMPARE(panel.result()->row(5, 0).totals.rejected, 0);
        QVERIFY(panel.result()->row(4, 0).totals.rejected > 0);
        click(panel, 7);
        const std::vector<Lane>& lanes = session.params().lanes;
        QCOMPARE(lanes.size(), std::size_t{6});
        QCOMPARE(lanes[3].params.at("capacity"), ParamValue(Rational(8)));
        for (std::size_t other : {0, 1, 2, 4, 5})
            QVERIFY(lanes[other].params.empty());
        QCOMPARE(session.result()->runs[3].totals.accepted, 8);
    }

    void twoAxesMakeAHeatmapAndBadValuesSayWhy() {
        Session session;
        SweepPanel panel(&session);
        panel.show();
        panel.firstValues()->setText(QStringLiteral("1..4"));
        panel.secondAxisBox()->setCurrentIndex(
            panel.secondAxisBox()->findData(QStringLiteral("window")));
        panel.secondValues()->setText(QStringLiteral("5,10,20"));
        QVERIFY(sweepNow(panel));
        QVERIFY(panel.view()->spec().isHeatmap());
        QCOMPARE(panel.view()->spec().values.size(), qsizetype{12});
        QCOMPARE(panel.view()->spec().current, std::optional<int>(3 * 3 + 1));  // L 4, W 10
        QVERIFY(!panel.shareBox()->isEnabled());  // the smallest L is for L alone
        QVERIFY(!panel.frontier());               // and no closed form answers for L
        QVERIFY(panel.view()->spec().frontier.isEmpty());

        // A range running backwards is refused with the parser's words, and the last sweep
        // stays on show.
        panel.secondValues()->setText(QStringLiteral("20..5"));
        QCOMPARE(panel.axes().axes.size(), std::size_t{0});
        QVERIFY(panel.axes().problem.contains(QStringLiteral("window=20..5")));
        panel.runNow();
        QVERIFY(!panel.isRunning());
        QCOMPARE(panel.view()->spec().values.size(), qsizetype{12});
        // The same thing twice is refused too.
        panel.secondAxisBox()->setCurrentIndex(
            panel.secondAxisBox()->findData(QStringLiteral("limit")));
        QVERIFY(!panel.axes().problem.isEmpty());
    }

    void closingWhileSweepsRunStopsThemAll() {
        // Long enough that neither sweep has finished when the panel goes.
        TraceBuilder builder;
        for (Tick t = 0; t < 400'000; ++t)
            builder.add(t, 1);
        SessionDocument document;
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        Session session;
        QVERIFY(session.reset(std::move(document), QString()).isEmpty());
        auto* panel = new SweepPanel(&session);
        panel->show();
        panel->firstValues()->setText(QStringLiteral("1..200"));
        panel->runNow();
        QVERIFY(panel->isRunning());
        panel->firstValues()->setText(QStringLiteral("1..199"));
        panel->runNow();  // supersedes the first, which is told to stop
        QVERIFY(panel->isRunning());
        delete panel;  // waits for both threads; neither may call back into it
        QTest::qWait(100);
        QCOMPARE(session.trace().requests.size(), std::size_t{400'000});
    }

    void anEditStartsANewSweep() {
        Session session;
        SweepPanel panel(&session);
        panel.show();
        panel.firstValues()->setText(QStringLiteral("1..8"));
        QVERIFY(sweepNow(panel));
        QCOMPARE(panel.result()->row(3, 0).totals.accepted, 8);
        QSignalSpy shown(&panel, &SweepPanel::sweepShown);
        session.addRequest(7);  // a fifth request in the first window
        QVERIFY(shown.wait(10000));
        QCOMPARE(panel.result()->row(3, 0).totals.rejected, 1);
    }

    void aTabBehindAnotherSweepsOnlyWhenRaised() {
        // Qt leaves a tabbed dock's contents "visible" when another tab is in front: the panel
        // must not sweep a long trace after every edit while nobody sees it.
        Session session;
        QMainWindow window;
        auto* front = new QDockWidget(QStringLiteral("Front"), &window);
        front->setWidget(new QLabel(QStringLiteral("in front")));
        auto* behind = new QDockWidget(QStringLiteral("Sweep"), &window);
        auto* panel = new SweepPanel(&session);
        panel->firstValues()->setText(QStringLiteral("1..8"));
        behind->setWidget(panel);
        window.addDockWidget(Qt::BottomDockWidgetArea, front);
        window.addDockWidget(Qt::BottomDockWidgetArea, behind);
        window.tabifyDockWidget(front, behind);
        front->raise();
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        QSignalSpy shown(panel, &SweepPanel::sweepShown);
        session.addRequest(7);
        QTest::qWait(600);  // well past the panel's debounce
        QVERIFY(!panel->isRunning());
        QCOMPARE(shown.count(), 0);
        behind->raise();  // the user opens the tab: the sweep catches up
        QVERIFY(shown.wait(10000));
        QCOMPARE(panel->result()->row(3, 0).totals.rejected, 1);
    }
};

QTEST_MAIN(SweepPanelTest)
#include "sweep_panel_test.moc"
