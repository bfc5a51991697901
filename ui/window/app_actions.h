#pragma once

#include <QCoreApplication>
#include <QKeySequence>
#include <QList>
#include <QString>

class QAction;
class QObject;

namespace ratelab::ui {

/// Every command of the main window as a QAction with its text, shortcut and tooltip, so that
/// menus, toolbars and the shortcut list all show the same thing.
struct AppActions {
    Q_DECLARE_TR_FUNCTIONS(AppActions)

public:
    explicit AppActions(QObject* parent);

    /// All actions that have a shortcut, in menu order, for the shortcut list.
    QList<QAction*> all() const;

    // File
    QAction* new_file;
    QAction* open;
    QAction* import_traffic;
    QAction* save;
    QAction* save_as;
    QAction* quit;
    // Edit (undo and redo come from the undo stack)
    QAction* delete_selection;
    QAction* select_all;
    QAction* select_next;
    QAction* select_previous;
    QAction* move_earlier;
    QAction* move_later;
    QAction* increase_cost;
    QAction* set_key;
    QAction* set_duration;
    QAction* edit_tiers;
    QAction* add_note;
    QAction* decrease_cost;
    QAction* restore_defaults;
    // View
    QAction* zoom_in;
    QAction* zoom_out;
    QAction* fit;
    QAction* pan_left;
    QAction* pan_right;
    QAction* split_by_key;  ///< checkable
    // Playback
    QAction* play_pause;
    QAction* step_back;
    QAction* step_forward;
    QAction* reset;
    QAction* jump_to_end;
    QAction* fire_now;
    QAction* slower;
    QAction* faster;
    QAction* predict;
    // Help
    QAction* guide;
    QAction* shortcuts;
    QAction* about;

    /// Sets the tooltip to the action's text plus its shortcut, e.g. "Play (Space)".
    static void updateToolTip(QAction* action, const QString& explanation = {});
};

}  // namespace ratelab::ui
