// A long simulation runs off the main thread behind a progress dialog whose Cancel leaves the
// session as it was (ui/session/simulation_run.h).
#include <QApplication>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include "session/session.h"
#include "session/simulation_run.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// Two million requests on one key: some 12 million decisions over six lanes, well past
/// what runs on the main thread, and long enough to be cancelled while the dialog shows.
SessionDocument bigDocument() {
    TraceBuilder builder;
    builder.reserve(2'000'000);
    for (Tick t = 0; t < 2'000'000; ++t)
        builder.add(t / 2, static_cast<std::uint32_t>(1 + t % 3));
    SessionDocument document = SessionDocument::empty();
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    document.name = "big";
    return document;
}

/// Presses Cancel on the progress dialog as soon as it shows; `seen` says whether it did.
class CancelOnSight : public QObject {
public:
    bool seen = false;
    CancelOnSight() {
        connect(&timer_, &QTimer::timeout, this, [this] {
            if (auto* dialog = qobject_cast<QProgressDialog*>(QApplication::activeModalWidget())) {
                seen = true;
                QPushButton* button = dialog->findChild<QPushButton*>();
                QVERIFY(button != nullptr);
                button->click();
                timer_.stop();
            }
        });
        timer_.start(5);
    }

private:
    QTimer timer_;
};

}  // namespace

class SimulationRunTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { SimulationRun::setDialogDelayForTest(0); }

    void aLongSimulationGivesTheSameResultAsOnTheMainThread() {
        Session session;
        const SessionDocument document = bigDocument();
        QVERIFY(estimatedDecisions(*document.trace, document.params) >
                SimulationRun::kBackgroundDecisions);
        QCOMPARE(session.reset(document, QString()), QString());
        QVERIFY(!session.wasCancelled());
        const auto expected = simulate(document.trace, document.params);
        QCOMPARE(session.result()->runs.size(), expected->runs.size());
        for (std::size_t i = 0; i < expected->runs.size(); ++i) {
            QCOMPARE(session.result()->runs[i].totals, expected->runs[i].totals);
            QVERIFY(session.result()->runs[i].decisions == expected->runs[i].decisions);
        }
    }

    void cancellingAnOpenKeepsTheCurrentDocument() {
        Session session;
        const auto before = session.result();
        const std::size_t requests = session.trace().requests.size();
        CancelOnSight cancel;
        const QString error = session.reset(bigDocument(), QStringLiteral("/tmp/big.json"));
        QVERIFY(cancel.seen);
        QVERIFY(!error.isEmpty());
        QVERIFY(session.wasCancelled());
        QCOMPARE(session.result(), before);
        QCOMPARE(session.trace().requests.size(), requests);
        QCOMPARE(session.filePath(), QString());
    }

    void cancellingAnEditKeepsTheEditAndSaysTheFiguresAreOld() {
        Session session;
        QCOMPARE(session.reset(bigDocument(), QString()), QString());
        const auto before = session.result();
        QSignalSpy failed(&session, &Session::simulationFailed);
        QSignalSpy published(&session, &Session::resultChanged);
        CancelOnSight cancel;
        // Far from the end: the rerun has most of the trace to decide again.
        session.removeRequests(IndexList{0});
        QVERIFY(cancel.seen);
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("cancelled")));
        QCOMPARE(published.count(), 0);
        QCOMPARE(session.result(), before);
        QCOMPARE(session.trace().requests.size(), std::size_t{1'999'999});
        QVERIFY(session.undoStack()->canUndo());
    }
};

QTEST_MAIN(SimulationRunTest)
#include "simulation_run_test.moc"
