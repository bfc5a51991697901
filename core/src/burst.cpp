#include "burst.h"

#include <algorithm>
#include <limits>

#include "branch_free.h"

namespace ratelab::detail {

void ArrivalBurst::add(const Arrival* arrivals, std::size_t count) {
    if (slots_.empty())
        grow(0, 0);
    // The working fields in locals, which stores into the slots cannot alias.
    Arrival* slots = slots_.data();
    std::size_t mask = slots_.size() - 1;
    std::size_t head = head_;
    std::size_t tail = tail_;
    std::int64_t sum = sum_;
    std::int64_t best_cost = best_.cost;
    Tick best_start = 0;
    const Tick window = window_;
    // Arrivals on one tick share a slot: with many arrivals per tick, the window holds and
    // lets out one slot per tick rather than one per arrival. The newest slot is kept in locals
    // as well: merging into it is a select, not a branch, and does not wait for the store
    // before.
    Tick newest_tick =
        tail != head ? slots[(tail - 1) & mask].tick : std::numeric_limits<Tick>::min();
    std::int64_t newest_cost = tail != head ? slots[(tail - 1) & mask].cost : 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Arrival arrival = arrivals[i];    // a copy: the stores below might alias it
        if (tail - head > mask) [[unlikely]] {  // full
            grow(head, tail);
            slots = slots_.data();
            mask = slots_.size() - 1;
            tail -= head;
            head = 0;
        }
        // Once the first arrival is in, the window is never empty: the newest slot is held.
        const bool same_tick = arrival.tick == newest_tick;
        newest_tick = arrival.tick;
        newest_cost = only_if(same_tick, newest_cost) + arrival.cost;
        tail -= same_tick;
        slots[tail & mask] = Arrival{newest_tick, newest_cost};
        ++tail;
        sum += arrival.cost;
        // Slots leave the window only when a new tick begins, and then about as fast as they
        // come: mostly one, at times none or two. Two are let out without a branch on whether
        // they left (the newest one never has), and the loop takes the rest. Skipping this for
        // an arrival on the newest tick keeps it off the chain of loads through `head`.
        if (!same_tick) {
            for (int step = 0; step < 2; ++step) {
                const Arrival& front = slots[head & mask];
                const bool left = arrival.tick - front.tick >= window;
                sum -= only_if(left, front.cost);
                head += left;
            }
            while (arrival.tick - slots[head & mask].tick >= window) {
                sum -= slots[head & mask].cost;
                ++head;
            }
        }
        if (sum > best_cost) [[unlikely]] {
            best_cost = sum;
            best_start = slots[head & mask].tick;
        }
    }
    head_ = head;
    tail_ = tail;
    sum_ = sum;
    if (best_cost > best_.cost)
        best_ = Burst{best_cost, Rational(best_start)};
}

void ArrivalBurst::grow(std::size_t head, std::size_t tail) {
    std::vector<Arrival> bigger(std::max<std::size_t>(8, slots_.size() * 2));
    for (std::size_t at = head; at != tail; ++at)
        bigger[at - head] = slots_[at & (slots_.size() - 1)];
    slots_.swap(bigger);
}

bool ArrivalBurst::same_window(const ArrivalBurst& other) const {
    if (sum_ != other.sum_ || held() != other.held())
        return false;
    const std::size_t mask = slots_.size() - 1;
    const std::size_t other_mask = other.slots_.size() - 1;
    for (std::size_t i = 0; i < held(); ++i) {
        if (!(slots_[(head_ + i) & mask] == other.slots_[(other.head_ + i) & other_mask]))
            return false;
    }
    return true;
}

void SegmentBurst::settle_front() {
    // Scaled times stay below 3 * 10^18 within the documented bounds, so 64 bits suffice here.
    const UnitSegment& front = inside_.front();
    const UnitSegment& last = inside_.back();
    const std::int64_t span_end = front.first + window_ * front.scale;
    const std::int64_t room = span_end - last.first;  // > 0: all inside start before span_end
    const std::int64_t cut = std::min((room + last.step - 1) / last.step, last.count);
    const std::int64_t total = sum_ - last.count + cut;
    if (total > best_.cost)
        best_ = Burst{total, Rational(front.first, front.scale)};
    sum_ -= front.count;
    inside_.pop_front();
}

Burst SegmentBurst::result() {
    while (!inside_.empty())
        settle_front();
    return best_;
}

void MergedUnitBurst::advance_to(Tick tick) {
    // tick * scale stays within 10^18 inside the documented bounds.
    while (!pending_.empty() && pending_.top().first < tick * pending_.top().scale) {
        release_earliest_unit();
    }
    now_ = tick;
}

void MergedUnitBurst::release_earliest_unit() {
    UnitSegment segment = pending_.top();
    pending_.pop();
    take_unit(Point{segment.first, segment.scale});
    if (segment.count > 1) {
        segment.first += segment.step;
        --segment.count;
        pending_.push(segment);
    }
}

void MergedUnitBurst::take_unit(const Point& unit) {
    while (!inside_.empty()) {
        const Point& front = inside_.front();
        // Scaled times and window * scale stay below 3 * 10^18 within the documented bounds.
        const std::int64_t front_end = front.time + window_ * front.scale;
        if (front.scale == unit.scale ? front_end > unit.time
                                      : static_cast<Int128>(front_end) * unit.scale >
                                            static_cast<Int128>(unit.time) * front.scale)
            break;
        inside_.pop_front();
    }
    inside_.push_back(unit);
    const auto count = static_cast<std::int64_t>(inside_.size());
    if (count > best_.cost)
        best_ = Burst{count, Rational(inside_.front().time, inside_.front().scale)};
}

std::vector<UnitSegment> MergedUnitBurst::held_from(std::int64_t from, std::int64_t step) const {
    std::vector<UnitSegment> out;
    for (std::size_t i = 0; i < inside_.size(); ++i) {
        if (inside_[i].time >= from)
            out.push_back(UnitSegment{inside_[i].time, 1, step, inside_[i].scale});
    }
    auto pending = pending_;
    for (; !pending.empty(); pending.pop())
        out.push_back(pending.top());  // pending units start at the tick advanced to, or later
    return out;
}

Burst MergedUnitBurst::result() {
    while (!pending_.empty())
        release_earliest_unit();
    return best_;
}

}  // namespace ratelab::detail
