// Predict mode as a learner uses it on the default scenario (L = 4, W = 10, ticks 6 to 13):
// the clock stops short of each request, keys toggle and reveal, the score counts, and the
// wrong predictions at the end lead back to their ticks.
#include <QListWidget>
#include <QMainWindow>
#include <QTest>

#include "panels/predict_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

class PredictPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aRoundThroughTheBoundaryBurst() {
        QMainWindow window;
        Session session;
        PlaybackClock clock;
        clock.setEnd(session.endTick());
        auto* panel = new PredictPanel(&session, &clock, &window);
        window.setCentralWidget(panel);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        panel->start();
        QVERIFY(panel->isActive());
        QCOMPARE(panel->round()->lanes().size(), std::size_t{6});
        QCOMPARE(clock.now(), Tick{5});  // short of the first request, at 6
        // "1" toggles the fixed window's prediction to "accepted"; Enter reveals.
        QTest::keyClick(&window, Qt::Key_1);
        QCOMPARE(panel->round()->prediction(0), std::optional<bool>(true));
        QTest::keyClick(&window, Qt::Key_Return);
        QVERIFY(panel->round()->revealed());
        QCOMPARE(clock.now(), Tick{6});  // now the decision shows
        QCOMPARE(panel->round()->overall().right, 1);
        QTest::keyClick(&window, Qt::Key_Return);  // on to request 2
        QCOMPARE(panel->round()->request(), std::size_t{1});
        QCOMPARE(clock.now(), Tick{6});

        // Requests 2 to 4: "the sliding log accepts". Request 5 (t = 10), too: wrong, it
        // rejects, since its ten ticks hold four already.
        for (int request = 1; request < 5; ++request) {
            panel->toggleLane(1);
            panel->revealOrNext();
            panel->revealOrNext();
        }
        QCOMPARE(panel->round()->score(1).right, 3);
        QCOMPARE(panel->round()->score(1).asked, 4);
        QTest::keyClick(&window, Qt::Key_N);  // skip request 6
        QCOMPARE(panel->round()->request(), std::size_t{6});
        panel->skip();
        panel->skip();
        QVERIFY(panel->round()->finished());

        QListWidget* mistakes = panel->mistakesList();
        QCOMPARE(mistakes->count(), 1);
        QVERIFY(mistakes->item(0)->text().contains(QStringLiteral("t = 10")));
        clock.setNow(0);
        mistakes->setCurrentRow(0);
        QCOMPARE(clock.now(), Tick{10});

        // Once the round ends the keys are free again.
        panel->stop();
        QVERIFY(!panel->isActive());
        QTest::keyClick(&window, Qt::Key_1);
        QVERIFY(panel->round() == nullptr);
    }

    void anEditEndsTheRound() {
        QMainWindow window;
        Session session;
        PlaybackClock clock;
        auto* panel = new PredictPanel(&session, &clock, &window);
        window.setCentralWidget(panel);
        panel->start();
        QVERIFY(panel->isActive());
        session.addRequest(20);
        QVERIFY(!panel->isActive());
    }
};

QTEST_MAIN(PredictPanelTest)
#include "predict_panel_test.moc"
