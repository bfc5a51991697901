#include "session/frame_model.h"

#include <QTimer>

#include "session/playback_clock.h"
#include "session/session.h"
#include "session/trace_edits.h"

namespace ratelab::ui {

FrameModel::FrameModel(Session* session, PlaybackClock* clock, QObject* parent)
    : QObject(parent), session_(session), clock_(clock) {
    connect(session_, &Session::resultChanged, this, &FrameModel::onResultChanged);
    connect(clock_, &PlaybackClock::nowChanged, this, &FrameModel::update);
    onResultChanged();
}

void FrameModel::onResultChanged() {
    clock_->setEnd(session_->endTick());
    update();
}

void FrameModel::update() {
    const auto result = session_->result();
    if (!result) {
        return;
    }
    const Tick now = clock_->now();
    const std::size_t decided = countUpTo(*result->trace, now);
    const bool changed = frame_.result != result || frame_.decided != decided;
    frame_.now = now;
    frame_.tick_ms = session_->document().tick_ms;
    frame_.result = result;
    frame_.decided = decided;
    if (!changed && frame_.revealed) {
        Q_EMIT frameChanged(frame_);
        return;
    }
    if (!frame_.revealed || decided == result->trace->requests.size() ||
        decided <= kSynchronousRevealLimit || result->kept_checkpoints()) {
        reveal();
        return;
    }
    Q_EMIT frameChanged(frame_);  // markers follow at once; the figures follow shortly
    if (!reveal_pending_) {
        reveal_pending_ = true;
        QTimer::singleShot(0, this, [this] {
            reveal_pending_ = false;
            reveal();
        });
    }
}

void FrameModel::reveal() {
    const auto& result = frame_.result;
    if (!result) {
        return;
    }
    frame_.revealed = frame_.decided == result->trace->requests.size()
                          ? result
                          : simulate_prefix(*result, frame_.decided);
    Q_EMIT frameChanged(frame_);
}

}  // namespace ratelab::ui
