// The Lanes panel: two lanes of one algorithm side by side, each change one undo step, and the
// lanes saved with the trace and read back.
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "panels/lanes_panel.h"
#include "ratelab/registry.h"
#include "session/document_files.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// The first value field of the selected lane's form (the capacity, for a token bucket).
QLineEdit* firstField(LanesPanel& panel) {
    QWidget* form = panel.findChild<QWidget*>(QStringLiteral("laneForm"));
    return form ? form->findChild<QLineEdit*>() : nullptr;
}

}  // namespace

class LanesPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void twoLanesOfOneAlgorithmAreComparedUndoneAndSaved() {
        Session session;
        LanesPanel panel(&session);
        panel.duplicateLane(3);  // the token bucket
        QCOMPARE(session.params().lanes.size(), std::size_t{7});
        QCOMPARE(panel.currentLane(), 4);
        QCOMPARE(session.result()->runs.size(), std::size_t{7});
        QCOMPARE(session.result()->runs[4].id, std::string("token_bucket"));

        QLineEdit* capacity = firstField(panel);
        QVERIFY(capacity != nullptr);
        QCOMPARE(capacity->placeholderText(), QStringLiteral("default L = 4"));
        capacity->setText(QStringLiteral("8"));
        Q_EMIT capacity->editingFinished();
        const auto& runs = session.result()->runs;
        QCOMPARE(runs[4].label, std::string("Token bucket (capacity 8)"));
        QCOMPARE(runs[3].totals.accepted, 6);  // the textbook bucket of L = 4 on the burst
        QCOMPARE(runs[4].totals.accepted, 8);  // eight tokens take all eight

        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("lanes.ratelab.json"));
        saveDocument(session.document(), file);
        const SessionDocument reopened = loadDocument(file);
        QVERIFY(reopened.params == session.params());
        QCOMPARE(reopened.params.lanes[4].params.at("capacity"), ParamValue(Rational(8)));

        session.undoStack()->undo();  // the capacity
        QVERIFY(session.params().lanes[4].params.empty());
        session.undoStack()->undo();  // the copy: back to the six, which is no list at all
        QVERIFY(session.params().lanes.empty());
        QCOMPARE(session.result()->runs.size(), std::size_t{6});
    }

    void hiddenLanesAreLeftOutButNeverAll() {
        Session session;
        LanesPanel panel(&session);
        panel.setLaneHidden(0, true);
        QCOMPARE(session.result()->runs.size(), std::size_t{5});
        QCOMPARE(session.result()->runs[0].id, std::string("sliding_log"));
        QVERIFY(session.params().lanes[0].hidden);
        for (int lane = 1; lane < 6; ++lane) {
            panel.setLaneHidden(lane, true);
        }
        // The last one stays: a comparison of nothing would show nothing.
        QCOMPARE(session.result()->runs.size(), std::size_t{1});
        QCOMPARE(session.result()->runs[0].id, std::string("gcra"));
        QVERIFY(!session.params().lanes[5].hidden);
    }

    void lanesAreAddedRemovedAndReordered() {
        Session session;
        LanesPanel panel(&session);
        panel.addLane("leaky_bucket");
        QCOMPARE(session.result()->runs.back().label, std::string("Leaky bucket (2)"));
        panel.moveLane(6, -1);
        QCOMPARE(session.params().lanes[5].algorithm, std::string("leaky_bucket"));
        QCOMPARE(session.params().lanes[6].algorithm, std::string("gcra"));
        panel.removeLane(0);
        QCOMPARE(session.result()->runs.front().id, std::string("sliding_log"));
        panel.useDefaultLanes();
        QVERIFY(session.params().lanes.empty());
        QCOMPARE(session.undoStack()->count(), 4);
    }

    void libraryPresetsAreAddedFromTheirOwnMenu() {
        Session session;
        LanesPanel panel(&session);
        auto* libraries = panel.findChild<QMenu*>(QStringLiteral("librariesMenu"));
        QVERIFY(libraries != nullptr);
        QCOMPARE(libraries->actions().size(),
                 static_cast<qsizetype>(Registry::instance().presets().size()));
        QAction* go = nullptr;
        for (QAction* action : libraries->actions()) {
            if (action->toolTip() == QStringLiteral("golang.org/x/time/rate v0.3.0"))
                go = action;
        }
        QVERIFY(go != nullptr);
        go->trigger();
        QCOMPARE(session.params().lanes.back().algorithm, std::string("x_time_rate"));
        // The default lanes stay the six: a preset is only ever added.
        QCOMPARE(session.params().lanes.size(), std::size_t{7});
        QCOMPARE(session.result()->runs.back().id, std::string("x_time_rate"));
    }
};

QTEST_MAIN(LanesPanelTest)
#include "lanes_panel_test.moc"
