// What makes the app feel at home on a desktop: the offline guide, remembered parameters, and a
// look that follows the system's light or dark palette. Driven through the real main window,
// offscreen, with settings in a temporary folder.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUndoStack>
#include <memory>

#include "charts/algorithm_names.h"
#include "dark_palette.h"
#include "driving.h"
#include "isolated_settings.h"
#include "panels/comparison_model.h"
#include "panels/learn_panel.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "session/document_files.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_palette.h"
#include "window/file_controller.h"
#include "window/guide_dialog.h"
#include "window/remembered_state.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

namespace {

Params customParams() {
    Params params = default_params();
    params.base.limit = 7;
    params.base.window = 12;
    params.rejections_count = true;
    params.base.set_override("token_bucket", "capacity", Rational(3));
    params.base.set_override("token_bucket", "refill_rate", Rational(2, 5));
    params.base.set_override("gcra", "emission_interval", Rational(5, 2));
    return params;
}

/// The title of the tab that is in front in the dock tab group holding `title`.
QString frontTabOfGroupWith(const QMainWindow& window, const QString& title) {
    for (const QTabBar* bar : window.findChildren<QTabBar*>()) {
        for (int i = 0; i < bar->count(); ++i) {
            if (bar->tabText(i) == title) {
                return bar->tabText(bar->currentIndex());
            }
        }
    }
    return {};
}

}  // namespace

class DesktopIntegrationTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;
    QPalette original_palette_;

    static std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>();
        window->files()->setInteractive(false);
        window->resize(1280, 800);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get())) {
            return nullptr;
        }
        return window;
    }
    /// Closes like the user does (so settings are saved), without an unsaved-changes prompt.
    static void closeWindow(std::unique_ptr<MainWindow>& window) {
        window->session()->undoStack()->setClean();
        QVERIFY(window->close());
        window.reset();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(settings_.isValid());
        original_palette_ = QApplication::palette();
    }

    void init() {
        IsolatedSettings::clear();
        QApplication::setPalette(original_palette_);
    }

    // --- The guide ------------------------------------------------------------------------------

    void guideOpensWithF1AndHasAPageForEachAlgorithm() {
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->actions().guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        QTest::keyClick(window->timeline(), Qt::Key_F1);
        auto* guide = window->findChild<GuideDialog*>();
        QVERIFY(guide);
        QVERIFY(guide->isVisible());
        QCOMPARE(guide->currentPage(), QStringLiteral("using"));
        QVERIFY(guide->page()->toPlainText().contains(QStringLiteral("Using RateLab")));
        QVERIFY(!guide->page()->openLinks());  // nothing in the guide may start a browser

        QStringList listed;
        for (QTreeWidgetItemIterator it(guide->contents()); *it; ++it) {
            listed << (*it)->text(0);
        }
        const auto algorithms = Registry::instance().all();
        QCOMPARE(algorithms.size(), std::size_t{6});
        QStringList pages;
        for (const AlgorithmInfo* info : algorithms) {
            const QString name = algorithmName(info->id);
            QVERIFY2(listed.contains(name), qPrintable(name));
            guide->showPage(QString::fromStdString(info->id));
            QCOMPARE(guide->currentPage(), QString::fromStdString(info->id));
            const QString text = guide->page()->toPlainText();
            // The page's heading names the algorithm ("Sliding window counter" for "Sliding
            // counter").
            const QString heading = text.section(QLatin1Char('\n'), 0, 0);
            for (const QString& word : name.split(QLatin1Char(' '))) {
                QVERIFY2(heading.contains(word, Qt::CaseInsensitive), qPrintable(heading));
            }
            QVERIFY2(text.contains(QStringLiteral("How it decides")), qPrintable(name));
            pages << text;
        }
        pages.removeDuplicates();
        QCOMPARE(pages.size(), 6);
        closeWindow(window);
    }

    void guideOpensOnTheAlgorithmSelectedInTheTable() {
        auto window = openWindow();
        QVERIFY(window);
        window->comparison()->selectRow(3);
        const std::string selected = window->comparison()->comparisonModel()->idAt(3);
        window->actions().guide->trigger();
        auto* guide = window->findChild<GuideDialog*>();
        QVERIFY(guide);
        QCOMPARE(guide->currentPage(), QString::fromStdString(selected));
        closeWindow(window);
    }

    void keyboardShortcutsMovedOffF1() {
        auto window = openWindow();
        QVERIFY(window);
        for (const QAction* action : window->actions().all()) {
            if (action != window->actions().guide) {
                QVERIFY2(!action->shortcuts().contains(QKeySequence(Qt::Key_F1)),
                         qPrintable(action->text()));
            }
        }
        closeWindow(window);
    }

    // --- Remembered parameters ------------------------------------------------------------------

    void firstStartUsesTheBuiltInDefaults() {
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->session()->params(), default_params());
        QVERIFY(window->session()->trace() == default_trace());
        QVERIFY(!window->session()->isModified());
        closeWindow(window);
    }

    void parametersSpeedAndTabsAreRememberedForTheNextStart() {
        auto first = openWindow();
        QVERIFY(first);
        QVERIFY(first->session()->setParams(customParams(), QStringLiteral("test"), 0).isEmpty());
        first->clock()->setSpeed(16);
        first->findChild<QDockWidget*>(QStringLiteral("advancedDock"))->raise();
        first->findChild<QDockWidget*>(QStringLiteral("chartsDock"))->raise();
        QCOMPARE(frontTabOfGroupWith(*first, QStringLiteral("Advanced")),
                 QStringLiteral("Advanced"));
        closeWindow(first);

        auto second = openWindow();
        QVERIFY(second);
        QCOMPARE(second->session()->params(), customParams());
        // On the default scenario, not modified: remembering is not editing.
        QVERIFY(second->session()->trace() == default_trace());
        QVERIFY(!second->session()->isModified());
        QCOMPARE(second->session()->undoStack()->count(), 0);
        QCOMPARE(second->clock()->speed(), 16.0);
        QCOMPARE(frontTabOfGroupWith(*second, QStringLiteral("Advanced")),
                 QStringLiteral("Advanced"));
        QCOMPARE(frontTabOfGroupWith(*second, QStringLiteral("Charts")), QStringLiteral("Charts"));
        // The widgets show the restored values, and the simulation used them.
        // (The Advanced panel's box: the Fleet tab has a check box of its own.)
        QVERIFY(second->findChild<QDockWidget*>(QStringLiteral("advancedDock"))
                    ->findChild<QCheckBox*>()
                    ->isChecked());
        QCOMPARE(second->session()->result()->params.base.limit, 7);
        closeWindow(second);
    }

    void restoringDefaultsIsOneUndoableStep() {
        auto window = openWindow();
        QVERIFY(window);
        Session* session = window->session();
        QVERIFY(session->setParams(customParams(), QStringLiteral("test"), 0).isEmpty());
        window->actions().restore_defaults->trigger();
        QCOMPARE(session->params(), default_params());
        QCOMPARE(session->result()->params.base.limit, default_params().base.limit);
        session->undoStack()->undo();
        QCOMPARE(session->params(), customParams());
        session->undoStack()->redo();
        closeWindow(window);

        auto next = openWindow();  // and the defaults are what the next start remembers
        QVERIFY(next);
        QCOMPARE(next->session()->params(), default_params());
        closeWindow(next);
    }

    void aTraceFileKeepsItsOwnParameters() {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        SessionDocument stored = SessionDocument::defaultScenario();
        stored.params.base.limit = 2;
        stored.params.base.window = 5;
        const QString path = folder.filePath(QStringLiteral("two-per-five.ratelab.json"));
        saveDocument(stored, path);

        remembered::setParameters(*std::make_unique<QSettings>(), customParams());
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->session()->params(), customParams());
        QVERIFY(window->openFile(path));
        QCOMPARE(window->session()->params().base.limit, 2);
        QCOMPARE(window->session()->params().base.window, 5);
        QVERIFY(!window->session()->params().rejections_count);
        closeWindow(window);
    }

    void damagedSettingsFallBackToTheDefaults() {
        {
            QSettings settings;
            settings.setValue(QStringLiteral("parameters/limit"), QStringLiteral("lots"));
            settings.setValue(QStringLiteral("parameters/window"), 10);
            settings.setValue(QStringLiteral("playback/speed"), 3.5);  // not a speed on offer
        }
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->session()->params(), default_params());
        QCOMPARE(window->clock()->speed(), 4.0);
        closeWindow(window);

        QSettings settings;
        settings.setValue(QStringLiteral("parameters/limit"), 0);  // parses, but L >= 1
        QVERIFY(!remembered::parameters(settings));
        settings.setValue(QStringLiteral("parameters/limit"), 5);
        settings.setValue(QStringLiteral("parameters/refillRate"), QStringLiteral("2/0"));
        QVERIFY(!remembered::parameters(settings));
        settings.setValue(QStringLiteral("parameters/refillRate"), QStringLiteral("5/2"));
        QVERIFY(remembered::parameters(settings)->base.override_of("token_bucket", "refill_rate") ==
                ParamValue(Rational(5, 2)));
    }

    // --- Light and dark palettes ----------------------------------------------------------------

    void aDarkPaletteRepaintsTheTimelineDark() {
        auto window = openWindow();
        QVERIFY(window);
        TimelineView* view = window->timeline();
        const QPoint empty = traceRowPoint(*view, 2);  // no request, not the current tick
        const QColor light_base = view->palette().color(QPalette::Base);
        QCOMPARE(view->grab().toImage().pixelColor(empty), light_base);

        const QPalette dark = darkPalette();
        QApplication::setPalette(dark);  // as when the desktop switches to a dark theme
        QApplication::processEvents();
        QCOMPARE(view->palette().color(QPalette::Base), dark.color(QPalette::Base));
        const QColor shown = view->grab().toImage().pixelColor(empty);
        QCOMPARE(shown, dark.color(QPalette::Base));
        QVERIFY(shown.lightnessF() < 0.2);
        closeWindow(window);
    }

    void theWorstSpanIsTintedFromItsStartToW() {
        auto window = openWindow();
        QVERIFY(window);
        TimelineView* view = window->timeline();
        const TimelineScene scene = view->scene();
        const QRectF lane = scene.layout.lanes[0];  // fixed_window: 8 in [6, 16), over L
        const QImage image = view->grab().toImage();
        const int y = static_cast<int>(lane.bottom()) - 3;  // below the marks and the bracket
        const auto at = [&](double x) { return image.pixelColor(static_cast<int>(x), y); };
        const QColor plain = at(scene.x(2.0));
        const double start = scene.x(6.0);
        const double end = scene.x(16.0);
        // Over L the band is hatched, so its pixels alternate between wash and line: every one
        // of them is tinted, and none outside the span is.
        for (const double x : {start + 2, scene.x(12.5), end - 3}) {
            QVERIFY2(at(x) != plain, qPrintable(at(x).name()));
        }
        QCOMPARE(at(start - 3), plain);
        QCOMPARE(at(end + 2), plain);
        closeWindow(window);
    }

    void overLimitCountsStayReadableOnADarkTable() {
        auto window = openWindow();
        QVERIFY(window);
        const ComparisonModel* model = window->comparison()->comparisonModel();
        const auto overLimitColour = [&] {
            for (int row = 0; row < model->rowCount(); ++row) {
                const QVariant brush =
                    model->index(row, ComparisonModel::kWorstBurst).data(Qt::ForegroundRole);
                if (brush.isValid()) {
                    return brush.value<QBrush>().color();
                }
            }
            return QColor();
        };
        QVERIFY(overLimitColour().isValid());  // the boundary burst takes the fixed window over L
        QApplication::setPalette(darkPalette());
        QApplication::processEvents();
        const QColor dark_base = window->comparison()->palette().color(QPalette::Base);
        QCOMPARE(dark_base, darkPalette().color(QPalette::Base));
        QVERIFY2(timeline_palette::contrastRatio(overLimitColour(), dark_base) >= 4.5,
                 qPrintable(overLimitColour().name()));
        closeWindow(window);
    }

    void timelineMarksStandOutOnLightAndDarkBackgrounds_data() {
        QTest::addColumn<QColor>("mark");
        QTest::addColumn<bool>("onLanes");  // else only on the trace row, which is Base
        QTest::newRow("accepted") << timeline_palette::kAccepted << true;
        QTest::newRow("rejected") << timeline_palette::kRejected << true;
        QTest::newRow("pending") << timeline_palette::kPending << true;
        QTest::newRow("burst over L") << timeline_palette::kBurstOver << true;
        QTest::newRow("request") << timeline_palette::kRequest << false;
        QTest::newRow("selection") << timeline_palette::kSelection << false;
    }
    void timelineMarksStandOutOnLightAndDarkBackgrounds() {
        QFETCH(QColor, mark);
        QFETCH(bool, onLanes);
        // The light print palette of exports, and a dark desktop palette.
        const QPalette dark = darkPalette();
        QList<QColor> backgrounds{Qt::white, dark.color(QPalette::Base)};
        if (onLanes) {
            backgrounds << QColor(0xF6, 0xF6, 0xF6) << dark.color(QPalette::AlternateBase);
        }
        for (const QColor& background : backgrounds) {
            // WCAG asks 3:1 of graphical objects.
            QVERIFY2(timeline_palette::contrastRatio(mark, background) >= 3.0,
                     qPrintable(QStringLiteral("%1 on %2: %3")
                                    .arg(mark.name(), background.name())
                                    .arg(timeline_palette::contrastRatio(mark, background))));
        }
    }

    void legibleOnReachesTheContrastItIsAskedFor() {
        QCOMPARE(timeline_palette::contrastRatio(Qt::black, Qt::white), 21.0);
        QCOMPARE(timeline_palette::contrastRatio(Qt::white, Qt::white), 1.0);
        const QColor red = timeline_palette::kRejected;
        QCOMPARE(timeline_palette::legibleOn(red, Qt::black, 2.0), red);  // already enough
        for (const QColor& background : {QColor(0x1E, 0x20, 0x23), QColor(Qt::white)}) {
            const QColor text = timeline_palette::legibleOn(red, background, 4.5);
            QVERIFY(timeline_palette::contrastRatio(text, background) >= 4.5);
            QVERIFY(qAbs(text.hslHueF() - red.hslHueF()) < 0.02);  // still the same red
        }
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    // The same style on every machine, so palette colours reach the widgets unchanged.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    DesktopIntegrationTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "desktop_integration_test.moc"
