#pragma once

#include <QList>
#include <QMainWindow>
#include <memory>

#include "window/app_actions.h"
#include "window/scenario_catalog.h"
#include "window/shortcut_list.h"

class QDockWidget;
class QMenu;

namespace ratelab::ui {

class Autosave;
class ComparisonPanel;
class KeysPanel;
class FileController;
class FrameModel;
class LearnPanel;
class LectureActions;
class PredictPanel;
class ParametersBar;
class PlaybackClock;
class Session;
class TimelinePanel;
class TimelineView;

/// The main window. It creates the session, the clock and the views, and wires them together;
/// the behaviour lives in those classes.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Session* session() const { return session_; }
    PlaybackClock* clock() const { return clock_; }
    FrameModel* frames() const { return frames_; }
    FileController* files() const { return files_; }
    Autosave* autosave() const { return autosave_; }
    TimelineView* timeline() const;
    ComparisonPanel* comparison() const { return comparison_; }
    LearnPanel* learn() const { return learn_; }
    ParametersBar* parameters() const { return parameters_; }
    const AppActions& actions() const { return actions_; }
    LectureActions* lecture() const { return lecture_; }
    /// What Help > Keyboard Shortcuts lists: every key the window answers to.
    QList<ShortcutRow> shortcutRows() const;

    bool openFile(const QString& path);
    /// At start: offers unsaved work that a crash left behind. True if some was recovered.
    bool offerRecovery();

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createDocks();
    void createMenus();
    void createToolBars();
    void connectActions();
    void connectViews();
    void connectCounting();
    void rebuildRecentMenu();
    void rebuildExamplesMenu();
    void rebuildScenarios();
    void chooseScenario(int index);
    void selectAlgorithm(int row);
    void updateTitle();
    void showGuide();
    void showShortcuts();
    void showAbout();
    void restoreSettings();
    /// A window larger than its screen's free area (the default size on a small screen, or a
    /// remembered one from a larger screen) shrinks to fit it.
    void fitToScreen();
    void saveSettings() const;

    Session* session_;
    PlaybackClock* clock_;
    FrameModel* frames_;
    FileController* files_;
    Autosave* autosave_;
    AppActions actions_;
    TimelinePanel* timeline_panel_;
    ComparisonPanel* comparison_;
    LearnPanel* learn_;
    ParametersBar* parameters_;
    QDockWidget* comparison_dock_ = nullptr;
    QDockWidget* charts_dock_ = nullptr;
    QObject* charts_growth_ = nullptr;   // RaisedDockGrowth of the charts dock
    QObject* sweep_growth_ = nullptr;    // and of the sweep dock
    QObject* fleet_growth_ = nullptr;    // and of the fleet dock
    QObject* clients_growth_ = nullptr;  // and of the clients dock
    QObject* keys_growth_ = nullptr;     // and of the keys dock
    QDockWidget* learn_dock_ = nullptr;
    QDockWidget* advanced_dock_ = nullptr;
    QDockWidget* lanes_dock_ = nullptr;
    QDockWidget* keys_dock_ = nullptr;
    QDockWidget* sweep_dock_ = nullptr;
    QDockWidget* fleet_dock_ = nullptr;
    QDockWidget* predict_dock_ = nullptr;
    QDockWidget* response_dock_ = nullptr;
    QDockWidget* clients_dock_ = nullptr;
    QDockWidget* lessons_dock_ = nullptr;
    QDockWidget* drills_dock_ = nullptr;
    LectureActions* lecture_ = nullptr;
    PredictPanel* predict_ = nullptr;
    KeysPanel* keys_ = nullptr;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QAction* advanced_ = nullptr;
    QAction* lanes_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* examples_menu_ = nullptr;
    QList<Scenario> scenarios_;
};

}  // namespace ratelab::ui
