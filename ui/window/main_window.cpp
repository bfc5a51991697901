#include "window/main_window.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

#include "fleet/fleet_panel.h"
#include "panels/advanced_panel.h"
#include "panels/clients_panel.h"
#include "panels/comparison_model.h"
#include "panels/comparison_panel.h"
#include "panels/drill_panel.h"
#include "panels/keys_panel.h"
#include "panels/lanes_panel.h"
#include "panels/learn_panel.h"
#include "panels/lesson_panel.h"
#include "panels/parameters_bar.h"
#include "panels/predict_panel.h"
#include "panels/response_panel.h"
#include "panels/sweep_panel.h"
#include "session/autosave.h"
#include "session/document_files.h"
#include "session/frame_model.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_panel.h"
#include "timeline/timeline_view.h"
#include "window/charts_slot.h"
#include "window/file_controller.h"
#include "window/lecture_actions.h"
#include "window/palette_icon.h"
#include "window/raised_dock_growth.h"
#include "window/remembered_state.h"
#include "window/tiers_dialog.h"

namespace ratelab::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      session_(new Session(this)),
      clock_(new PlaybackClock(this)),
      frames_(new FrameModel(session_, clock_, this)),
      files_(new FileController(session_, this, this)),
      autosave_(new Autosave(session_, Autosave::defaultFolder(), Autosave::kInterval, this)),
      actions_(this),
      timeline_panel_(new TimelinePanel(session_, clock_, this)),
      comparison_(new ComparisonPanel(this)),
      learn_(new LearnPanel(this)),
      parameters_(new ParametersBar(session_, this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setCentralWidget(timeline_panel_);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);
    createDocks();
    lecture_ = new LectureActions(session_, clock_, this);
    createToolBars();
    createMenus();
    connectActions();
    connectViews();
    rebuildScenarios();
    statusBar()->showMessage(
        tr("Click the top row to add a request; hover a decision to see why. Space plays."));
    qApp->installEventFilter(this);
    resize(1280, 800);
    restoreSettings();
    fitToScreen();
    timeline()->setFrame(frames_->frame());
    comparison_->comparisonModel()->setFrame(frames_->frame());
    keys_->setFrame(frames_->frame());
    clock_->jumpToEnd();
    updateTitle();
}

MainWindow::~MainWindow() {
    qApp->removeEventFilter(this);
    // The docks hide while the window is taken apart; the growth helper must not answer by
    // laying out the half-destroyed window.
    delete charts_growth_;
    delete sweep_growth_;
    delete fleet_growth_;
    delete clients_growth_;
    delete keys_growth_;
}

TimelineView* MainWindow::timeline() const {
    return timeline_panel_->view();
}

bool MainWindow::openFile(const QString& path) {
    return files_->openFile(path);
}

bool MainWindow::offerRecovery() {
    return files_->offerRecovery();
}

void MainWindow::createDocks() {
    const auto dock = [this](const QString& title, const QString& name, QWidget* content,
                             Qt::DockWidgetArea area) {
        auto* widget = new QDockWidget(title, this);
        widget->setObjectName(name);
        widget->setWidget(content);
        addDockWidget(area, widget);
        return widget;
    };
    comparison_dock_ = dock(tr("Comparison"), QStringLiteral("comparisonDock"), comparison_,
                            Qt::BottomDockWidgetArea);
    ChartsContext context{session_, clock_, frames_, timeline(), statusBar()};
    charts_dock_ = dock(tr("Charts"), QStringLiteral("chartsDock"),
                        createChartsWidget(context, this), Qt::BottomDockWidgetArea);
    tabifyDockWidget(comparison_dock_, charts_dock_);
    keys_ = new KeysPanel(this);
    keys_dock_ = dock(tr("Keys"), QStringLiteral("keysDock"), keys_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(charts_dock_, keys_dock_);
    followChosenKeys(charts_dock_->widget(), keys_, comparison_->comparisonModel());
    sweep_dock_ = dock(tr("Sweep"), QStringLiteral("sweepDock"), new SweepPanel(session_, this),
                       Qt::BottomDockWidgetArea);
    tabifyDockWidget(keys_dock_, sweep_dock_);
    auto* fleet = new FleetPanel(session_, clock_, this);
    fleet_dock_ = dock(tr("Fleet"), QStringLiteral("fleetDock"), fleet, Qt::BottomDockWidgetArea);
    tabifyDockWidget(sweep_dock_, fleet_dock_);
    // The selected request's HTTP response per lane, a row each, as the comparison table.
    response_dock_ = dock(tr("Response"), QStringLiteral("responseDock"),
                          new ResponsePanel(session_, this), Qt::BottomDockWidgetArea);
    tabifyDockWidget(fleet_dock_, response_dock_);
    // Clients that retry, back off or honour Retry-After, on every shown lane.
    auto* clients = new ClientsPanel(session_, this);
    clients_dock_ =
        dock(tr("Clients"), QStringLiteral("clientsDock"), clients, Qt::BottomDockWidgetArea);
    connect(clients, &ClientsPanel::retriesChanged, timeline(), &TimelineView::setRetries);
    tabifyDockWidget(response_dock_, clients_dock_);
    // A mode's row in the Fleet view brings up that mode's Learn text.
    connect(fleet, &FleetPanel::learnAbout, learn_, &LearnPanel::setAlgorithm);
    // The decisions show the ticks the timeline shows, zoomed and scrolled with it.
    connect(timeline(), &TimelineView::viewChanged, fleet, &FleetPanel::setVisibleRange);
    fleet->setVisibleRange(timeline()->axis().firstTime(), timeline()->axis().lastTime());
    connect(fleet, &FleetPanel::exported, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    comparison_dock_->raise();
    // The charts are shorter than the table's tab needs only when they are not shown; they take
    // their height when their tab is raised, so the bottom area can start as tall as the table.
    charts_growth_ = new RaisedDockGrowth(this, charts_dock_);
    sweep_growth_ = new RaisedDockGrowth(this, sweep_dock_);
    fleet_growth_ = new RaisedDockGrowth(this, fleet_dock_);
    clients_growth_ = new RaisedDockGrowth(this, clients_dock_);
    keys_growth_ = new RaisedDockGrowth(this, keys_dock_);
    learn_dock_ = dock(tr("Learn"), QStringLiteral("learnDock"), learn_, Qt::RightDockWidgetArea);
    // The tall forms scroll rather than hold the whole right-hand area to their height: on a
    // short screen that held the raised charts to a strip whose legend was cut off.
    const auto scrolled = [](QWidget* panel) {
        auto* area = new QScrollArea;
        area->setWidget(panel);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setFocusProxy(panel);
        return area;
    };
    advanced_dock_ = dock(tr("Advanced"), QStringLiteral("advancedDock"),
                          scrolled(new AdvancedPanel(session_, this)), Qt::RightDockWidgetArea);
    tabifyDockWidget(learn_dock_, advanced_dock_);
    lanes_dock_ = dock(tr("Lanes"), QStringLiteral("lanesDock"),
                       scrolled(new LanesPanel(session_, this)), Qt::RightDockWidgetArea);
    tabifyDockWidget(advanced_dock_, lanes_dock_);
    predict_ = new PredictPanel(session_, clock_, this);
    predict_dock_ =
        dock(tr("Predict"), QStringLiteral("predictDock"), predict_, Qt::RightDockWidgetArea);
    tabifyDockWidget(lanes_dock_, predict_dock_);
    auto* lessons = new LessonPanel(
        session_, clock_,
        [this](SessionDocument document) { return files_->openDocument(std::move(document)); },
        this);
    lessons_dock_ =
        dock(tr("Lessons"), QStringLiteral("lessonsDock"), lessons, Qt::BottomDockWidgetArea);
    connect(lessons, &LessonPanel::highlightsChanged, timeline(),
            &TimelineView::setLessonHighlights);
    tabifyDockWidget(fleet_dock_, lessons_dock_);
    auto* drills = new DrillPanel(
        clock_,
        [this](SessionDocument document) { return files_->openDocument(std::move(document)); },
        this);
    drills_dock_ =
        dock(tr("Drills"), QStringLiteral("drillsDock"), drills, Qt::BottomDockWidgetArea);
    tabifyDockWidget(lessons_dock_, drills_dock_);
    comparison_dock_->raise();
    learn_dock_->raise();
    resizeDocks({learn_dock_}, {330}, Qt::Horizontal);
    resizeDocks({comparison_dock_}, {comparison_->sizeHint().height()}, Qt::Vertical);
}

void MainWindow::connectActions() {
    connect(actions_.new_file, &QAction::triggered, files_, &FileController::newDocument);
    connect(actions_.open, &QAction::triggered, files_, &FileController::open);
    connect(actions_.import_traffic, &QAction::triggered, files_, &FileController::importTraffic);
    connect(actions_.save, &QAction::triggered, files_, &FileController::save);
    connect(actions_.save_as, &QAction::triggered, files_, &FileController::saveAs);
    connect(actions_.quit, &QAction::triggered, this, &QWidget::close);

    TimelineView* view = timeline();
    connect(actions_.delete_selection, &QAction::triggered, view, &TimelineView::deleteSelection);
    connect(actions_.select_all, &QAction::triggered, view, &TimelineView::selectAll);
    connect(actions_.select_next, &QAction::triggered, view, &TimelineView::selectNext);
    connect(actions_.select_previous, &QAction::triggered, view, &TimelineView::selectPrevious);
    connect(actions_.move_earlier, &QAction::triggered, view, [view] { view->moveSelection(-1); });
    connect(actions_.move_later, &QAction::triggered, view, [view] { view->moveSelection(+1); });
    connect(actions_.increase_cost, &QAction::triggered, view, &TimelineView::increaseCost);
    connect(actions_.decrease_cost, &QAction::triggered, view, &TimelineView::decreaseCost);
    connect(actions_.set_key, &QAction::triggered, view, &TimelineView::askKey);
    connect(actions_.set_duration, &QAction::triggered, view, &TimelineView::askDuration);
    connect(actions_.add_note, &QAction::triggered, view, &TimelineView::addNoteAtClock);
    connect(actions_.edit_tiers, &QAction::triggered, this, [this] {
        TiersDialog dialog(session_, this);
        dialog.exec();
    });
    keys_->setTiersAction(actions_.edit_tiers);
    connect(actions_.zoom_in, &QAction::triggered, view, &TimelineView::zoomIn);
    connect(actions_.zoom_out, &QAction::triggered, view, &TimelineView::zoomOut);
    connect(actions_.fit, &QAction::triggered, view, &TimelineView::fitToTrace);
    connect(actions_.pan_left, &QAction::triggered, view, &TimelineView::panLeft);
    connect(actions_.pan_right, &QAction::triggered, view, &TimelineView::panRight);
    connect(actions_.split_by_key, &QAction::toggled, view, &TimelineView::setSplitByKey);
    const auto splittable = [this, view] {
        actions_.split_by_key->setEnabled(view->canSplitByKey());
    };
    connect(view, &TimelineView::keyColoursChanged, this, splittable);
    splittable();

    connect(actions_.play_pause, &QAction::triggered, clock_, &PlaybackClock::togglePlaying);
    connect(actions_.step_back, &QAction::triggered, clock_, &PlaybackClock::stepBack);
    connect(actions_.step_forward, &QAction::triggered, clock_, &PlaybackClock::stepForward);
    connect(actions_.reset, &QAction::triggered, clock_, &PlaybackClock::reset);
    connect(actions_.jump_to_end, &QAction::triggered, clock_, &PlaybackClock::jumpToEnd);
    connect(actions_.slower, &QAction::triggered, clock_, &PlaybackClock::slower);
    connect(actions_.faster, &QAction::triggered, clock_, &PlaybackClock::faster);
    connect(actions_.predict, &QAction::triggered, this, [this] {
        predict_dock_->show();
        predict_dock_->raise();
        predict_->start();
    });
    connect(actions_.fire_now, &QAction::triggered, this,
            [this] { session_->addRequest(clock_->now()); });
    connect(clock_, &PlaybackClock::playingChanged, this, [this](bool playing) {
        actions_.play_pause->setText(playing ? tr("&Pause") : tr("&Play"));
        setPaletteIcon(actions_.play_pause, playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay);
        AppActions::updateToolTip(actions_.play_pause,
                                  playing ? tr("Stop the clock") : tr("Run the clock"));
    });
    connect(lecture_, &LectureActions::message, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
    connect(actions_.shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
    connect(actions_.about, &QAction::triggered, this, &MainWindow::showAbout);
    files_->setAutosave(autosave_);
    connect(autosave_, &Autosave::failed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(files_, &FileController::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    connect(files_, &FileController::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
}

void MainWindow::connectCounting() {
    // A far move of the clock, or a change of the settings, over many keys counts their figures
    // on a thread, while the table and the Keys tab still show (muted) those of the clock or
    // the settings before: say so, and say when they could not be counted.
    auto* counting = new QLabel(this);
    counting->setObjectName(QStringLiteral("countingLabel"));
    counting->hide();
    statusBar()->addPermanentWidget(counting);
    connect(frames_, &FrameModel::frameChanged, counting, [counting](const Frame& frame) {
        counting->setText(frame.count_failed ? tr("Figures not counted")
                          : frame.earlier_settings
                              ? tr("Counting the figures for the new settings…")
                              : tr("Counting the figures up to the clock…"));
        counting->setVisible(frame.counting);
    });
    connect(frames_, &FrameModel::failed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
}

void MainWindow::connectViews() {
    connect(frames_, &FrameModel::frameChanged, timeline(), &TimelineView::setFrame);
    connect(timeline(), &TimelineView::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
    connect(frames_, &FrameModel::frameChanged, comparison_->comparisonModel(),
            &ComparisonModel::setFrame);
    connect(frames_, &FrameModel::frameChanged, keys_, &KeysPanel::setFrame);
    connectCounting();
    connect(comparison_, &ComparisonPanel::rowSelected, this, &MainWindow::selectAlgorithm);
    connect(comparison_, &ComparisonPanel::rowSelected, keys_, &KeysPanel::setLane);
    // A key chosen in the Keys panel is the key whose state the comparison table shows.
    connect(keys_, &KeysPanel::keySelected, comparison_->comparisonModel(),
            &ComparisonModel::setKey);
    connect(timeline(), &TimelineView::laneActivated, comparison_, &ComparisonPanel::selectRow);
    connect(session_, &Session::selectionChanged, this, [this] {
        const auto& selection = session_->selection();
        comparison_->comparisonModel()->setKey(
            selection.empty() ? std::nullopt
                              : std::optional<KeyId>(session_->trace().requests[selection[0]].key));
    });
    connect(session_, &Session::documentReset, this, [this] {
        const SessionDocument& document = session_->document();
        learn_->setScenario(QString::fromStdString(document.name),
                            QString::fromStdString(document.description));
        int match = -1;
        for (int i = 0; i < scenarios_.size(); ++i) {
            if (!scenarios_[i].path.isEmpty() && scenarios_[i].path == session_->filePath()) {
                match = i;
            }
        }
        parameters_->setCurrentScenario(match);
        keys_->table()->clearSelection();  // the keys chosen were the last document's
        clock_->jumpToEnd();
        updateTitle();
    });
    connect(session_, &Session::filePathChanged, this, &MainWindow::updateTitle);
    connect(session_, &Session::modifiedChanged, this, &MainWindow::updateTitle);
    connect(session_, &Session::simulationFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Cannot simulate: %1").arg(message), 8000);
    });
    connect(parameters_, &ParametersBar::scenarioChosen, this, &MainWindow::chooseScenario);
    const SessionDocument& document = session_->document();
    learn_->setScenario(QString::fromStdString(document.name),
                        QString::fromStdString(document.description));
}

void MainWindow::selectAlgorithm(int row) {
    timeline()->setHighlightedLane(row);
    learn_->setAlgorithm(comparison_->comparisonModel()->idAt(row));
}

void MainWindow::rebuildScenarios() {
    scenarios_ = availableScenarios();
    QStringList names;
    QStringList summaries;
    for (const Scenario& scenario : scenarios_) {
        names << scenario.name;
        summaries << scenario.summary;
    }
    parameters_->setScenarios(names, summaries, session_->filePath().isEmpty() ? 0 : -1);
    rebuildExamplesMenu();
}

void MainWindow::chooseScenario(int index) {
    if (index < 0 || index >= scenarios_.size()) {
        return;
    }
    const Scenario& scenario = scenarios_[index];
    try {
        if (!files_->openDocument(scenario.make())) {
            // Cancelled: the trace on show is still the one the chooser showed before.
            parameters_->restoreScenario();
            return;
        }
    } catch (const DocumentFileError& error) {
        parameters_->restoreScenario();
        statusBar()->showMessage(error.message(), 8000);
        return;
    }
    parameters_->setCurrentScenario(index);
    statusBar()->showMessage(tr("Loaded scenario “%1”").arg(scenario.name), 5000);
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1[*] — RateLab").arg(session_->displayName()));
    setWindowModified(session_->isModified());
    setWindowFilePath(session_->filePath());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!files_->maybeSave()) {
        event->ignore();
        return;
    }
    clock_->pause();
    lecture_->setPresenting(false);  // the layout to remember is the one with its docks
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) {
        return;
    }
    event->acceptProposedAction();
    if (files_->maybeSave()) {
        files_->openFile(urls.front().toLocalFile());
    }
}

void MainWindow::changeEvent(QEvent* event) {
    // Another palette (the desktop turned dark): icons drawn for the old one are drawn again.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        refreshPaletteIcons(this);
    QMainWindow::changeEvent(event);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // Space plays and pauses everywhere, except that a focused button or check box keeps it for
    // itself, as keyboard users expect.
    if (event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Space &&
        qobject_cast<QAbstractButton*>(watched)) {
        event->accept();
        return false;
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::fitToScreen() {
    const QScreen* where = screen();
    if (where == nullptr)
        return;
    // Room for the window manager's frame and title bar, which the geometry leaves out.
    constexpr int kFrameRoom = 48;
    const QRect room = where->availableGeometry();
    const QSize most(room.width() - kFrameRoom / 3, room.height() - kFrameRoom);
    if (width() <= most.width() && height() <= most.height())
        return;
    resize(std::min(width(), most.width()), std::min(height(), most.height()));
    move(room.topLeft());
}

void MainWindow::restoreSettings() {
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    remembered::restore(settings, *session_, *clock_);
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    remembered::save(settings, *session_, *clock_);
}

}  // namespace ratelab::ui
