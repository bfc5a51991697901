#pragma once

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include <optional>
#include <vector>

#include "ratelab/key_figures.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

class PlaybackClock;
class Session;

/// What the views draw at one moment: the simulation of the whole trace, and how much of it the
/// clock has revealed.
struct Frame {
    std::shared_ptr<const SimulationResult> result;  ///< every request
    /// Only the requests decided so far (tick <= now): its totals and worst bursts are what the
    /// table and the lanes report "so far" (a shaper's burst counts only the units it has let
    /// through by now). Same object as `result` once everything is decided and let through.
    std::shared_ptr<const SimulationResult> revealed;
    Tick now = 0;
    std::size_t decided = 0;  ///< requests with tick <= now; indices below this are revealed
    std::int64_t tick_ms = 1000;

    /// Each lane's key figures over the revealed requests, or nothing for a lane whose run
    /// cannot count them (has_key_figures()).
    std::shared_ptr<const std::vector<std::optional<LaneKeys>>> keys;

    /// Whether `revealed` and `keys` are still those of an earlier clock, the figures of `now`
    /// taking a moment to count (over FrameModel::kSlowCountMs, on a thread): views show them
    /// muted, or say they are being counted.
    bool counting = false;
    /// With `counting`: the figures are of the simulation before a change of the settings (the
    /// same trace decided again), not of an earlier clock.
    bool earlier_settings = false;
    /// With `counting`: the figures of `now` could not be counted (e.g. out of memory), and
    /// nothing is counting them; the next move or change counts again.
    bool count_failed = false;

    bool isRevealed(std::size_t index) const { return index < decided; }
    /// Whether requests come from several keys: views then name the key a figure is about.
    bool severalKeys() const {
        return result && !result->sole_key && !result->trace->requests.empty();
    }
    /// Lane `lane`'s worst burst so far, judged against its key's own limit (judged_burst()).
    JudgedBurst judgedBurst(std::size_t lane) const;
    /// Lane `lane`'s run over the requests decided so far, or nothing.
    const AlgorithmRun* revealedRun(std::size_t lane) const {
        return revealed && lane < revealed->runs.size() ? &revealed->runs[lane] : nullptr;
    }
};

/// Each lane's key figures over the first `decided` requests of `full` (and a shaper's units let
/// through by `released_by`), where `revealed` is simulate_prefix() of that part: Frame::keys.
std::shared_ptr<const std::vector<std::optional<LaneKeys>>> countKeys(
    const SimulationResult& full, const SimulationResult& revealed, std::size_t decided,
    std::optional<Tick> released_by);

/// The keys a view shows, chosen by name (the charts' key chooser, the Keys tab), by key id of
/// `trace`: non-zero for a key on show. Empty when none of the names is in the trace, which
/// then shows every key.
std::vector<char> keyMask(const Trace& trace, const QStringList& names);

/// Each lane's figures of the keys `mask` holds (only_keys() of Frame::keys); empty when the mask
/// is, or when the frame has no key figures (then every key is counted).
std::vector<std::optional<LaneKeys>> shownLaneKeys(const Frame& frame,
                                                   const std::vector<char>& mask);

/// The burst lane `lane` is judged by among `shown` (its entry of shownLaneKeys()): the worst of
/// those keys against its own L, or nothing let through yet; the frame's headline when `shown`
/// is null.
JudgedBurst judgedAmong(const Frame& frame, std::size_t lane, const LaneKeys* shown);

/// Combines the session's latest result with the playback clock into Frames, and keeps the
/// clock's end in step with the trace.
class FrameModel : public QObject {
    Q_OBJECT

public:
    /// Up to this many decided requests, or at any count when the runs kept checkpoints, the
    /// "so far" figures are recomputed at once. Otherwise (many keys) the markers move at once
    /// and the figures follow: after a move of the clock or a change of the settings, counted on
    /// a thread (a far jump over 10M requests, or new settings, count every key, which takes
    /// seconds); after an edit of the trace, in the event loop (only the keys it touched).
    static constexpr std::size_t kSynchronousRevealLimit = 20'000;
    /// How long a thread may count before the frame says its figures are of an earlier clock
    /// (Frame::counting): the counts of a step during playback come sooner, and say nothing.
    /// After a change of the settings it says so at once: its figures are of other settings.
    static constexpr int kSlowCountMs = 250;

    FrameModel(Session* session, PlaybackClock* clock, QObject* parent = nullptr);
    /// Waits for the thread counting figures, if one is.
    ~FrameModel() override;

    /// Tests only: each thread counting figures calls `gate` first (empty: none), so that a test
    /// can hold it until it has made its next move, or make the count fail by throwing.
    static void setCountingGateForTest(std::function<void()> gate);

    const Frame& frame() const { return frame_; }
    /// Whether a thread is counting the figures up to the clock (the frame's are of an earlier
    /// clock until it is done).
    bool counting() const { return job_ != nullptr; }

Q_SIGNALS:
    void frameChanged(const ratelab::ui::Frame& frame);
    /// The figures up to the clock could not be counted (e.g. out of memory): the frame keeps
    /// those of an earlier clock or settings, muted (Frame::counting, Frame::count_failed),
    /// until the next count. Emitted after that frame.
    void failed(const QString& message);

private:
    struct Reveal;

    void onResultChanged();
    void update();
    /// The figures of the frame's clock, counted here.
    void reveal();
    /// The same, counted on a thread when the clock moved far over many keys: the window stays
    /// in use meanwhile. One thread at a time; a move while it counts is counted next.
    void revealOnThread();
    void finished(const std::shared_ptr<Reveal>& job);
    /// What counting the figures of the frame's clock starts from.
    Reveal revealOfFrame() const;
    /// Takes the figures `done` counted into the frame (frameChanged() is the caller's).
    void apply(const Reveal& done);
    /// A thread has counted for kSlowCountMs.
    void countingSlowly();

    Session* session_;
    PlaybackClock* clock_;
    Frame frame_;
    Tick last_release_ = 0;  // of the current result: see lastRelease()
    /// The result whose whole trace frame_.keys counts, when it does.
    std::shared_ptr<const SimulationResult> whole_keys_of_;
    /// The result and the scope frame_.keys counts.
    std::weak_ptr<const SimulationResult> keys_of_;
    KeyScope keys_scope_;
    bool reveal_pending_ = false;
    /// The thread counting figures, and whether the clock moved again meanwhile.
    std::shared_ptr<Reveal> job_;
    QTimer* slow_;  // started with each thread: countingSlowly()
    bool moved_while_counting_ = false;
    /// Counts the reveals: a thread's figures are taken only when no reveal here came since.
    std::uint64_t generation_ = 0;
};

}  // namespace ratelab::ui
