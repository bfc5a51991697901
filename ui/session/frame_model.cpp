#include "session/frame_model.h"

#include <QTimer>
#include <algorithm>
#include <exception>
#include <new>
#include <thread>

#include "session/playback_clock.h"
#include "session/session.h"
#include "session/trace_edits.h"

namespace ratelab::ui {

FrameModel::FrameModel(Session* session, PlaybackClock* clock, QObject* parent)
    : QObject(parent), session_(session), clock_(clock), slow_(new QTimer(this)) {
    slow_->setSingleShot(true);
    slow_->setInterval(kSlowCountMs);
    connect(slow_, &QTimer::timeout, this, &FrameModel::countingSlowly);
    connect(session_, &Session::resultChanged, this, &FrameModel::onResultChanged);
    connect(clock_, &PlaybackClock::nowChanged, this, &FrameModel::update);
    onResultChanged();
}

namespace {

std::function<void()> counting_gate;  // setCountingGateForTest()

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
    const bool moved = frame_.result == result;  // only the clock: the same simulation
    // The same trace decided again: the settings changed, and with them every key's figures.
    const bool resettled = !moved && frame_.result && frame_.result->trace == result->trace;
    const bool changed = !moved || frame_.decided != decided || releasing;
    frame_.now = now;
    frame_.tick_ms = session_->document().tick_ms;
    frame_.result = result;
    frame_.decided = decided;
    if (!changed && frame_.revealed) {
        Q_EMIT frameChanged(frame_);
        return;
    }
    frame_.count_failed = false;  // counted again below, here or on the thread
    const bool everything = decided == result->trace->requests.size() && now >= last_release_;
    if (!frame_.revealed || (everything && !moved && !resettled) ||
        decided <= kSynchronousRevealLimit || result->kept_checkpoints()) {
        reveal();
        return;
    }
    if (resettled) {
        // Counted on a thread, the figures on show until then those of other settings: muted
        // from the first, not after kSlowCountMs.
        frame_.counting = true;
        frame_.earlier_settings = true;
    }
    Q_EMIT frameChanged(frame_);  // markers follow at once; the figures follow shortly
    if (moved || resettled) {
        revealOnThread();
        return;
    }
    if (!reveal_pending_) {
        reveal_pending_ = true;
        QTimer::singleShot(0, this, [this] {
            reveal_pending_ = false;
            reveal();
        });
    }
}

/// One count of the figures up to a clock: what it starts from, then what it counted.
struct FrameModel::Reveal {
    using Keys = std::vector<std::optional<LaneKeys>>;

    std::shared_ptr<const SimulationResult> result;
    std::size_t decided = 0;
    Tick now = 0;
    bool everything = false;  ///< every request decided and every unit let through
    /// Figures counted before: over `known_scope` of `known_of`, and over the whole trace of
    /// `whole_known_of` when that is set.
    std::shared_ptr<const Keys> known;
    std::shared_ptr<const SimulationResult> known_of;
    KeyScope known_scope;
    std::shared_ptr<const SimulationResult> whole_known_of;

    std::shared_ptr<const SimulationResult> revealed;
    std::shared_ptr<const Keys> keys;
    KeyScope scope;

    std::uint64_t generation = 0;
    std::thread thread;
    std::exception_ptr error;

    void run() {
        revealed = everything ? result : simulate_prefix(*result, decided, now);
        scope = KeyScope{decided, everything ? std::nullopt : std::optional<Tick>(now)};
        if (known && known_of == result && key_figures_need_decisions(*result)) {
            // The clock moved over the same trace: only the keys of the requests it passed, and
            // of a shaper's units let through meanwhile, are counted again.
            keys = std::make_shared<const Keys>(
                every_lane_key_figures_moved(*result, known_scope, *known, scope));
        } else if (everything && whole_known_of && known) {
            // After an edit, with the whole trace on show before and after it, only the keys the
            // edit touched are counted again.
            keys = std::make_shared<const Keys>(
                every_lane_key_figures_after_edit(*result, *whole_known_of, *known));
        } else {
            keys = countKeys(*result, *revealed, decided, scope.released_by);
        }
    }
};

FrameModel::~FrameModel() {
    // Its call back, queued to this object, goes with it.
    if (job_ && job_->thread.joinable())
        job_->thread.join();
}

void FrameModel::setCountingGateForTest(std::function<void()> gate) {
    counting_gate = std::move(gate);
}

FrameModel::Reveal FrameModel::revealOfFrame() const {
    Reveal reveal;
    reveal.result = frame_.result;
    reveal.decided = frame_.decided;
    reveal.now = frame_.now;
    reveal.everything =
        frame_.decided == frame_.result->trace->requests.size() && frame_.now >= last_release_;
    reveal.known = frame_.keys;
    reveal.known_of = keys_of_.lock();
    reveal.known_scope = keys_scope_;
    reveal.whole_known_of = whole_keys_of_;
    reveal.generation = generation_;
    return reveal;
}

void FrameModel::reveal() {
    if (!frame_.result) {
        return;
    }
    ++generation_;  // a thread's count still running is of an earlier frame
    Reveal done = revealOfFrame();
    done.run();
    apply(done);
    frame_.counting = false;
    frame_.earlier_settings = false;
    frame_.count_failed = false;
    Q_EMIT frameChanged(frame_);
}

void FrameModel::revealOnThread() {
    // One thread at a time, and none while a reveal here is due: the latest frame is counted
    // when either is done.
    if (job_ || reveal_pending_)
        return;
    job_ = std::make_shared<Reveal>(revealOfFrame());
    job_->thread = std::thread([this, job = job_, gate = counting_gate] {
        try {
            if (gate)
                gate();
            job->run();
        } catch (...) {
            job->error = std::current_exception();
        }
        QMetaObject::invokeMethod(
            this, [this, job] { finished(job); }, Qt::QueuedConnection);
    });
    slow_->start();
}

void FrameModel::countingSlowly() {
    // Only while the thread counts for the frame's simulation, and no count here came since.
    if (!job_ || job_->generation != generation_ || job_->result != frame_.result ||
        frame_.counting)
        return;
    frame_.counting = true;
    Q_EMIT frameChanged(frame_);
}

void FrameModel::finished(const std::shared_ptr<Reveal>& job) {
    job->thread.join();
    job_.reset();
    // Taken only when no count here came since, and the simulation is still the frame's.
    const bool wanted = job->generation == generation_ && job->result == frame_.result;
    const bool failing = job->error && wanted;
    if (wanted && !failing)
        apply(*job);
    // The clock moved on meanwhile, or the settings changed: the frame's figures are counted
    // next (unless an edit's are due here).
    const bool behind = keys_of_.lock() != frame_.result || keys_scope_.count != frame_.decided ||
                        keys_scope_.released_by != std::optional<Tick>(frame_.now);
    if (!job->error && behind && frame_.revealed != frame_.result)
        revealOnThread();
    // Still counting slowly while the next count runs; done when none does. Figures that could
    // not be counted leave those on show muted: they are not the frame's.
    const bool counting = failing || (frame_.counting && job_ != nullptr);
    const bool earlier_settings = counting && keys_of_.lock() != frame_.result;
    const bool count_failed = failing || (frame_.count_failed && counting && job_ == nullptr);
    if (wanted || counting != frame_.counting || earlier_settings != frame_.earlier_settings ||
        count_failed != frame_.count_failed) {
        frame_.counting = counting;
        frame_.earlier_settings = earlier_settings;
        frame_.count_failed = count_failed;
        Q_EMIT frameChanged(frame_);
    }
    if (failing) {
        try {
            std::rethrow_exception(job->error);
        } catch (const std::bad_alloc&) {
            Q_EMIT failed(tr("There is not enough memory to count the figures up to the clock."));
        } catch (const std::exception& error) {
            Q_EMIT failed(tr("Cannot count the figures up to the clock: %1")
                              .arg(QString::fromLocal8Bit(error.what())));
        }
    }
}

void FrameModel::apply(const Reveal& done) {
    frame_.revealed = done.revealed;
    frame_.keys = done.keys;
    keys_of_ = done.result;
    keys_scope_ = done.scope;
    whole_keys_of_ = done.everything ? done.result : nullptr;
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
