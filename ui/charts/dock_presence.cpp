#include "charts/dock_presence.h"

#include <QDockWidget>
#include <QTimer>
#include <QWidget>
#include <utility>

namespace ratelab::ui {

DockPresence::DockPresence(QWidget* panel, std::function<void()> raised)
    : QObject(panel), panel_(panel), raised_(std::move(raised)) {}

bool DockPresence::isShown() const {
    // A tab behind another is moved out of its window's area; its region is empty. (The dock
    // reports the tab's first lowering only if it was ever raised, so its signal alone misses a
    // dock tabbed behind another from the start.)
    return panel_->isVisible() && (!dock_ || dock_raised_) && !panel_->visibleRegion().isEmpty();
}

void DockPresence::follow() {
    QWidget* ancestor = panel_->parentWidget();
    while (ancestor != nullptr && qobject_cast<QDockWidget*>(ancestor) == nullptr)
        ancestor = ancestor->parentWidget();
    auto* dock = qobject_cast<QDockWidget*>(ancestor);
    if (dock == dock_)
        return;
    if (dock_)
        disconnect(dock_, nullptr, this, nullptr);
    dock_ = dock;
    dock_raised_ = true;
    if (dock_) {
        connect(dock_, &QDockWidget::visibilityChanged, this, [this](bool raised) {
            dock_raised_ = raised;
            // Once the raised tab has been laid out in the window's area.
            if (raised && raised_)
                QTimer::singleShot(0, this, [this] { raised_(); });
        });
    }
}

}  // namespace ratelab::ui
