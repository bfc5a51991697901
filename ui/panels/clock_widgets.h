#pragma once

#include <QComboBox>
#include <QLabel>

namespace ratelab::ui {

class PlaybackClock;

/// Shows the clock as "t = 12".
class TimeLabel : public QLabel {
    Q_OBJECT

public:
    explicit TimeLabel(PlaybackClock* clock, QWidget* parent = nullptr);
    QSize sizeHint() const override;

private:
    void showTick();

    PlaybackClock* clock_;
};

/// Chooses the playback speed in ticks per second.
class SpeedBox : public QComboBox {
    Q_OBJECT

public:
    explicit SpeedBox(PlaybackClock* clock, QWidget* parent = nullptr);

private:
    void showSpeed();

    PlaybackClock* clock_;
};

}  // namespace ratelab::ui
