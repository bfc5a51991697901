// On a screen smaller than the default window (here 1024 × 700, as the ctest entry configures
// the offscreen platform), the window opens within the screen's free area, its lanes and
// panels squeezed rather than cut off past the screen's edge.
#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QtTest>

#include "charts/chart_view.h"
#include "charts/charts_panel.h"
#include "isolated_settings.h"
#include "timeline/timeline_view.h"
#include "window/file_controller.h"
#include "window/main_window.h"

using namespace ratelab::ui;
using namespace ratelab::ui::test;

class SmallScreenTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(settings_.isValid());
        // The ctest entry's screen; run by hand on another, the test says so.
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        QCOMPARE(room.size(), QSize(1024, 700));
    }

    void theDefaultWindowFitsTheScreen() {
        IsolatedSettings::clear();
        MainWindow window;
        const QRect room = window.screen()->availableGeometry();
        QVERIFY2(window.width() <= room.width() && window.height() <= room.height(),
                 qPrintable(QStringLiteral("%1 × %2").arg(window.width()).arg(window.height())));
        // Not shrunk more than it has to be.
        QVERIFY(window.width() >= room.width() - 32);
        QVERIFY(window.height() >= room.height() - 64);
        QVERIFY(room.contains(window.geometry().topLeft()));
    }

    void aWindowRememberedFromALargerScreenFitsToo() {
        IsolatedSettings::clear();
        {
            MainWindow large;
            large.resize(1800, 1100);
            large.close();  // remembers its geometry
        }
        MainWindow again;
        const QRect room = again.screen()->availableGeometry();
        QVERIFY2(again.width() <= room.width() && again.height() <= room.height(),
                 qPrintable(QStringLiteral("%1 × %2").arg(again.width()).arg(again.height())));
    }

    void raisedChartsGetRoomAndEveryLaneStillFits() {
        // The Advanced and Lanes forms in the right-hand area held the whole top of the window
        // to their height, and the charts got a strip of 144 px whose legend was cut off.
        IsolatedSettings::clear();
        MainWindow window;
        window.files()->setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(100);  // the deferred layout work runs from the event loop
        window.findChild<QDockWidget*>(QStringLiteral("chartsDock"))->raise();
        const ChartView* chart = window.findChild<ChartsPanel*>()->view(ChartKind::Load);
        QTRY_VERIFY2(chart->height() >= 170, qPrintable(QString::number(chart->height())));
        // The timeline gave up height, but no lane.
        const TimelineView* timeline = window.timeline();
        QVERIFY(!timeline->scene().layout.lanes.empty());
        QVERIFY2(timeline->scene().layout.lanes.back().bottom() <= timeline->height(),
                 qPrintable(QStringLiteral("%1 of %2")
                                .arg(timeline->scene().layout.lanes.back().bottom())
                                .arg(timeline->height())));
    }
};

QTEST_MAIN(SmallScreenTest)
#include "small_screen_test.moc"
