#pragma once

#include <QObject>
#include <QTimer>

#include "ratelab/model.h"

namespace ratelab::ui {

/// Moves "now", the tick up to which decisions are revealed. Stepping, playing at a chosen speed
/// and scrubbing all go through here, so every view follows one clock.
class PlaybackClock : public QObject {
    Q_OBJECT

public:
    /// Speeds offered to the user, in ticks per second.
    static const QList<double>& speeds();
    /// Timer ticks per second while playing; faster speeds advance several ticks per timer tick.
    static constexpr int kFramesPerSecond = 30;

    explicit PlaybackClock(QObject* parent = nullptr);

    Tick now() const { return now_; }
    /// The last tick the clock runs to.
    Tick end() const { return end_; }
    bool isPlaying() const { return timer_.isActive(); }
    double speed() const { return speed_; }

    void setEnd(Tick end);

public Q_SLOTS:
    /// Moves to `tick`, clamped to [0, end].
    void setNow(Tick tick);
    void play();
    void pause();
    void togglePlaying();
    void stepForward();
    void stepBack();
    void reset();
    void jumpToEnd();
    void setSpeed(double ticks_per_second);
    void faster();
    void slower();

Q_SIGNALS:
    void nowChanged(ratelab::Tick now);
    void endChanged(ratelab::Tick end);
    void playingChanged(bool playing);
    void speedChanged(double ticks_per_second);

private:
    void advance();
    void restartTimer();

    QTimer timer_;
    Tick now_ = 0;
    Tick end_ = 0;
    double speed_ = 4.0;
    double pending_ = 0.0;  ///< fractional ticks carried between timer ticks
};

}  // namespace ratelab::ui
