// MainWindow's menus, toolbars and Help dialogs.
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "panels/clock_widgets.h"
#include "panels/learn_panel.h"
#include "panels/param_keys.h"
#include "panels/parameters_bar.h"
#include "session/session.h"
#include "window/charts_slot.h"
#include "window/file_controller.h"
#include "window/guide_dialog.h"
#include "window/lecture_actions.h"
#include "window/main_window.h"
#include "window/remembered_state.h"
#include "window/shortcut_list.h"
#include "window/toolbar_wrap.h"

namespace ratelab::ui {

void MainWindow::createToolBars() {
    QToolBar* playback = addToolBar(tr("Playback"));
    playback->setObjectName(QStringLiteral("playbackToolBar"));
    playback->setMovable(false);
    playback->addAction(actions_.reset);
    playback->addAction(actions_.step_back);
    playback->addAction(actions_.play_pause);
    playback->addAction(actions_.step_forward);
    playback->addAction(actions_.jump_to_end);
    playback->addWidget(new TimeLabel(clock_, this));
    playback->addWidget(new SpeedBox(clock_, this));
    playback->addSeparator();
    playback->addAction(actions_.fire_now);
    playback->addSeparator();
    playback->addAction(actions_.predict);
    if (auto* fire = qobject_cast<QToolButton*>(playback->widgetForAction(actions_.fire_now))) {
        fire->setToolButtonStyle(Qt::ToolButtonTextOnly);
        fire->setObjectName(QStringLiteral("fireNowButton"));
    }

    QToolBar* parameters = addToolBar(tr("Parameters"));
    parameters->setObjectName(QStringLiteral("parametersToolBar"));
    parameters->setMovable(false);
    parameters->addWidget(parameters_);
    // The Advanced panel shares its dock area with Learn, so the button brings it to the front
    // rather than toggling it away.
    auto* advanced = advanced_ = new QAction(tr("Ad&vanced…"), this);
    advanced->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    AppActions::updateToolTip(advanced, tr("Show the per-algorithm overrides"));
    connect(advanced, &QAction::triggered, this, [this] {
        advanced_dock_->show();
        advanced_dock_->raise();
        advanced_dock_->widget()->setFocus();
    });
    parameters->addAction(advanced);
    addAction(advanced);
    auto* lanes = lanes_ = new QAction(tr("&Lanes…"), this);
    lanes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    AppActions::updateToolTip(lanes, tr("Choose the lanes to compare: add, duplicate, reorder, "
                                        "hide, and set each lane's parameters"));
    connect(lanes, &QAction::triggered, this, [this] {
        lanes_dock_->show();
        lanes_dock_->raise();
        lanes_dock_->widget()->setFocus();
    });
    parameters->addAction(lanes);
    addAction(lanes);
    new ToolBarWrap(this, playback, parameters);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(actions_.new_file);
    file->addAction(actions_.open);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    examples_menu_ = file->addMenu(tr("&Examples"));
    file->addAction(actions_.import_traffic);
    file->addSeparator();
    file->addAction(actions_.save);
    file->addAction(actions_.save_as);
    file->addSeparator();
    if (const QList<QAction*> exports = chartsExportActions(charts_dock_->widget());
        !exports.isEmpty()) {
        file->addActions(exports);
        file->addSeparator();
    }
    file->addAction(actions_.quit);
    rebuildRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = undo_ = session_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(QKeySequence::Undo);
    setListedName(undo, tr("Undo"));
    QAction* redo = redo_ = session_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(QKeySequence::Redo);
    setListedName(redo, tr("Redo"));
    for (QAction* action : {undo, redo}) {
        AppActions::updateToolTip(action);
        connect(action, &QAction::changed, this, [action] {
            // The text names the step ("Undo Add request at t = 5"); keep the tooltip in step.
            if (!action->toolTip().startsWith(action->text().remove(QLatin1Char('&')))) {
                AppActions::updateToolTip(action);
            }
        });
    }
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(actions_.fire_now);
    edit->addAction(actions_.delete_selection);
    edit->addAction(actions_.increase_cost);
    edit->addAction(actions_.decrease_cost);
    edit->addAction(actions_.set_key);
    edit->addAction(actions_.set_duration);
    edit->addAction(actions_.edit_tiers);
    edit->addAction(actions_.add_note);
    edit->addAction(actions_.move_earlier);
    edit->addAction(actions_.move_later);
    edit->addSeparator();
    edit->addAction(actions_.select_all);
    edit->addAction(actions_.select_next);
    edit->addAction(actions_.select_previous);
    edit->addSeparator();
    edit->addAction(actions_.restore_defaults);
    connect(actions_.restore_defaults, &QAction::triggered, this, [this] {
        session_->setParams(remembered::withDefaultBase(session_->params()),
                            tr("Restore default parameters"), kNoMerge);
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(actions_.zoom_in);
    view->addAction(actions_.zoom_out);
    view->addAction(actions_.fit);
    view->addAction(actions_.pan_left);
    view->addAction(actions_.pan_right);
    view->addSeparator();
    view->addAction(actions_.split_by_key);
    view->addSeparator();
    for (QDockWidget* dock : {comparison_dock_, charts_dock_, keys_dock_, sweep_dock_, fleet_dock_,
                              learn_dock_, advanced_dock_, lanes_dock_, predict_dock_,
                              response_dock_, clients_dock_, lessons_dock_, drills_dock_}) {
        view->addAction(dock->toggleViewAction());
    }

    QMenu* playback = menuBar()->addMenu(tr("&Playback"));
    for (QAction* action : {actions_.play_pause, actions_.step_back, actions_.step_forward,
                            actions_.reset, actions_.jump_to_end}) {
        playback->addAction(action);
    }
    playback->addSeparator();
    playback->addAction(actions_.slower);
    playback->addAction(actions_.faster);
    playback->addSeparator();
    playback->addAction(actions_.fire_now);
    playback->addSeparator();
    playback->addAction(actions_.predict);

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addActions(lecture_->goActions());
    go->insertSeparator(lecture_->start_lecture);
    view->addSeparator();
    view->addAction(lecture_->presentation);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(actions_.guide);
    connect(actions_.guide, &QAction::triggered, this, &MainWindow::showGuide);
    QAction* lessons = help->addAction(tr("&Lessons"));
    AppActions::updateToolTip(lessons, tr("Step-by-step lessons that ask and check"));
    connect(lessons, &QAction::triggered, this, [this] {
        lessons_dock_->show();
        lessons_dock_->raise();
    });
    QAction* drills = help->addAction(tr("&Drills"));
    AppActions::updateToolTip(drills, tr("Interview questions on small traces, graded"));
    connect(drills, &QAction::triggered, this, [this] {
        drills_dock_->show();
        drills_dock_->raise();
    });
    help->addAction(actions_.shortcuts);
    help->addAction(actions_.about);

    // Shortcuts of actions that sit only in menus must still work when the menu bar is hidden.
    addActions(actions_.all());
    addActions({undo, redo});
    addActions(lecture_->all());
}

void MainWindow::rebuildRecentMenu() {
    recent_menu_->clear();
    const QStringList files = files_->recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* action = recent_menu_->addAction(
            QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this,
            [this, path] {
                if (files_->maybeSave()) {
                    files_->openFile(path);
                }
            });
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
    }
    if (files.isEmpty()) {
        recent_menu_->addAction(tr("No recent files"))->setEnabled(false);
    } else {
        recent_menu_->addSeparator();
        recent_menu_->addAction(tr("&Clear List"), files_, &FileController::clearRecentFiles);
    }
}

void MainWindow::rebuildExamplesMenu() {
    examples_menu_->clear();
    for (int i = 0; i < scenarios_.size(); ++i) {
        QAction* action =
            examples_menu_->addAction(scenarios_[i].name, this, [this, i] { chooseScenario(i); });
        action->setToolTip(scenarios_[i].summary);
        action->setStatusTip(scenarios_[i].path.isEmpty()
                                 ? scenarios_[i].summary.left(120)
                                 : QDir::toNativeSeparators(scenarios_[i].path));
    }
}

void MainWindow::showGuide() {
    // One guide window, kept open beside the main window while the user tries things out.
    auto* guide = findChild<GuideDialog*>();
    if (!guide) {
        guide = new GuideDialog(this);
    }
    if (const std::string& id = learn_->algorithm(); !id.empty() && !guide->isVisible()) {
        guide->showPage(QString::fromStdString(id));
    }
    guide->show();
    guide->raise();
    guide->activateWindow();
}

QList<ShortcutRow> MainWindow::shortcutRows() const {
    QList<QAction*> listed = actions_.all();
    // In menu order: the file commands and the exports first, then editing.
    const qsizetype after_file = listed.indexOf(actions_.quit) + 1;
    const QList<QAction*> exports = chartsExportActions(charts_dock_->widget());
    for (qsizetype i = 0; i < exports.size(); ++i)
        listed.insert(after_file + i, exports[i]);
    listed.insert(listed.indexOf(actions_.delete_selection), undo_);
    listed.insert(listed.indexOf(actions_.delete_selection), redo_);
    listed << advanced_ << lanes_ << lecture_->all();
    QList<ShortcutRow> rows = ui::shortcutRows(listed);
    // Esc is no action: the timeline clears its selection itself, so that Esc still closes
    // menus and dialogs and leaves editors.
    const ShortcutRow select_all{actions_.select_all->text().remove(QLatin1Char('&')),
                                 listedKeys(actions_.select_all->shortcuts())};
    const qsizetype at = rows.indexOf(select_all);
    rows.insert(at < 0 ? rows.size() : at + 1,
                ShortcutRow{tr("Select Nothing"),
                            QKeySequence(Qt::Key_Escape).toString(QKeySequence::NativeText)});
    return rows;
}

void MainWindow::showShortcuts() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Keyboard Shortcuts"));
    auto* table = new QTableWidget(&dialog);
    table->setColumnCount(2);
    table->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (const ShortcutRow& row : shortcutRows()) {
        const int at = table->rowCount();
        table->insertRow(at);
        table->setItem(at, 0, new QTableWidgetItem(row.command));
        table->setItem(at, 1, new QTableWidgetItem(row.keys));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* extra = new QLabel(
        tr("Mouse: click the top row to add a request, drag a request to move it, turn the wheel "
           "over it to change its cost. Wheel elsewhere zooms, Shift+wheel scrolls, drag on the "
           "ruler moves the clock."),
        &dialog);
    extra->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(extra);
    layout->addWidget(buttons);
    dialog.resize(520, 600);
    dialog.exec();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About RateLab"),
        tr("<h3>RateLab %1</h3><p>A simulator of rate-limiting algorithms: six limiters side by "
           "side over one request trace, with the reason behind every decision.</p>")
            .arg(QApplication::applicationVersion()));
}

}  // namespace ratelab::ui
