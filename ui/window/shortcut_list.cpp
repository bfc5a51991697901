#include "window/shortcut_list.h"

#include <QAction>
#include <QSet>
#include <QStringList>

namespace ratelab::ui {
namespace {

constexpr char kListedName[] = "ratelab_listed_name";

bool onStandardKeyboards(const QKeySequence& key) {
    for (int i = 0; i < key.count(); ++i) {
        const Qt::Key code = key[i].key();
        if (code >= Qt::Key_F13 && code <= Qt::Key_F35)
            return false;
    }
    return true;
}

}  // namespace

void setListedName(QAction* action, const QString& name) {
    action->setProperty(kListedName, name);
}

QString listedKeys(const QList<QKeySequence>& keys) {
    QStringList shown;
    for (const QKeySequence& key : keys) {
        if (!key.isEmpty() && onStandardKeyboards(key))
            shown << key.toString(QKeySequence::NativeText);
    }
    return shown.join(QStringLiteral(", "));
}

QList<ShortcutRow> shortcutRows(const QList<QAction*>& actions) {
    QList<ShortcutRow> rows;
    QSet<const QAction*> seen;
    for (const QAction* action : actions) {
        if (action == nullptr || seen.contains(action))
            continue;
        seen.insert(action);
        const QString keys = listedKeys(action->shortcuts());
        if (keys.isEmpty())
            continue;
        const QVariant listed = action->property(kListedName);
        QString name = listed.isValid() ? listed.toString() : action->text();
        name.remove(QLatin1Char('&'));
        // "Export Chart or Figure…" opens a dialog; the list names the command, not the dots.
        if (name.endsWith(QChar(0x2026)))
            name.chop(1);
        rows.append(ShortcutRow{name, keys});
    }
    return rows;
}

}  // namespace ratelab::ui
