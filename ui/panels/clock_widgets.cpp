#include "panels/clock_widgets.h"

#include <QSignalBlocker>

#include "session/playback_clock.h"

namespace ratelab::ui {

TimeLabel::TimeLabel(PlaybackClock* clock, QWidget* parent) : QLabel(parent), clock_(clock) {
    setObjectName(QStringLiteral("timeLabel"));
    setToolTip(tr("The clock: decisions are shown for requests up to this tick"));
    QFont bigger = font();
    bigger.setBold(true);
    bigger.setPointSizeF(bigger.pointSizeF() * 1.15);
    setFont(bigger);
    setAlignment(Qt::AlignCenter);
    connect(clock_, &PlaybackClock::nowChanged, this, &TimeLabel::showTick);
    connect(clock_, &PlaybackClock::endChanged, this, [this] { updateGeometry(); });
    showTick();
}

QSize TimeLabel::sizeHint() const {
    // Wide enough for the last tick, so the toolbar does not jump while playing.
    const QString widest =
        tr("t = %1").arg(QString(QString::number(clock_->end()).size() + 1, QLatin1Char('8')));
    return {fontMetrics().horizontalAdvance(widest) + 16, QLabel::sizeHint().height()};
}

void TimeLabel::showTick() {
    setText(tr("t = %1").arg(clock_->now()));
}

SpeedBox::SpeedBox(PlaybackClock* clock, QWidget* parent) : QComboBox(parent), clock_(clock) {
    setObjectName(QStringLiteral("speedBox"));
    setToolTip(tr("Playback speed in ticks per second (slower: [, faster: ])"));
    for (const double speed : PlaybackClock::speeds()) {
        addItem(speed == 1.0 ? tr("1 tick/s") : tr("%1 ticks/s").arg(speed), speed);
    }
    connect(this, &QComboBox::activated, this,
            [this](int index) { clock_->setSpeed(itemData(index).toDouble()); });
    connect(clock_, &PlaybackClock::speedChanged, this, &SpeedBox::showSpeed);
    showSpeed();
}

void SpeedBox::showSpeed() {
    const QSignalBlocker block(this);
    setCurrentIndex(findData(clock_->speed()));
}

}  // namespace ratelab::ui
