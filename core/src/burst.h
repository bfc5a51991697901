#pragma once

#include <cstddef>
#include <cstdint>
#include <queue>
#include <vector>

#include "branch_free.h"
#include "ratelab/algorithm.h"
#include "ratelab/model.h"
#include "ring_buffer.h"

namespace ratelab::detail {

/// Worst W-tick burst over accepted arrivals, fed in non-decreasing tick order. O(1) amortized
/// per request and no storage beyond the requests inside one window.
///
/// A run loop feeds it through an Open copy of its working fields, which the compiler can keep
/// in registers, and which takes every request, accepted or not, without a branch on the outcome.
class ArrivalBurst {
    struct Point {
        Tick tick;
        std::int64_t cost;
        friend bool operator==(const Point&, const Point&) = default;
    };

public:
    explicit ArrivalBurst(Tick window) : window_(window) {}

    class Open {
    public:
        /// Counts an arrival of `cost` at `tick` when `accepted`, and drops the arrivals that
        /// left the window by `tick` either way.
        void add(Tick tick, std::int64_t cost, bool accepted) {
            if (tail_ - head_ > mask_) [[unlikely]]
                *this = owner_->grow(*this);
            // The slot past the last is written either way; only an accepted arrival keeps it.
            slots_[tail_ & mask_] = Point{tick, cost};
            tail_ += accepted;
            sum_ += only_if(accepted, cost);
            // Arrivals that left the window: as many as arrive over time, so mostly none or one
            // per request, and rarely more than two. Two are let out without a branch on
            // whether they left, and the loop takes the rest.
            drop_if_left(tick);
            drop_if_left(tick);
            while (head_ != tail_ && tick - slots_[head_ & mask_].tick >= window_) {
                sum_ -= slots_[head_ & mask_].cost;
                ++head_;
            }
            // A rejection only ever lowers the sum, so this is the same as checking on accepts.
            if (sum_ > best_cost_) [[unlikely]] {
                best_cost_ = sum_;
                best_start_ = slots_[head_ & mask_].tick;
            }
        }

    private:
        friend class ArrivalBurst;
        void drop_if_left(Tick tick) {
            const Point& front = slots_[head_ & mask_];
            const bool left = head_ != tail_ && tick - front.tick >= window_;
            sum_ -= only_if(left, front.cost);
            head_ += left;
        }
        ArrivalBurst* owner_;
        Point* slots_;
        std::size_t mask_;
        std::size_t head_;  // counts of arrivals taken in and let out, not wrapped
        std::size_t tail_;
        std::int64_t sum_;
        std::int64_t best_cost_;
        Tick best_start_;
        Tick window_;
    };
    /// The working fields, for a loop to add to; give them back with close() before anything
    /// else reads or changes the tracker.
    Open open() {
        if (slots_.empty()) [[unlikely]]
            grow_empty();  // so that the slot at the head can always be read
        Open fields;
        fields.owner_ = this;
        fields.slots_ = slots_.data();
        fields.mask_ = slots_.size() - 1;
        fields.head_ = head_;
        fields.tail_ = tail_;
        fields.sum_ = sum_;
        fields.best_cost_ = best_.cost;
        fields.best_start_ = 0;
        fields.window_ = window_;
        return fields;
    }
    /// Takes the working fields back (by value, so that the loop's copy never has its address
    /// taken and can stay in registers).
    void close(Open fields) {
        head_ = fields.head_;
        tail_ = fields.tail_;
        sum_ = fields.sum_;
        if (fields.best_cost_ > best_.cost) [[unlikely]]
            set_best(Burst{fields.best_cost_, Rational(fields.best_start_)});
    }

    Burst result() const { return best_; }
    /// Entries held: what a copy costs.
    std::size_t held() const { return tail_ - head_; }
    /// The worst burst so far, and a replacement for it (see BasicAlgorithm's rerun).
    const Burst& best() const { return best_; }
    void set_best(const Burst& best) { best_ = best; }
    /// Whether every later burst will come out the same as in `other`: the same arrivals are
    /// inside the window.
    bool same_window(const ArrivalBurst& other) const;

private:
    /// Moves the arrivals into twice the room (out of line: rare, and it keeps `open` local).
    [[gnu::noinline, gnu::cold]] Open grow(Open open);
    [[gnu::noinline, gnu::cold]] void grow_empty() { slots_.resize(4); }

    Tick window_;
    std::vector<Point> slots_;  // empty or a power of two of them
    std::size_t head_ = 0;
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
    void add(const UnitSegment& segment) { pending_.push(segment); }
    /// Every unit before `tick` has been added.
    void advance_to(Tick tick);
    Burst result();
    std::size_t held() const { return pending_.size() + inside_.size(); }

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
    std::priority_queue<UnitSegment, std::vector<UnitSegment>, Later> pending_;
    RingBuffer<Point> inside_;
    Burst best_;
};

}  // namespace ratelab::detail
