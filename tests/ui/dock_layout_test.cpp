// How the docks share the window: on a first start the timeline gets the room and the bottom
// area is as tall as the comparison table, the charts take their height when their tab is
// raised, and a saved layout comes back as it was saved.
#include <QApplication>
#include <QDockWidget>
#include <QSettings>
#include <QStyleFactory>
#include <QUndoStack>
#include <memory>

#include "isolated_settings.h"
#include "panels/comparison_panel.h"
#include "session/session.h"
#include "timeline/timeline_view.h"
#include "window/file_controller.h"
#include "window/main_window.h"

#include <QtTest>

using namespace ratelab::ui;
using namespace ratelab::ui::test;

class DockLayoutTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;

    static std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>();
        window->files()->setInteractive(false);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get())) {
            return nullptr;
        }
        QTest::qWait(100);  // the deferred layout work runs from the event loop
        return window;
    }
    static void closeWindow(std::unique_ptr<MainWindow>& window) {
        window->session()->undoStack()->setClean();
        QVERIFY(window->close());
        window.reset();
    }
    static QDockWidget* dock(const MainWindow& window, const char* name) {
        return window.findChild<QDockWidget*>(QLatin1String(name));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }
    void init() { IsolatedSettings::clear(); }

    void firstStartGivesTheTimelineTheRoomAndTheTableItsRows() {
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->size(), QSize(1280, 800));
        const QDockWidget* comparison = dock(*window, "comparisonDock");
        QVERIFY(comparison->isVisible());
        // The table shows all its rows, with little to spare below them.
        const int table = window->comparison()->sizeHint().height();
        QVERIFY2(window->comparison()->height() >= table,
                 qPrintable(QString::number(window->comparison()->height())));
        QVERIFY2(window->comparison()->height() <= table + 24,
                 qPrintable(QStringLiteral("%1 for a table of %2")
                                .arg(window->comparison()->height())
                                .arg(table)));
        // The seven timeline rows (trace and six lanes) get most of the window's height.
        QVERIFY2(window->timeline()->height() >= 7 * 60,
                 qPrintable(QString::number(window->timeline()->height())));
        closeWindow(window);
    }

    void raisingTheChartsGrowsTheAreaAndTheTableGivesItBack() {
        auto window = openWindow();
        QVERIFY(window);
        QDockWidget* comparison = dock(*window, "comparisonDock");
        QDockWidget* charts = dock(*window, "chartsDock");
        const int table_height = comparison->height();

        charts->raise();
        // Waits, rather than a fixed pause, so that a loaded machine does not fail the test.
        QTRY_VERIFY2(
            charts->height() > table_height + 60,
            qPrintable(QStringLiteral("%1 after %2").arg(charts->height()).arg(table_height)));
        QVERIFY(charts->isVisible());
        QVERIFY(charts->height() <= window->height() * 2 / 5);  // the timeline stays usable

        QTest::qWait(50);  // the area settles at its new height before the user switches back
        comparison->raise();
        QTRY_COMPARE(comparison->height(), table_height);
        closeWindow(window);
    }

    void aSavedLayoutIsRestoredAsSaved() {
        int saved_height = 0;
        {
            auto first = openWindow();
            QVERIFY(first);
            dock(*first, "chartsDock")->raise();
            QTRY_VERIFY(dock(*first, "chartsDock")->height() > 260);
            // The user drags the area shorter than the charts would ask for, and quits.
            first->resizeDocks({dock(*first, "chartsDock")}, {230}, Qt::Vertical);
            QTRY_VERIFY(dock(*first, "chartsDock")->height() < 260);
            saved_height = dock(*first, "chartsDock")->height();
            QVERIFY(saved_height < 260);
            closeWindow(first);
        }
        auto second = openWindow();
        QVERIFY(second);
        const QDockWidget* charts = dock(*second, "chartsDock");
        QVERIFY(charts->isVisible());
        QCOMPARE(charts->height(), saved_height);
        QTest::qWait(100);  // and nothing grows it afterwards
        QCOMPARE(charts->height(), saved_height);
        closeWindow(second);
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    DockLayoutTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "dock_layout_test.moc"
