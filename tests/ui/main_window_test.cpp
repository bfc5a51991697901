// The main window driven like a user would: mouse and keyboard through QTest, offscreen.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHelpEvent>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <QUndoStack>
#include <QUrl>

#include "driving.h"
#include "isolated_settings.h"
#include "panels/learn_panel.h"
#include "panels/parameters_bar.h"
#include "ratelab/io/trace_file.h"
#include "session/frame_model.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "window/file_controller.h"
#include "window/shortcut_list.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;  // never the user's settings; cleared before each test
    std::unique_ptr<MainWindow> window_;

    TimelineView* view() const { return window_->timeline(); }
    Session* session() const { return window_->session(); }
    PlaybackClock* clock() const { return window_->clock(); }
    void key(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QTest::keyClick(view(), static_cast<Qt::Key>(key), modifiers);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }

    void init() {
        IsolatedSettings::clear();
        window_ = std::make_unique<MainWindow>();
        window_->files()->setInteractive(false);
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        window_->activateWindow();
        view()->setFocus();
    }

    void cleanup() {
        window_->session()->undoStack()->setClean();  // no "unsaved changes" prompt on close
        window_.reset();
    }

    void opensOnTheDefaultScenarioWithEverythingRevealed() {
        QVERIFY(session()->trace() == default_trace());
        QCOMPARE(clock()->now(), clock()->end());
        QVERIFY(window_->windowTitle().contains(QStringLiteral("Boundary burst")));
        const auto& runs = session()->result()->runs;
        for (const AlgorithmRun& run : runs) {
            QCOMPARE(tableText(*window_, run.id, ComparisonModel::kAccepted),
                     QString::number(run.totals.accepted));
        }
    }

    void clickingTheTraceRowAddsARequestAndTheViewsFollow() {
        const int decisions_before = tableDecisionTotal(*window_);
        const Tick tick = 16;
        QVERIFY(requestsOnTick(session()->trace(), tick).first ==
                requestsOnTick(session()->trace(), tick).last);
        QTest::mouseClick(view(), Qt::LeftButton, {}, traceRowPoint(*view(), tick));
        QCOMPARE(session()->trace().requests.size(), default_trace().requests.size() + 1);
        QCOMPARE(session()->trace().requests.back().tick, tick);
        // Every lane decided the new request, and the table counts it.
        const Frame& frame = view()->frame();
        for (const AlgorithmRun& run : frame.result->runs) {
            QCOMPARE(run.decisions.size(), default_trace().requests.size() + 1);
        }
        QCOMPARE(tableDecisionTotal(*window_),
                 decisions_before + static_cast<int>(frame.result->runs.size()));
        QVERIFY(window_->isWindowModified());
    }

    void deleteRemovesTheSelectedRequestAndUndoBringsItBack() {
        QTest::mouseClick(view(), Qt::LeftButton, {}, requestPoint(*view(), 2));
        QCOMPARE(session()->selection(), (IndexList{2}));
        key(Qt::Key_Delete);
        QCOMPARE(session()->trace().requests.size(), default_trace().requests.size() - 1);
        QCOMPARE(tableText(*window_, "fixed_window", ComparisonModel::kAccepted),
                 QString::number(default_trace().requests.size() - 1));
        key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(session()->trace() == default_trace());
        QCOMPARE(tableText(*window_, "fixed_window", ComparisonModel::kAccepted),
                 QString::number(default_trace().requests.size()));
    }

    void draggingARequestMovesItInOneUndoStep() {
        const QPoint from = requestPoint(*view(), 0);  // tick 6
        const QPoint to = traceRowPoint(*view(), 2);
        QTest::mousePress(view(), Qt::LeftButton, {}, from);
        for (int step = 1; step <= 4; ++step) {
            QTest::mouseMove(view(), from + (to - from) * step / 4);
        }
        QTest::mouseRelease(view(), Qt::LeftButton, {}, to);
        QCOMPARE(session()->trace().requests.front().tick, Tick(2));
        QCOMPARE(session()->undoStack()->count(), 1);
        session()->undoStack()->undo();
        QVERIFY(session()->trace() == default_trace());
    }

    void theWheelOverARequestChangesItsCost() {
        const QPoint at = requestPoint(*view(), 1);
        QWheelEvent wheel(at, view()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view(), &wheel);
        QCOMPARE(session()->trace().requests[1].cost, 2U);
    }

    void changingLUpdatesTheTable() {
        QSpinBox* limit = window_->parameters()->limitBox();
        limit->setFocus();
        limit->selectAll();
        QTest::keyClicks(limit, QStringLiteral("2"));
        QCOMPARE(session()->params().base.limit, 2);
        Params params = default_params();
        params.base.limit = 2;
        const auto expected = simulate(std::make_shared<const Trace>(default_trace()), params);
        for (const AlgorithmRun& run : expected->runs) {
            QCOMPARE(tableText(*window_, run.id, ComparisonModel::kAccepted),
                     QString::number(run.totals.accepted));
            QCOMPARE(tableText(*window_, run.id, ComparisonModel::kWorstBurst),
                     QString::number(run.worst_burst.cost));
        }
        QCOMPARE(session()->undoStack()->count(), 1);
    }

    void stepPlayAndFireNow() {
        view()->setFocus();
        key(Qt::Key_Home);
        QCOMPARE(clock()->now(), Tick(0));
        QCOMPARE(tableDecisionTotal(*window_), 0);
        key(Qt::Key_Right);
        QCOMPARE(clock()->now(), Tick(1));
        clock()->setSpeed(100);
        key(Qt::Key_Space);
        QVERIFY(clock()->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(clock()->now() >= 8, 5000);
        key(Qt::Key_Space);
        QVERIFY(!clock()->isPlaying());
        const Tick now = clock()->now();
        const std::size_t decided = countUpTo(session()->trace(), now);
        QCOMPARE(tableDecisionTotal(*window_),
                 static_cast<int>(decided * session()->result()->runs.size()));
        QVERIFY(window_->comparison()
                    ->comparisonModel()
                    ->headerData(ComparisonModel::kState, Qt::Horizontal, Qt::DisplayRole)
                    .toString()
                    .contains(QString::number(now)));
        key(Qt::Key_F);
        QCOMPARE(session()->trace().requests.size(), default_trace().requests.size() + 1);
        QCOMPARE(requestsOnTick(session()->trace(), now).last -
                     requestsOnTick(default_trace(), now).last,
                 std::size_t(1));
        QCOMPARE(tableDecisionTotal(*window_),
                 static_cast<int>((decided + 1) * session()->result()->runs.size()));
    }

    void everyToolbarButtonStaysInSightAtAnyWidth() {
        // At 1024 px "Advanced…" and "Lanes…" used to fall into the toolbar's overflow menu.
        auto* playback = window_->findChild<QToolBar*>(QStringLiteral("playbackToolBar"));
        auto* parameters = window_->findChild<QToolBar*>(QStringLiteral("parametersToolBar"));
        QVERIFY(playback && parameters);
        for (const int width : {1920, 1024, 1920}) {
            window_->resize(width, 800);
            QApplication::processEvents();
            QTest::qWait(20);
            QApplication::processEvents();
            for (QAction* action : parameters->actions()) {
                const QWidget* button = parameters->widgetForAction(action);
                if (action->isSeparator() || !button) {
                    continue;
                }
                QVERIFY2(button->isVisible() && parameters->rect().contains(button->geometry()),
                         qPrintable(QStringLiteral("%1 at %2 px").arg(action->text()).arg(width)));
            }
            QVERIFY(parameters->geometry().right() < window_->width());
            // Side by side when there is room: a second row only where it is needed.
            QCOMPARE(parameters->y() == playback->y(), width == 1920);
        }
    }

    void theToolbarHoldsStillWhileTheClockMoves() {
        const auto* speeds = window_->findChild<QComboBox*>(QStringLiteral("speedBox"));
        QVERIFY(speeds);
        const auto where = [&] { return speeds->mapTo(window_.get(), QPoint(0, 0)); };
        clock()->setNow(0);
        QApplication::processEvents();
        const QPoint at_start = where();
        for (Tick now = 1; now <= clock()->end(); ++now) {
            clock()->setNow(now);
            QApplication::processEvents();
            QCOMPARE(where(), at_start);
        }
    }

    void theSlowestSpeedIsOneTickASecond() {
        const auto* speeds = window_->findChild<QComboBox*>(QStringLiteral("speedBox"));
        QVERIFY(speeds);
        QCOMPARE(speeds->itemData(0).toDouble(), 1.0);
        QCOMPARE(speeds->itemText(0), QStringLiteral("1 tick/s"));
        QCOMPARE(speeds->itemText(1), QStringLiteral("2 ticks/s"));
    }

    void steppingBackHidesDecisionsAgain() {
        clock()->setNow(10);  // requests at 6..10 decided
        const int at_ten = tableDecisionTotal(*window_);
        key(Qt::Key_Left);
        QCOMPARE(clock()->now(), Tick(9));
        QCOMPARE(view()->frame().decided, std::size_t(4));
        QCOMPARE(tableDecisionTotal(*window_),
                 at_ten - static_cast<int>(session()->result()->runs.size()));
    }

    void scrubbingOnTheRulerMovesTheClock() {
        const TimelineScene scene = view()->scene();
        const QPoint at(static_cast<int>(scene.centreX(5)),
                        static_cast<int>(scene.layout.ruler.center().y()));
        QTest::mousePress(view(), Qt::LeftButton, {}, at);
        QCOMPARE(clock()->now(), Tick(5));
        QTest::mouseMove(view(), QPoint(static_cast<int>(scene.centreX(11)), at.y()));
        QCOMPARE(clock()->now(), Tick(11));
        QTest::mouseRelease(view(), Qt::LeftButton, {}, at);
    }

    void hoveringADecisionExplainsIt() {
        const int lane = 1;  // sliding_log, which rejects the request at tick 10
        const std::size_t index = 4;
        QCOMPARE(session()->result()->runs[lane].id, std::string("sliding_log"));
        QVERIFY(!session()->result()->runs[lane].accepted(index));
        const QPoint at = requestPoint(*view(), index, lane);
        QHelpEvent help(QEvent::ToolTip, at, view()->mapToGlobal(at));
        QApplication::sendEvent(view(), &help);
        const QString text = QToolTip::text();
        const Explanation why = explain(*session()->result(), lane, index);
        QVERIFY2(text.contains(QString::fromStdString(why.check).toHtmlEscaped()),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Rejected")));
        QVERIFY(text.contains(QStringLiteral("retry after")));
    }

    void selectingARowHighlightsItsLaneAndExplainsIt() {
        window_->comparison()->selectRow(3);
        QCOMPARE(view()->highlightedLane(), 3);
        const std::string id = session()->result()->runs[3].id;
        QCOMPARE(window_->learn()->algorithm(), id);
        QString title = LearnPanel::textFor(id).section(QLatin1Char('\n'), 0, 0);
        title.remove(QLatin1Char('#'));
        QVERIFY(!title.trimmed().isEmpty());
        QVERIFY(window_->learn()->toPlainText().contains(title.trimmed()));
    }

    void openingABadFileKeepsTheCurrentTraceAndSaysWhere() {
        session()->addRequest(30);
        const Trace before = session()->trace();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "ratelab-trace", "version": 1, "requests": [{"tick": -4}]})");
        file.close();
        std::string location;
        try {
            io::load_trace(path.toStdString());
            QFAIL("the trace library accepted a negative tick");
        } catch (const io::TraceFileError& error) {
            location = error.location();
        }
        QVERIFY(!location.empty());
        QSignalSpy errors(window_->files(), &FileController::errorOccurred);
        QVERIFY(!window_->openFile(path));
        QCOMPARE(errors.count(), 1);
        const QString message = errors.first().at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("broken.json")), qPrintable(message));
        QVERIFY2(message.contains(QString::fromStdString(location)), qPrintable(message));
        QVERIFY(session()->trace() == before);
        QVERIFY(session()->isModified());
        QCOMPARE(session()->undoStack()->count(), 1);
    }

    void savedFilesOpenAgainAndAFailedSaveChangesNothing() {
        session()->addRequest(17);
        session()->stepCosts({0}, 2);
        const Trace edited = session()->trace();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("edited.json"));
        QVERIFY(window_->files()->saveTo(path));
        QVERIFY(!session()->isModified());
        QCOMPARE(session()->filePath(), path);
        QVERIFY(window_->windowTitle().contains(QStringLiteral("edited.json")));
        QVERIFY(window_->files()->recentFiles().contains(path));

        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray on_disk = saved.readAll();
        saved.close();
        session()->addRequest(40);
        QSignalSpy errors(window_->files(), &FileController::errorOccurred);
        QVERIFY(!window_->files()->saveTo(dir.path()));  // a folder cannot be written as a file
        QCOMPARE(errors.count(), 1);
        QVERIFY(session()->isModified());
        QCOMPARE(session()->filePath(), path);

        QVERIFY(window_->openFile(path));
        QVERIFY(session()->trace() == edited);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll(), on_disk);
    }

    void theScenarioChooserLoadsBundledTracesAndPatterns() {
        QComboBox* chooser = window_->parameters()->scenarioBox();
        QVERIFY2(chooser->count() > 2, "no bundled traces or patterns were found");
        int bundled = -1;
        int pattern = -1;
        for (int i = 1; i < chooser->count(); ++i) {
            int& first =
                chooser->itemText(i).startsWith(QStringLiteral("Pattern")) ? pattern : bundled;
            if (first < 0) {
                first = i;
            }
        }
        QVERIFY(bundled > 0 && pattern > 0);
        chooser->setFocus();
        chooser->setCurrentIndex(bundled);
        Q_EMIT chooser->activated(bundled);
        QCOMPARE(QString::fromStdString(session()->document().name), chooser->itemText(bundled));
        QVERIFY(!session()->isModified());
        Q_EMIT chooser->activated(pattern);
        QVERIFY(!session()->trace().requests.empty());
        Q_EMIT chooser->activated(0);
        QVERIFY(session()->trace() == default_trace());
    }

    void cancellingAScenarioSwitchKeepsTheChooserOnTheCurrentOne() {
        QComboBox* chooser = window_->parameters()->scenarioBox();
        QCOMPARE(chooser->currentIndex(), 0);  // the default scenario
        const QString shown = chooser->currentText();
        session()->addRequest(2);  // unsaved: switching asks first
        window_->files()->setInteractive(true);
        QTimer::singleShot(0, this, [] {
            auto* question = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(question != nullptr);
            question->button(QMessageBox::Cancel)->click();
        });
        chooser->setCurrentIndex(1);  // as a pick does, before the question
        Q_EMIT chooser->activated(1);
        window_->files()->setInteractive(false);
        QCOMPARE(chooser->currentIndex(), 0);
        QCOMPARE(chooser->currentText(), shown);
        QCOMPARE(session()->trace().requests.size(), default_trace().requests.size() + 1);
    }

    void droppingAFileOpensIt() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.json"));
        session()->addRequest(3);
        QVERIFY(window_->files()->saveTo(path));
        session()->reset(SessionDocument::defaultScenario(), {});
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &data, Qt::LeftButton, {});
        QApplication::sendEvent(window_.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &data, Qt::LeftButton, {});
        QApplication::sendEvent(window_.get(), &drop);
        QCOMPARE(session()->filePath(), path);
        QCOMPARE(session()->trace().requests.size(), default_trace().requests.size() + 1);
    }

    void newStartsAnEmptyTrace() {
        window_->actions().new_file->trigger();
        QVERIFY(session()->trace().requests.empty());
        QVERIFY(session()->filePath().isEmpty());
        QCOMPARE(tableDecisionTotal(*window_), 0);
    }

    void theTitleShowsTheModifiedMark() {
        QVERIFY(!window_->isWindowModified());
        session()->addRequest(2);
        QVERIFY(window_->isWindowModified());
        session()->undoStack()->undo();
        QVERIFY(!window_->isWindowModified());
    }

    void theShortcutListLeavesOutKeysNoKeyboardHas() {
        // X11's standard Undo includes F14, the Undo key of old Sun keyboards.
        QCOMPARE(listedKeys({QKeySequence(Qt::CTRL | Qt::Key_Z), QKeySequence(Qt::Key_F14)}),
                 QStringLiteral("Ctrl+Z"));
        QCOMPARE(listedKeys({QKeySequence(Qt::Key_F12), QKeySequence(Qt::Key_F13)}),
                 QStringLiteral("F12"));
    }

    void theShortcutListNamesEveryKeyAndNoUndoStep() {
        session()->addRequest(2);  // Undo and Redo now name a step
        session()->addRequest(3);
        session()->undoStack()->undo();
        QStringList commands;
        QStringList keys;
        for (const ShortcutRow& row : window_->shortcutRows()) {
            commands << row.command;
            keys << row.keys.split(QStringLiteral(", "));
        }
        for (const QString& expected :
             {QStringLiteral("Ctrl+E"), QStringLiteral("Ctrl+Shift+C"),
              QStringLiteral("Ctrl+Shift+A"), QStringLiteral("Ctrl+Shift+L"), QStringLiteral("Esc"),
              QStringLiteral("Ctrl+Z")}) {
            QVERIFY2(keys.contains(expected), qPrintable(expected));
        }
        QVERIFY(commands.contains(QStringLiteral("Undo")));
        QVERIFY(commands.contains(QStringLiteral("Redo")));
        for (const QString& command : commands) {
            QVERIFY2(!command.startsWith(QStringLiteral("Undo ")), qPrintable(command));
            QVERIFY2(!command.startsWith(QStringLiteral("Redo ")), qPrintable(command));
            QVERIFY2(!command.contains(QLatin1Char('&')), qPrintable(command));
        }
        for (const QString& each : keys) {
            QVERIFY2(!each.contains(QStringLiteral("F14")), qPrintable(each));
        }
        QCOMPARE(commands.removeDuplicates(), 0);
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
