// How the docks share the window: on a first start the timeline gets the room and the bottom
// area is as tall as the comparison table, the charts take their height when their tab is
// raised (and only then do their work), and a saved layout comes back as it was saved.
#include <QApplication>
#include <QChart>
#include <QDockWidget>
#include <QLineSeries>
#include <QSettings>
#include <QStyleFactory>
#include <QUndoStack>
#include <memory>

#include "charts/chart_view.h"
#include "charts/charts_panel.h"
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
    /// The points of the fixed window's line in the load chart; empty before it is drawn.
    static QList<QPointF> loadLine(const MainWindow& window) {
        const auto* panel = window.findChild<ChartsPanel*>();
        const QChart* chart = panel != nullptr ? panel->view(ChartKind::Load)->chart() : nullptr;
        if (chart == nullptr) {
            return {};
        }
        for (QAbstractSeries* series : chart->series()) {
            if (series->name() == QStringLiteral("Fixed window")) {
                return qobject_cast<QLineSeries*>(series)->points();
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }
    void init() { IsolatedSettings::clear(); }

    void theWindowNarrowsTo1024PxWithEveryDock() {
        // Each bottom tab's minimum is the window's: one wide row of controls kept the whole
        // window wider than a 1024 px screen.
        auto window = openWindow();
        QVERIFY(window);
        for (const QDockWidget* dock : window->findChildren<QDockWidget*>()) {
            QVERIFY2(dock->minimumSizeHint().width() <= 1000,
                     qPrintable(QStringLiteral("%1: %2 px")
                                    .arg(dock->objectName())
                                    .arg(dock->minimumSizeHint().width())));
        }
        QVERIFY2(window->minimumSizeHint().width() <= 1024,
                 qPrintable(QString::number(window->minimumSizeHint().width())));
        closeWindow(window);
    }

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

    void raisingTheKeysGrowsTheAreaToo() {
        // The Keys tab kept the table's height: its key table showed two rows and a half.
        auto window = openWindow();
        QVERIFY(window);
        QDockWidget* comparison = dock(*window, "comparisonDock");
        QDockWidget* keys = dock(*window, "keysDock");
        const int table_height = comparison->height();
        keys->raise();
        QTRY_VERIFY2(
            keys->height() > table_height + 30,
            qPrintable(QStringLiteral("%1 after %2").arg(keys->height()).arg(table_height)));
        QTest::qWait(50);
        comparison->raise();
        QTRY_COMPARE(comparison->height(), table_height);
        closeWindow(window);
    }

    void theChartsWaitBehindTheTableAndCatchUpWhenRaised() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(window->findChild<ChartsPanel*>() != nullptr);
        // Qt keeps the contents of a tab that is not raised "visible", only out of sight: the
        // charts must not recompute for every edit while the table is in front of them.
        const QList<QPointF> before = loadLine(*window);
        ratelab::Params params = window->session()->params();
        params.base.limit = 3;  // the fixed window then lets 2L = 6 through around a boundary
        QVERIFY(window->session()->setParams(params, QStringLiteral("L"), 0).isEmpty());
        QTest::qWait(50);
        QCOMPARE(loadLine(*window), before);

        dock(*window, "chartsDock")->raise();
        QTRY_VERIFY(!loadLine(*window).isEmpty() && loadLine(*window) != before);
        double highest = 0;
        for (const QPointF& point : loadLine(*window)) {
            highest = std::max(highest, point.y());
        }
        QCOMPARE(highest, 6.0);
        closeWindow(window);
    }

    void aShownWindowWithTheChartsRaisedCanBeDestroyed() {
        // As when the application quits without closing its windows first: the docks hide
        // while the window is being taken apart, and nothing may lay out the half-gone window.
        auto window = openWindow();
        QVERIFY(window);
        dock(*window, "chartsDock")->raise();
        QTRY_VERIFY(dock(*window, "chartsDock")->height() > 200);
        window->session()->undoStack()->setClean();
        window.reset();
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
