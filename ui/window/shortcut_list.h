#pragma once
// The rows of Help > Keyboard Shortcuts, made from the actions themselves so that the list
// cannot drift from the keys that work.

#include <QKeySequence>
#include <QList>
#include <QString>

class QAction;

namespace ratelab::ui {

struct ShortcutRow {
    QString command;
    QString keys;
    friend bool operator==(const ShortcutRow&, const ShortcutRow&) = default;
};

/// Names `action` in the list by `name` instead of its text, for actions whose text changes
/// (Undo and Redo name the step they would undo).
void setListedName(QAction* action, const QString& name);

/// The keys as the list shows them, comma separated. Keys a standard keyboard lacks (F13 and
/// above, which Qt adds to some standard shortcuts: "Ctrl+Z, F14") are left out.
QString listedKeys(const QList<QKeySequence>& keys);

/// One row per action with a shortcut, in order, without the "&" of its text; an action listed
/// twice comes once.
QList<ShortcutRow> shortcutRows(const QList<QAction*>& actions);

}  // namespace ratelab::ui
