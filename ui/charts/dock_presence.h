#pragma once

#include <QObject>
#include <QPointer>
#include <functional>

class QDockWidget;
class QWidget;

namespace ratelab::ui {

/// Whether a panel is really on screen. Qt leaves the contents of a dock whose tab is behind
/// another's "visible" (isVisible() stays true) and tells only through the dock's
/// visibilityChanged signal. A panel that does costly work for what it shows (a sweep, the
/// charts, the per-key table) asks this instead, and catches up when its tab is raised.
class DockPresence : public QObject {
public:
    /// `raised` runs whenever the panel's dock tab comes to the front.
    DockPresence(QWidget* panel, std::function<void()> raised);

    /// The panel is visible and, inside a dock, its tab is the raised one.
    bool isShown() const;
    /// Finds the dock the panel now sits in; call it from the panel's showEvent, since a panel
    /// may be moved into a dock after it was made.
    void follow();

private:
    QWidget* panel_;
    std::function<void()> raised_;
    QPointer<QDockWidget> dock_;
    bool dock_raised_ = true;
};

}  // namespace ratelab::ui
