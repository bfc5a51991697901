#include "window/toolbar_wrap.h"

#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QToolBar>
#include <algorithm>

namespace ratelab::ui {

ToolBarWrap::ToolBarWrap(QMainWindow* window, QToolBar* first, QToolBar* second)
    : QObject(window), window_(window), first_(first), second_(second) {
    window_->installEventFilter(this);
}

bool ToolBarWrap::fitSideBySide(int width) const {
    // The toolbar area's own margins and the gap between toolbars come from the window's
    // layout; a few pixels more keep a toolbar from sitting exactly on the edge.
    const int spacing = window_->layout() ? window_->layout()->spacing() : 0;
    const int needed =
        first_->sizeHint().width() + second_->sizeHint().width() + std::max(spacing, 0) + 8;
    return needed <= width;
}

bool ToolBarWrap::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && (event->type() == QEvent::Resize || event->type() == QEvent::Show ||
                               event->type() == QEvent::LayoutRequest)) {
        update();
    }
    return QObject::eventFilter(watched, event);
}

void ToolBarWrap::update() {
    const bool wrapped = window_->toolBarBreak(second_);
    const bool fits = fitSideBySide(window_->width());
    if (fits && wrapped) {
        window_->removeToolBarBreak(second_);
    } else if (!fits && !wrapped) {
        window_->insertToolBarBreak(second_);
    }
}

}  // namespace ratelab::ui
