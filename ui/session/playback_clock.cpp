#include "session/playback_clock.h"

#include <algorithm>
#include <cmath>

namespace ratelab::ui {

const QList<double>& PlaybackClock::speeds() {
    static const QList<double> values{1, 2, 4, 8, 16, 32, 100, 1000, 10000};
    return values;
}

PlaybackClock::PlaybackClock(QObject* parent) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &PlaybackClock::advance);
}

void PlaybackClock::setEnd(Tick end) {
    end = std::max<Tick>(end, 0);
    if (end == end_) {
        return;
    }
    end_ = end;
    Q_EMIT endChanged(end_);
    if (now_ > end_) {
        setNow(end_);
    }
}

void PlaybackClock::setNow(Tick tick) {
    tick = std::clamp<Tick>(tick, 0, end_);
    if (tick != now_) {
        now_ = tick;
        Q_EMIT nowChanged(now_);
    }
}

void PlaybackClock::play() {
    if (isPlaying()) {
        return;
    }
    if (now_ >= end_) {
        setNow(0);  // like a media player: play at the end starts over
    }
    pending_ = 0.0;
    restartTimer();
    Q_EMIT playingChanged(true);
}

void PlaybackClock::pause() {
    if (!isPlaying()) {
        return;
    }
    timer_.stop();
    Q_EMIT playingChanged(false);
}

void PlaybackClock::togglePlaying() {
    isPlaying() ? pause() : play();
}

void PlaybackClock::stepForward() {
    setNow(now_ + 1);
}

void PlaybackClock::stepBack() {
    setNow(now_ - 1);
}

void PlaybackClock::reset() {
    pause();
    setNow(0);
}

void PlaybackClock::jumpToEnd() {
    pause();
    setNow(end_);
}

void PlaybackClock::setSpeed(double ticks_per_second) {
    ticks_per_second = std::clamp(ticks_per_second, speeds().front(), speeds().back());
    if (ticks_per_second == speed_) {
        return;
    }
    speed_ = ticks_per_second;
    if (isPlaying()) {
        restartTimer();
    }
    Q_EMIT speedChanged(speed_);
}

void PlaybackClock::faster() {
    const auto& all = speeds();
    const auto next = std::upper_bound(all.begin(), all.end(), speed_);
    if (next != all.end()) {
        setSpeed(*next);
    }
}

void PlaybackClock::slower() {
    const auto& all = speeds();
    const auto next = std::lower_bound(all.begin(), all.end(), speed_);
    if (next != all.begin()) {
        setSpeed(*(next - 1));
    }
}

void PlaybackClock::restartTimer() {
    // Slow speeds fire once per tick; fast ones fire at a steady frame rate and take bigger steps.
    const double interval = std::max(1000.0 / speed_, 1000.0 / kFramesPerSecond);
    timer_.start(static_cast<int>(std::lround(interval)));
}

void PlaybackClock::advance() {
    const double per_fire = speed_ * static_cast<double>(timer_.interval()) / 1000.0;
    pending_ += per_fire;
    const auto whole = static_cast<Tick>(std::floor(pending_));
    pending_ -= static_cast<double>(whole);
    setNow(now_ + std::max<Tick>(whole, 0));
    if (now_ >= end_) {
        pause();
    }
}

}  // namespace ratelab::ui
