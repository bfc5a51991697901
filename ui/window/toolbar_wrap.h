#pragma once

#include <QObject>

class QMainWindow;
class QToolBar;

namespace ratelab::ui {

/// Moves a toolbar to a row of its own while the window is too narrow for it beside the
/// toolbar before it, and back when there is room again. A toolbar that does not fit hides its
/// last actions behind an overflow arrow, where nobody finds them ("Advanced…" at 1024 px).
class ToolBarWrap : public QObject {
    Q_OBJECT

public:
    /// Watches `window`; `second` follows `first` in the same toolbar area.
    ToolBarWrap(QMainWindow* window, QToolBar* first, QToolBar* second);

    /// Whether `first` and `second`, at their preferred widths, fit a window `width` wide.
    bool fitSideBySide(int width) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void update();

    QMainWindow* window_;
    QToolBar* first_;
    QToolBar* second_;
};

}  // namespace ratelab::ui
