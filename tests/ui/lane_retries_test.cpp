// Retries on the timeline's lanes: with the Clients tab's clients retrying, each retry is drawn
// on its lane at its tick, joined to the attempt before it; they go with the checkbox, and they
// are not drawn over a result they were not run on.
#include <QCheckBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QToolTip>
#include <QUndoStack>
#include <QtTest>

#include "isolated_settings.h"
#include "panels/clients_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/decision_tooltip.h"
#include "timeline/lane_retries.h"
#include "timeline/timeline_hit_test.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_view.h"
#include "window/file_controller.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

class LaneRetriesTest : public QObject {
    Q_OBJECT

    IsolatedSettings settings_;

    std::size_t laneOf(const MainWindow& window, const std::string& id) const {
        const auto& runs = window.session()->result()->runs;
        for (std::size_t lane = 0; lane < runs.size(); ++lane) {
            if (runs[lane].id == id)
                return lane;
        }
        return runs.size();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }

    void eachRetryIsDrawnOnItsLaneJoinedToTheAttemptBefore() {
        IsolatedSettings::clear();
        MainWindow window;
        window.files()->setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* clients = window.findChild<ClientsPanel*>();
        QVERIFY(clients);
        window.findChild<QDockWidget*>(QStringLiteral("clientsDock"))->raise();
        // Clients that retry on the next tick, at most three times in all.
        QSignalSpy shown(clients, &ClientsPanel::runShown);
        QVERIFY(clients->setPolicyText(QStringLiteral("immediate:max_attempts=3")));
        clients->runNow();
        QVERIFY(shown.wait(20000));
        window.clock()->jumpToEnd();
        TimelineView* view = window.timeline();
        view->fitToTrace();

        // The default boundary burst: the sliding log (L = 4 per 10 ticks) refuses request 4
        // at t = 10; its client tries again at 11, and, refused, at 12.
        const std::size_t log = laneOf(window, "sliding_log");
        const TimelineScene scene = view->scene();
        QVERIFY(scene.retries != nullptr);
        const std::vector<RetryMark> marks = retryMarks(scene, log);
        const QRectF lane = scene.layout.lanes[log];
        const auto retryOf = [&](std::size_t intent, std::int64_t attempt) {
            for (const RetryMark& mark : marks) {
                const LaneRetries::Retry& retry = scene.retries->lanes[log][mark.index];
                if (retry.intent == intent && retry.attempt == attempt)
                    return std::optional<RetryMark>(mark);
            }
            return std::optional<RetryMark>();
        };
        const auto second = retryOf(4, 2);
        const auto third = retryOf(4, 3);
        QVERIFY(second && third);
        QCOMPARE(second->at.x(), scene.centreX(11));
        // At 12 request 5's first retry comes too: the two stand side by side in the cell.
        const double cell = scene.centreX(1) - scene.centreX(0);
        QVERIFY(std::abs(third->at.x() - scene.centreX(12)) < cell / 2.0);
        const auto fifth = retryOf(5, 2);
        QVERIFY(fifth);
        QVERIFY(std::abs(fifth->at.x() - scene.centreX(12)) < cell / 2.0);
        QVERIFY(std::abs(fifth->at.x() - third->at.x()) >= 4.0);
        QVERIFY(!second->accepted);
        QCOMPARE(second->from, scene.point(lane, 4));  // from the request itself
        QCOMPARE(third->from, second->at);             // from the retry before
        QVERIFY(lane.contains(second->at));
        QVERIFY(second->at.y() > lane.center().y());  // under the row of decisions
        // Every retry the client made on this lane is drawn, and none on the fixed window,
        // which refuses nothing.
        const ClientRun& run = clients->runs()[log];
        const auto made = std::count_if(run.attempts.begin(), run.attempts.end(),
                                        [](const Attempt& a) { return a.attempt > 1; });
        QCOMPARE(static_cast<std::ptrdiff_t>(marks.size()), made);
        QVERIFY(retryMarks(scene, laneOf(window, "fixed_window")).empty());

        // Pointing at a retry names it: hit, then explained with the lane's answer and the
        // attempt before it.
        const TimelineHit hit = hitTest(scene, second->at);
        QCOMPARE(hit.kind, TimelineHit::Kind::kLaneRetry);
        QCOMPARE(hit.lane, static_cast<int>(log));
        QCOMPARE(hit.index, second->index);
        const QString tip = retryTooltip(view->frame(), log, scene.retries->lanes[log], hit.index,
                                         QToolTip::palette());
        QVERIFY2(tip.contains(QStringLiteral("attempt 2 at t = 11")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("request #4 (t = 10")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Rejected")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("retry after")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("at t = 10, which")), qPrintable(tip));
        const QString later = retryTooltip(view->frame(), log, scene.retries->lanes[log],
                                           third->index, QToolTip::palette());
        QVERIFY2(later.contains(QStringLiteral("at t = 11, which")), qPrintable(later));
        // Away from every mark, the lane's own decisions are hit as before.
        QCOMPARE(hitTest(scene, scene.point(lane, 4)).kind, TimelineHit::Kind::kLaneDecision);

        // Not before the clock reaches them.
        window.clock()->setNow(11);
        QVERIFY(retryOf(4, 3));  // `marks` still holds the earlier scene's
        const std::vector<RetryMark> at11 = retryMarks(view->scene(), log);
        QVERIFY(std::none_of(at11.begin(), at11.end(),
                             [&](const RetryMark& m) { return m.at.x() > scene.centreX(11); }));
        QVERIFY(!at11.empty());
        window.clock()->jumpToEnd();

        // The checkbox takes them off the lanes and puts them back.
        clients->onLanesBox()->setChecked(false);
        QVERIFY(view->scene().retries == nullptr);
        clients->onLanesBox()->setChecked(true);
        QVERIFY(!retryMarks(view->scene(), log).empty());

        // A new result (L changed) is not the one they were run on: none drawn until the tab
        // has run the clients on it.
        Params params = window.session()->params();
        params.base.limit = 5;
        QVERIFY(window.session()->setParams(params, QStringLiteral("L"), 0).isEmpty());
        QVERIFY(view->scene().retries == nullptr);
        QVERIFY(shown.wait(20000));
        QVERIFY(view->scene().retries != nullptr);
        window.session()->undoStack()->setClean();
    }
};

QTEST_MAIN(LaneRetriesTest)
#include "lane_retries_test.moc"
