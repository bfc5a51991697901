// Predict mode as a learner uses it on the default scenario (L = 4, W = 10, ticks 6 to 13):
// the clock stops short of each request, keys toggle and reveal, the score counts, and the
// wrong predictions at the end lead back to their ticks.
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QTest>

#include "panels/predict_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// Everything the panel's labels say, to look for what a learner would read.
QString shownText(const QWidget* panel) {
    QString all;
    for (const QLabel* label : panel->findChildren<QLabel*>()) {
        if (label->isVisible())
            all += label->text() + QLatin1Char('\n');
    }
    return all;
}

/// The default scenario in a window with the panel, shown.
struct Shown {
    QMainWindow window;
    Session session;
    PlaybackClock clock;
    PredictPanel* panel = new PredictPanel(&session, &clock, &window);
    Shown() {
        clock.setEnd(session.endTick());
        window.setCentralWidget(panel);
        window.show();
    }
};

}  // namespace

class PredictPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aRoundThroughTheBoundaryBurst() {
        Shown shown;
        QMainWindow& window = shown.window;
        PlaybackClock& clock = shown.clock;
        PredictPanel* panel = shown.panel;
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

    // The leaky bucket (lane 5) lets one request out every 5/2 ticks: request 1 (t = 6) at
    // once, request 2 (t = 7) at 17/2. Only its row has a field for the release.
    void aShapersReleaseGuessed() {
        Shown shown;
        QMainWindow& window = shown.window;
        PredictPanel* panel = shown.panel;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        panel->start();
        QVERIFY(panel->releaseField(0) == nullptr);
        QLineEdit* release = panel->releaseField(4);
        QVERIFY(release != nullptr);
        QVERIFY(release->isVisible());

        // Typing digits in the field writes them there; it does not toggle lane 6.
        release->setFocus();
        QTest::keyClicks(release, QStringLiteral("6"));
        QCOMPARE(release->text(), QStringLiteral("6"));
        QCOMPARE(panel->round()->releasePrediction(4), std::optional<Rational>(6));
        QCOMPARE(panel->round()->prediction(4), std::optional<bool>(true));
        QVERIFY(!panel->round()->prediction(5).has_value());
        // Enter in the field reveals once; the true release shows under the lane.
        QTest::keyClick(release, Qt::Key_Return);
        QVERIFY(panel->round()->revealed());
        QCOMPARE(panel->round()->request(), std::size_t{0});
        QVERIFY(shownText(panel).contains(QStringLiteral("✓ Release: Close enough: 6.")));
        QVERIFY(!release->isEnabled());
        QTest::keyClick(&window, Qt::Key_Return);
        QCOMPARE(panel->round()->request(), std::size_t{1});
        QVERIFY(release->text().isEmpty());
        QVERIFY(release->isEnabled());

        // Text that is no tick is no guess; 11 for 17/2 is too far.
        release->setFocus();
        QTest::keyClicks(release, QStringLiteral("soon"));
        QVERIFY(!panel->round()->releasePrediction(4).has_value());
        release->clear();
        QTest::keyClicks(release, QStringLiteral("11"));
        panel->revealOrNext();
        QVERIFY(
            shownText(panel).contains(QStringLiteral("✗ Release: Too far: it is 17/2, not 11.")));
        QVERIFY(panel->round()->outcomes()[4].right());  // accepted, as said
        while (!panel->round()->finished())
            panel->skip();
        QListWidget* mistakes = panel->mistakesList();
        QCOMPARE(mistakes->count(), 1);
        QVERIFY(mistakes->item(0)->text().contains(
            QStringLiteral("you said out at t = 11, it was t = 17/2")));
        QVERIFY(shownText(panel).contains(QStringLiteral("release times 1 of 2 close enough")));
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
