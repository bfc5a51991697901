#pragma once

#include <QObject>

class QDockWidget;
class QMainWindow;

namespace ratelab::ui {

/// Lets a dock that shares a tab group with a shorter one ask for its own height only while it
/// is on top: raising it grows the dock area to its preferred height, and raising another tab
/// again gives the area back its earlier height unless the user resized it meanwhile. That way
/// the short tab does not have to carry the tall one's minimum, and the central widget keeps the
/// room. Does nothing until the window has been shown, so a restored layout stays as saved.
class RaisedDockGrowth : public QObject {
    Q_OBJECT

public:
    RaisedDockGrowth(QMainWindow* window, QDockWidget* dock);

    /// The height the dock gets when raised, if it is shorter: its size hint, capped to a share
    /// of the window so the central widget stays usable.
    int preferredHeight() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void raised();
    void lowered();

    QMainWindow* window_;
    QDockWidget* dock_;
    bool armed_ = false;
    int height_before_ = -1;
    int height_given_ = -1;
    int tab_bar_height_ = 0;
};

}  // namespace ratelab::ui
