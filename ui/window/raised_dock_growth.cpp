#include "window/raised_dock_growth.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>
#include <algorithm>
#include <utility>

namespace ratelab::ui {
namespace {

/// The most of the window's height a raised dock may take for itself.
constexpr double kMaxWindowShare = 0.4;

}  // namespace

RaisedDockGrowth::RaisedDockGrowth(QMainWindow* window, QDockWidget* dock)
    : QObject(dock), window_(window), dock_(dock) {
    window_->installEventFilter(this);
    connect(dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!armed_ || dock_->isFloating()) {
            return;
        }
        if (visible) {
            // The raised tab gets its geometry in the next layout pass; measure it after that.
            QTimer::singleShot(0, this, &RaisedDockGrowth::raised);
        } else {
            lowered();
        }
    });
}

int RaisedDockGrowth::preferredHeight() const {
    const int cap = static_cast<int>(window_->height() * kMaxWindowShare);
    return std::min(dock_->sizeHint().height(), std::max(cap, dock_->minimumSizeHint().height()));
}

bool RaisedDockGrowth::eventFilter(QObject* watched, QEvent* event) {
    // Arm after the first show has been laid out: the docks' visibility changes while showing or
    // restoring a saved state are not the user raising a tab.
    if (watched == window_ && event->type() == QEvent::Show && !armed_) {
        QTimer::singleShot(0, this, [this] { armed_ = true; });
    }
    return QObject::eventFilter(watched, event);
}

void RaisedDockGrowth::raised() {
    if (!dock_->isVisible() || dock_->isFloating()) {
        return;
    }
    const int current = dock_->height();
    const int wanted = preferredHeight();
    if (current >= wanted) {
        height_before_ = -1;
        return;
    }
    height_before_ = current;
    window_->resizeDocks({dock_}, {wanted}, Qt::Vertical);
    // resizeDocks() sizes the whole tab group, tab bar included: learn how much of it the dock
    // itself got, to give the group back exactly its earlier height later.
    QTimer::singleShot(0, this, [this, wanted] {
        height_given_ = dock_->height();
        tab_bar_height_ = wanted - height_given_;
    });
}

void RaisedDockGrowth::lowered() {
    const int before = std::exchange(height_before_, -1);
    if (before < 0 || dock_->height() != height_given_) {
        return;
    }
    window_->resizeDocks({dock_}, {before + tab_bar_height_}, Qt::Vertical);
}

}  // namespace ratelab::ui
