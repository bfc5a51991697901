#include "window/app_actions.h"

#include <QAction>
#include <QApplication>
#include <QIcon>
#include <QStyle>

#include "ratelab/simulation.h"
#include "window/palette_icon.h"

namespace ratelab::ui {

namespace {

QAction* make(QObject* parent, const QString& text, const QList<QKeySequence>& keys,
              const QString& explanation, QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
    auto* action = new QAction(text, parent);
    action->setShortcuts(keys);
    if (icon != QStyle::SP_CustomBase) {
        setPaletteIcon(action, icon);
    }
    AppActions::updateToolTip(action, explanation);
    return action;
}

QList<QKeySequence> keys(QKeySequence::StandardKey key) {
    return QKeySequence::keyBindings(key);
}
QList<QKeySequence> keys(QKeyCombination key) {
    return {QKeySequence(key)};
}
QList<QKeySequence> keys(Qt::Key key) {
    return {QKeySequence(key)};
}

}  // namespace

void AppActions::updateToolTip(QAction* action, const QString& explanation) {
    QString text = action->text();
    text.remove(QLatin1Char('&'));
    text.remove(QStringLiteral("…"));
    if (!explanation.isEmpty()) {
        text = explanation;
    }
    const QKeySequence key = action->shortcut();
    if (!key.isEmpty()) {
        text += QStringLiteral(" (%1)").arg(key.toString(QKeySequence::NativeText));
    }
    action->setToolTip(text);
    action->setStatusTip(text);
}

AppActions::AppActions(QObject* parent) {
    new_file = make(parent, tr("&New…"), keys(QKeySequence::New),
                    tr("Start a trace: empty, or traffic from a pattern with its parameters"));
    open = make(parent, tr("&Open…"), keys(QKeySequence::Open), tr("Open a trace file"),
                QStyle::SP_DialogOpenButton);
    import_traffic = make(parent, tr("&Import Traffic…"), keys(Qt::CTRL | Qt::Key_I),
                          tr("Make a trace from a CSV file or an access log"));
    save = make(parent, tr("&Save"), keys(QKeySequence::Save), tr("Save the trace"),
                QStyle::SP_DialogSaveButton);
    save_as = make(parent, tr("Save &As…"), keys(QKeySequence::SaveAs),
                   tr("Save the trace under a new name"));
    quit = make(parent, tr("&Quit"), keys(QKeySequence::Quit), tr("Quit RateLab"));

    delete_selection = make(parent, tr("&Delete Requests"),
                            {QKeySequence(Qt::Key_Delete), QKeySequence(Qt::Key_Backspace)},
                            tr("Delete the selected requests"));
    select_all = make(parent, tr("Select &All Requests"), keys(QKeySequence::SelectAll),
                      tr("Select every request"));
    select_next = make(parent, tr("Select &Next Request"), keys(Qt::CTRL | Qt::Key_Right),
                       tr("Select the next request"));
    select_previous = make(parent, tr("Select &Previous Request"), keys(Qt::CTRL | Qt::Key_Left),
                           tr("Select the previous request"));
    move_earlier = make(parent, tr("Move &Earlier"), keys(Qt::ALT | Qt::Key_Left),
                        tr("Move the selected requests one tick earlier"));
    move_later = make(parent, tr("Move &Later"), keys(Qt::ALT | Qt::Key_Right),
                      tr("Move the selected requests one tick later"));
    increase_cost = make(parent, tr("&Increase Cost"),
                         {QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)},
                         tr("Add one to the cost of the selected requests"));
    decrease_cost = make(parent, tr("De&crease Cost"), keys(Qt::Key_Minus),
                         tr("Take one from the cost of the selected requests"));
    set_key = make(parent, tr("Set &Key…"), keys(Qt::Key_K),
                   tr("Give the selected requests a key: the caller they come from"));
    set_duration = make(parent, tr("Set D&uration…"), keys(Qt::Key_D),
                        tr("How long the selected requests hold what they take: the "
                           "concurrency lane's time in flight"));
    edit_tiers = make(parent, tr("&Tiers…"), keys(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                      tr("Give keys limits of their own: L, W and parameters per tier"));
    add_note = make(parent, tr("Add &Note…"), keys(Qt::CTRL | Qt::SHIFT | Qt::Key_N),
                    tr("Pin a short note to the clock's tick: shown on the timeline and in "
                       "exports, saved with the trace"));
    restore_defaults = make(parent, tr("Restore Default &Parameters"), {},
                            tr("Back to L = %1, W = %2, no overrides, rejections not counted")
                                .arg(default_params().base.limit)
                                .arg(default_params().base.window));

    zoom_in = make(parent, tr("Zoom &In"), keys(QKeySequence::ZoomIn), tr("Show fewer ticks"));
    zoom_out = make(parent, tr("Zoom &Out"), keys(QKeySequence::ZoomOut), tr("Show more ticks"));
    fit = make(parent, tr("&Fit to Trace"), keys(Qt::CTRL | Qt::Key_0), tr("Show the whole trace"));
    pan_left = make(parent, tr("Scroll &Left"), keys(Qt::SHIFT | Qt::Key_Left),
                    tr("Scroll to earlier ticks"));
    pan_right = make(parent, tr("Scroll &Right"), keys(Qt::SHIFT | Qt::Key_Right),
                     tr("Scroll to later ticks"));
    split_by_key = make(parent, tr("&Split Lanes by Key"), keys(Qt::CTRL | Qt::SHIFT | Qt::Key_K),
                        tr("One row per key in every lane, each judged against its own tier "
                           "(two to eight keys on show)"));
    split_by_key->setCheckable(true);

    play_pause =
        make(parent, tr("&Play"), keys(Qt::Key_Space), tr("Run the clock"), QStyle::SP_MediaPlay);
    step_back = make(parent, tr("Step &Back"), keys(Qt::Key_Left), tr("One tick back"),
                     QStyle::SP_MediaSeekBackward);
    step_forward = make(parent, tr("Step &Forward"), keys(Qt::Key_Right), tr("One tick forward"),
                        QStyle::SP_MediaSeekForward);
    reset = make(parent, tr("&Reset Clock"), keys(Qt::Key_Home), tr("Back to t = 0"),
                 QStyle::SP_MediaSkipBackward);
    jump_to_end = make(parent, tr("Jump to &End"), keys(Qt::Key_End), tr("Reveal every decision"),
                       QStyle::SP_MediaSkipForward);
    fire_now =
        make(parent, tr("F&ire Now"), keys(Qt::Key_F), tr("Add a request at the current tick"));
    slower = make(parent, tr("&Slower"), keys(Qt::Key_BracketLeft), tr("Play more slowly"));
    faster = make(parent, tr("F&aster"), keys(Qt::Key_BracketRight), tr("Play faster"));
    predict = make(parent, tr("P&redict Mode"), keys(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
                   tr("Say what each lane will do before each request, then see if you were "
                      "right and why"));

    guide = make(parent, tr("&Guide"), keys(QKeySequence::HelpContents),
                 tr("How to use RateLab and how each algorithm decides"));
    shortcuts = make(parent, tr("&Keyboard Shortcuts"), keys(Qt::CTRL | Qt::Key_F1),
                     tr("List every keyboard shortcut"));
    about = make(parent, tr("&About RateLab"), {}, tr("Version and licence"));
}

QList<QAction*> AppActions::all() const {
    return {new_file,
            open,
            import_traffic,
            set_key,
            set_duration,
            edit_tiers,
            add_note,
            save,
            save_as,
            quit,
            delete_selection,
            select_all,
            select_next,
            select_previous,
            move_earlier,
            move_later,
            increase_cost,
            decrease_cost,
            zoom_in,
            zoom_out,
            fit,
            pan_left,
            pan_right,
            split_by_key,
            play_pause,
            step_back,
            step_forward,
            reset,
            jump_to_end,
            fire_now,
            slower,
            faster,
            predict,
            guide,
            shortcuts};
}

}  // namespace ratelab::ui
