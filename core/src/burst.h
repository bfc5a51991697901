#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"
#include "ring_buffer.h"

namespace ratelab::detail {

/// Worst W-tick burst over accepted arrivals, fed in non-decreasing tick order. O(1) amortized
/// per arrival, and no storage beyond one slot per tick with arrivals inside one window: the
/// arrivals on one tick are summed into one slot.
///
/// It takes arrivals in batches: a run loop collects a stretch's accepted arrivals without a
/// branch on each outcome (writing every request and advancing past the accepted ones), and
/// the tracker then slides its window over them in a loop of its own.
class ArrivalBurst {
public:
    struct Arrival {
        Tick tick;
        std::int64_t cost;
        friend bool operator==(const Arrival&, const Arrival&) = default;
    };

    explicit ArrivalBurst(Tick window) : window_(window) {}
    /// Takes `count` accepted arrivals, in tick order and none before those taken earlier.
    void add(const Arrival* arrivals, std::size_t count);
    /// Empty again, over `window` ticks, keeping the room it has grown: one tracker counts
    /// key after key.
    void restart(Tick window) {
        window_ = window;
        head_ = tail_ = 0;
        sum_ = 0;
        best_ = Burst{};
    }
    Burst result() const { return best_; }
    /// Slots held: what a copy costs.
    std::size_t held() const { return tail_ - head_; }
    /// The worst burst so far, and a replacement for it (see BasicAlgorithm's rerun).
    const Burst& best() const { return best_; }
    void set_best(const Burst& best) { best_ = best; }
    /// Whether every later burst will come out the same as in `other`: the window holds the
    /// same costs on the same ticks.
    bool same_window(const ArrivalBurst& other) const;

private:
    /// Moves the arrivals held into at least twice the room, from the head on.
    [[gnu::noinline, gnu::cold]] void grow(std::size_t head, std::size_t tail);

    Tick window_;
    std::vector<Arrival> slots_;  // empty or a power of two of them
    std::size_t head_ = 0;        // counts of arrivals taken in and let out, not wrapped
    std::size_t tail_ = 0;
    std::int64_t sum_ = 0;
    Burst best_;
};

/// A run of cost units let through by a shaper: units at (first + i * step) / scale ticks.
struct UnitSegment {
    std::int64_t first = 0;
    std::int64_t count = 0;
    std::int64_t step = 0;
    std::int64_t scale = 1;
    /// The last unit's time, over scale.
    std::int64_t last() const { return first + (count - 1) * step; }
    friend bool operator==(const UnitSegment&, const UnitSegment&) = default;
};

/// Worst W-tick burst over the units one shaper lets through. Segments arrive in time order and
/// never overlap, and units are at least `step` apart, so a worst span can be taken to start at
/// a segment's first unit (sliding a span left within a run of units never loses a unit), and
/// only the last segment inside a span can be cut by its end. O(1) amortized per segment.
class SegmentBurst {
public:
    explicit SegmentBurst(Tick window) : window_(window) {}
    void add(const UnitSegment& segment) {
        while (!inside_.empty() &&
               segment.first >= inside_.front().first + window_ * inside_.front().scale) {
            settle_front();
        }
        inside_.push_back(segment);
        sum_ += segment.count;
    }
    Burst result();
    /// Empty again, over `window` ticks, keeping the room it has grown (as ArrivalBurst's).
    void restart(Tick window) {
        window_ = window;
        inside_.clear();
        sum_ = 0;
        best_ = Burst{};
    }
    std::size_t held() const { return inside_.size(); }
    /// The worst burst among the spans settled so far, and a replacement for it.
    const Burst& best() const { return best_; }
    void set_best(const Burst& best) { best_ = best; }
    /// Whether every later span will settle the same as in `other`.
    bool same_window(const SegmentBurst& other) const {
        return sum_ == other.sum_ && inside_ == other.inside_;
    }

private:
    void settle_front();
    Tick window_;
    RingBuffer<UnitSegment> inside_;
    std::int64_t sum_ = 0;
    Burst best_;
};

/// Worst W-tick burst over units from several independent shapers (one per key). Units of a
/// request never start before its arrival, so units earlier than the current arrival are final:
/// a heap releases them in time order into a sliding window over exact times.
///
/// The window holds runs, not units. A request's units are taken one after another and leave
/// the window in the same order, so those inside are one run per request: its first unit still
/// inside, up to the last one taken. Taking a unit extends its request's run, and the window's
/// front is the earliest first unit among the runs. Memory grows with the requests, not with
/// their cost units. Time grows with the units taken (each in O(log requests)); a request's
/// units leave a run at a time, however many one unit taken leaves behind. Two kinds of stretch
/// are taken a request's worth at a time too: the units before the end of a span from the
/// earliest unit inside, which let nothing out, and, while the window holds far fewer units
/// than the worst span, as many units as cannot make up for the difference (then what the last
/// of them leaves behind is let out in one pass). A window
/// that stays near the worst span, units coming in as fast as others leave, is taken a stretch
/// at a time too, as long as each request in and near it sends or lets out units at one pace
/// for a while: see skip_periodic().
class MergedUnitBurst {
public:
    explicit MergedUnitBurst(Tick window) : window_(window) {}
    /// Carries on from another tracker: `best` found so far, no unit taken yet, and requests
    /// arriving from `now` on.
    MergedUnitBurst(Tick window, Tick now, const Burst& best)
        : window_(window), now_(now), best_(best) {}
    /// Takes the units of a request arriving at the tick last advanced to.
    void add(const UnitSegment& segment) {
        // Nothing pending starts before that tick, and no later request's units will: a first
        // unit at the tick itself (a key with nothing queued) is final at once. Most are, with
        // many keys, and skip the heap. A request of one unit needs no run of its own either:
        // it leaves the window as it came.
        if (segment.count != 1) {
            add_run(segment);
            return;
        }
        if (segment.first == now_ * segment.scale)
            take_single(segment.first, segment.scale);
        else
            pending_.push(pending(segment, kSingle));
    }
    /// Takes units that may start before the tick last advanced to, but not before any unit
    /// taken so far; advance_to() then takes them in time order.
    void adopt(const UnitSegment& segment) {
        pending_.push(pending(segment, segment.count == 1 ? kSingle : open_slot(segment.step)));
    }
    /// Every unit before `tick` has been added; the requests still to come arrive at `tick` or
    /// later.
    void advance_to(Tick tick) {
        release(tick, false);
        now_ = tick;
    }
    Burst result() {
        release(0, true);
        return best_;
    }
    /// Entries held: what a copy costs.
    std::size_t held() const {
        return pending_.size() + singles_.size() + runs_.size() + moved_.size() + slots_.size();
    }
    /// The worst burst among the spans ending at the units taken so far.
    const Burst& best() const { return best_; }
    /// How many times it has taken units of a request without a shortcut, or let out units of
    /// one: what its time grows with.
    std::int64_t steps() const { return steps_; }
    /// What it holds with a unit at or after `from` (over scale): the units taken, one segment
    /// per run, and the segments still to release. Only when every unit has the same scale.
    std::vector<UnitSegment> held_from(std::int64_t from, std::int64_t step) const;

private:
    static constexpr std::uint32_t kSingle = ~std::uint32_t{0};
    struct Point {
        std::int64_t time;  // over scale
        std::int64_t scale;
    };
    /// Units of one request inside the window, from `first` (over scale) to its slot's end.
    struct Run {
        std::int64_t first;
        std::int64_t scale;
        std::uint32_t slot;
    };
    /// What a request's run and its units still pending share.
    struct Slot {
        std::int64_t end;   // one step past the last unit taken (over scale)
        std::int64_t step;  // between its units (over scale)
        bool inside;        // it has a run in the window
        bool pending;       // it has units not yet taken
    };
    /// A request's units not yet taken: `count` from `first` on (over scale), `step` apart.
    struct Pending {
        std::int64_t first;
        std::int64_t step;
        std::int64_t scale;
        std::int32_t count;  // a request's units: at most bounds::kMaxCost
        std::uint32_t slot;  // kSingle: one unit, which needs no slot
    };
    static Pending pending(const UnitSegment& units, std::uint32_t slot) {
        return Pending{units.first, units.step, units.scale, static_cast<std::int32_t>(units.count),
                       slot};
    }
    static bool later(std::int64_t a, std::int64_t a_scale, std::int64_t b, std::int64_t b_scale) {
        if (a_scale == b_scale)  // keys that share a configuration: no products needed
            return a > b;
        return static_cast<Int128>(a) * b_scale > static_cast<Int128>(b) * a_scale;
    }
    struct LaterPending {
        bool operator()(const Pending& a, const Pending& b) const {
            return later(a.first, a.scale, b.first, b.scale);
        }
    };
    struct LaterRun {
        bool operator()(const Run& a, const Run& b) const {
            return later(a.first, a.scale, b.first, b.scale);
        }
    };
    /// Whether a span from `front` ends after time / scale: then that unit lets it stay.
    bool holds(const Point& front, std::int64_t time, std::int64_t scale) const {
        // Scaled times and window * scale stay below 3 * 10^18 within the documented bounds.
        const std::int64_t front_end = front.time + window_ * front.scale;
        return front.scale == scale ? front_end > time
                                    : static_cast<Int128>(front_end) * scale >
                                          static_cast<Int128>(time) * front.scale;
    }

    /// The heap of pending requests, whose items can be read.
    struct PendingHeap : std::priority_queue<Pending, std::vector<Pending>, LaterPending> {
        const std::vector<Pending>& items() const { return c; }
    };

    /// Takes the pending units before `tick` (every one when `all`) in time order.
    void release(Tick tick, bool all);
    /// Takes, without counting each span, the pending units before a tick up to which the
    /// units inside and taken cannot add up to more than the best: as many as that allows, but
    /// none at or after `tick` unless `all`. Whether it took any.
    [[gnu::noinline]] bool skip_below_best(Tick tick, bool all);
    /// Takes a stretch of pending units in which no request starts or stops sending units
    /// (but where a busy queue's next one carries on), starts or stops losing units from the
    /// window, or arrives: there, a unit one period P later (every step divides P) finds the
    /// count changed by the same amount D, so the worst count of the stretch is among the units
    /// of its first period (D <= 0) or its last (D > 0). Takes the units before the first unit
    /// that beats the best, or every unit of the stretch if none does, none at or after `tick`
    /// unless `all`. Whether it took any.
    [[gnu::noinline]] bool skip_periodic(Tick tick, bool all);
    /// Takes every pending unit before y / y_scale, and lets out what the last of them leaves
    /// behind. Whether it took any.
    bool take_before(Int128 y, std::int64_t y_scale);
    /// Lets out every unit that a unit at time / scale leaves behind, in one pass over the runs.
    void let_out_behind(std::int64_t time, std::int64_t scale);
    /// Takes the units of a request of several, arriving at the tick last advanced to.
    [[gnu::noinline]] void add_run(const UnitSegment& segment);
    /// Units inside the window.
    std::int64_t inside() const { return static_cast<std::int64_t>(singles_.size()) + run_units_; }
    /// Lets out the units inside that a unit at time / scale leaves behind.
    void slide_to(std::int64_t time, std::int64_t scale) {
        if (runs_.empty() && moved_.empty()) [[likely]] {
            while (!singles_.empty() && !holds(singles_.front(), time, scale))
                singles_.pop_front();
            return;
        }
        slide_runs(time, scale);
    }
    /// slide_to() with runs of several units inside.
    [[gnu::noinline]] void slide_runs(std::int64_t time, std::int64_t scale);
    /// Where the earliest unit inside is (there is one), and its time. Single units are in
    /// singles_ in time order; runs that still begin with their first unit are in runs_ in the
    /// order they began, and those that have lost units are in the heap moved_.
    enum class Source { singles, runs, moved };
    std::pair<Source, Point> earliest_from() const {
        // The earliest of the three fronts; ties go to the first looked at.
        Source from = Source::singles;
        Point front{0, 1};
        bool found = false;
        auto consider = [&](Source source, std::int64_t time, std::int64_t scale) {
            if (!found || later(front.time, front.scale, time, scale)) {
                from = source;
                front = Point{time, scale};
                found = true;
            }
        };
        if (!singles_.empty())
            consider(Source::singles, singles_.front().time, singles_.front().scale);
        if (!runs_.empty())
            consider(Source::runs, runs_.front().first, runs_.front().scale);
        if (!moved_.empty())
            consider(Source::moved, moved_.front().first, moved_.front().scale);
        return {from, front};
    }
    Point earliest() const { return earliest_from().second; }
    /// Lets out the units at the front of `from` (which holds the earliest unit inside) that a
    /// unit at time / scale leaves behind: a run's in one step, however many they are.
    void let_out(Source from, std::int64_t time, std::int64_t scale);
    /// Cuts a run inside to the units that a unit at time / scale leaves inside; false: none
    /// are left, and the run is gone.
    bool cut(Run& run, std::int64_t time, std::int64_t scale);
    /// Restores the heap moved_ after its top run has lost units.
    void sift_down_moved();
    /// Takes a unit at time / scale that has no run of its own. A call from the run loop, which
    /// runs faster without it inlined.
    [[gnu::noinline]] void take_single(std::int64_t time, std::int64_t scale) {
        slide_to(time, scale);
        singles_.push_back(Point{time, scale});
        note_best();
    }
    /// Takes `count` units of slot's request from time / scale on: with more than one, none of
    /// them may leave a unit behind.
    void take(std::int64_t time, std::int64_t scale, std::uint32_t slot, std::int64_t count) {
        Slot& s = slots_[slot];
        if (!s.inside) {
            runs_.push_back(Run{time, scale, slot});
            s.inside = true;
        }
        s.end = time + count * s.step;
        run_units_ += count;
        note_best();
    }
    void note_best() {
        const std::int64_t count = inside();
        if (count > best_.cost) [[unlikely]] {
            const Point front = earliest();
            best_ = Burst{count, Rational(front.time, front.scale)};
        }
    }
    std::uint32_t open_slot(std::int64_t step) {
        const Slot fresh{0, step, false, true};
        if (free_.empty()) {
            slots_.push_back(fresh);
            return static_cast<std::uint32_t>(slots_.size() - 1);
        }
        const std::uint32_t slot = free_.back();
        free_.pop_back();
        slots_[slot] = fresh;
        return slot;
    }
    void close_slot(std::uint32_t slot) {
        free_.push_back(slot);
        if (free_.size() == slots_.size()) {  // none in use: start afresh, compact
            free_.clear();
            slots_.clear();
        }
    }

    Tick window_;
    Tick now_ = 0;  // the tick last advanced to
    PendingHeap pending_;
    RingBuffer<Point> singles_;   // units inside without a run, in time order
    RingBuffer<Run> runs_;        // runs inside that begin with their first unit, in time order
    std::vector<Run> moved_;      // a heap (earliest on top) of runs inside that have lost units
    std::int64_t run_units_ = 0;  // units of the runs inside
    std::vector<Slot> slots_;
    std::vector<std::uint32_t> free_;  // slots not in use
    Burst best_;
    std::int64_t skip_from_ = kSkipFrom;  // skip_below_best() once the best is this far ahead
    static constexpr std::int64_t kSkipFrom = 64;
    std::int64_t periodic_wait_ = kPeriodicWait;  // steps until skip_periodic() is tried again
    std::int64_t periodic_backoff_ = kPeriodicWait;
    static constexpr std::int64_t kPeriodicWait = 32;
    std::int64_t steps_ = 0;
};

}  // namespace ratelab::detail
