#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
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
class MergedUnitBurst {
public:
    explicit MergedUnitBurst(Tick window) : window_(window) {}
    /// Carries on from another tracker: `best` found so far, no unit taken yet, and requests
    /// arriving from `now` on.
    MergedUnitBurst(Tick window, Tick now, const Burst& best)
        : window_(window), now_(now), best_(best) {}
    /// Takes the units of a request arriving at the tick last advanced to.
    void add(UnitSegment segment) {
        // Nothing pending starts before that tick, and no later request's units will: a first
        // unit at the tick itself (a key with nothing queued) is final at once. Most are, with
        // many keys, and skip the heap.
        if (segment.first == now_ * segment.scale) {
            take_unit(Point{segment.first, segment.scale});
            if (--segment.count == 0)
                return;
            segment.first += segment.step;
        }
        pending_.push(segment);
    }
    /// Takes units that may start before the tick last advanced to, but not before any unit
    /// taken so far; advance_to() then takes them in time order.
    void adopt(const UnitSegment& segment) { pending_.push(segment); }
    /// Every unit before `tick` has been added; the requests still to come arrive at `tick` or
    /// later.
    void advance_to(Tick tick);
    Burst result();
    std::size_t held() const { return pending_.size() + inside_.size(); }
    /// The worst burst among the spans ending at the units taken so far.
    const Burst& best() const { return best_; }
    /// What it holds with a unit at or after `from` (over scale): the units taken, one segment
    /// each, and the segments still to release. Only when every unit has the same scale.
    std::vector<UnitSegment> held_from(std::int64_t from, std::int64_t step) const;

private:
    struct Later {
        bool operator()(const UnitSegment& a, const UnitSegment& b) const {
            if (a.scale == b.scale)  // keys that share a configuration: no products needed
                return a.first > b.first;
            return static_cast<Int128>(a.first) * b.scale > static_cast<Int128>(b.first) * a.scale;
        }
    };
    struct Point {
        std::int64_t time;  // over scale
        std::int64_t scale;
    };
    void release_earliest_unit();
    void take_unit(const Point& unit);

    Tick window_;
    Tick now_ = 0;  // the tick last advanced to
    std::priority_queue<UnitSegment, std::vector<UnitSegment>, Later> pending_;
    RingBuffer<Point> inside_;
    Burst best_;
};

}  // namespace ratelab::detail
