#include "session/frame_model.h"

#include <QTimer>
#include <algorithm>

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

namespace {

/// The tick by which every shaper lane has let all its accepted units through: each leaves at
/// most the longest delay after the last request. Before it, moving the clock without passing a
/// request still changes what a shaper has let through.
Tick lastRelease(const SimulationResult& result) {
    const RequestColumn& requests = result.trace->requests;
    Tick last = requests.empty() ? 0 : requests.back().tick;
    for (const AlgorithmRun& run : result.runs) {
        if (run.releases && !requests.empty())
            last = std::max(last, requests.back().tick + run.totals.max_delay.ceil());
    }
    return last;
}

}  // namespace

void FrameModel::onResultChanged() {
    clock_->setEnd(session_->endTick());
    if (const auto result = session_->result())
        last_release_ = lastRelease(*result);
    update();
}

void FrameModel::update() {
    const auto result = session_->result();
    if (!result) {
        return;
    }
    const Tick now = clock_->now();
    const std::size_t decided = countUpTo(*result->trace, now);
    // Shapers let queued units through as the clock moves, between requests too.
    const bool releasing = now != frame_.now && std::min(now, frame_.now) < last_release_;
    const bool changed = frame_.result != result || frame_.decided != decided || releasing;
    frame_.now = now;
    frame_.tick_ms = session_->document().tick_ms;
    frame_.result = result;
    frame_.decided = decided;
    if (!changed && frame_.revealed) {
        Q_EMIT frameChanged(frame_);
        return;
    }
    const bool everything = decided == result->trace->requests.size() && now >= last_release_;
    if (!frame_.revealed || everything || decided <= kSynchronousRevealLimit ||
        result->kept_checkpoints()) {
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
    const bool everything =
        frame_.decided == result->trace->requests.size() && frame_.now >= last_release_;
    frame_.revealed = everything ? result : simulate_prefix(*result, frame_.decided, frame_.now);
    const KeyScope scope{frame_.decided,
                         everything ? std::nullopt : std::optional<Tick>(frame_.now)};
    using Keys = std::vector<std::optional<LaneKeys>>;
    std::shared_ptr<const Keys> keys;
    if (frame_.keys && keys_of_.lock() == result && key_figures_need_decisions(*result)) {
        // The clock moved over the same trace: only the keys of the requests it passed, and of
        // a shaper's units let through meanwhile, are counted again.
        keys = std::make_shared<const Keys>(
            every_lane_key_figures_moved(*result, keys_scope_, *frame_.keys, scope));
    } else if (everything && whole_keys_of_ && frame_.keys) {
        // After an edit, with the whole trace on show before and after it, only the keys the
        // edit touched are counted again.
        keys = std::make_shared<const Keys>(
            every_lane_key_figures_after_edit(*result, *whole_keys_of_, *frame_.keys));
    } else {
        keys = countKeys(*result, *frame_.revealed, frame_.decided, scope.released_by);
    }
    frame_.keys = std::move(keys);
    keys_of_ = result;
    keys_scope_ = scope;
    whole_keys_of_ = everything ? result : nullptr;
    Q_EMIT frameChanged(frame_);
}

std::shared_ptr<const std::vector<std::optional<LaneKeys>>> countKeys(
    const SimulationResult& full, const SimulationResult& revealed, std::size_t decided,
    std::optional<Tick> released_by) {
    return std::make_shared<std::vector<std::optional<LaneKeys>>>(
        every_lane_key_figures(full, KeyScope{decided, released_by}, &revealed));
}

std::vector<char> keyMask(const Trace& trace, const QStringList& names) {
    std::vector<char> mask;
    for (const QString& name : names) {
        if (const auto key = trace.find_key(name.toStdString())) {
            mask.resize(trace.keys.size(), 0);
            mask[*key] = 1;
        }
    }
    return mask;
}

std::vector<std::optional<LaneKeys>> shownLaneKeys(const Frame& frame,
                                                   const std::vector<char>& mask) {
    std::vector<std::optional<LaneKeys>> shown;
    if (mask.empty() || !frame.keys)
        return shown;
    for (const std::optional<LaneKeys>& lane : *frame.keys)
        shown.push_back(lane ? std::optional<LaneKeys>(only_keys(*lane, mask)) : std::nullopt);
    return shown;
}

JudgedBurst judgedAmong(const Frame& frame, std::size_t lane, const LaneKeys* shown) {
    if (shown == nullptr)
        return frame.judgedBurst(lane);
    if (const KeyFigures* worst = shown->worst_key())
        return JudgedBurst{worst->worst_burst, worst->limit, worst->window, worst->key};
    const Limits& base = frame.result->lane_params.at(lane).base;
    return JudgedBurst{Burst{}, base.limit, base.window, std::nullopt};
}

JudgedBurst Frame::judgedBurst(std::size_t lane) const {
    const AlgorithmRun* shown = revealedRun(lane);
    const LaneKeys* lane_keys =
        keys && lane < keys->size() && (*keys)[lane] ? &*(*keys)[lane] : nullptr;
    return shown != nullptr ? judged_burst(*result, lane, lane_keys, *shown) : JudgedBurst{};
}

}  // namespace ratelab::ui
