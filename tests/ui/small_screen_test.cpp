// On a screen smaller than the default window (here 1024 × 700, as the ctest entry configures
// the offscreen platform), the window opens within the screen's free area, its lanes and
// panels squeezed rather than cut off past the screen's edge.
#include <QGuiApplication>
#include <QScreen>
#include <QtTest>

#include "isolated_settings.h"
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
};

QTEST_MAIN(SmallScreenTest)
#include "small_screen_test.moc"
