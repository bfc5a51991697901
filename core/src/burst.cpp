#include "burst.h"

#include <algorithm>

namespace ratelab::detail {

ArrivalBurst::Open ArrivalBurst::grow(Open open) {
    std::vector<Point> bigger(slots_.size() * 2);
    std::size_t to = 0;
    for (std::size_t at = open.head_; at != open.tail_; ++at)
        bigger[to++] = slots_[at & open.mask_];
    slots_.swap(bigger);
    open.slots_ = slots_.data();
    open.mask_ = slots_.size() - 1;
    open.head_ = 0;
    open.tail_ = to;
    return open;
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

Burst MergedUnitBurst::result() {
    while (!pending_.empty())
        release_earliest_unit();
    return best_;
}

}  // namespace ratelab::detail
