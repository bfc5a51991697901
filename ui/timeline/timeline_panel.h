#pragma once

#include <QWidget>

class QScrollBar;

namespace ratelab::ui {

class PlaybackClock;
class Session;
class TimelineView;

/// The timeline with its scroll bar and a legend of the marks it draws.
class TimelinePanel : public QWidget {
    Q_OBJECT

public:
    TimelinePanel(Session* session, PlaybackClock* clock, QWidget* parent = nullptr);

    TimelineView* view() const { return view_; }

private:
    void syncScrollBar();

    TimelineView* view_;
    QScrollBar* scroll_bar_;
    bool syncing_ = false;
};

/// One line explaining the timeline's shapes and colours, drawn with the same painter code.
class TimelineLegend : public QWidget {
    Q_OBJECT

public:
    explicit TimelineLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace ratelab::ui
