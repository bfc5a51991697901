#include "burst.h"

#include <algorithm>
#include <limits>
#include <optional>

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

namespace {

/// ceil(a / b) for a >= 0 and b > 0.
std::int64_t ceil_div(Int128 a, Int128 b) {
    return static_cast<std::int64_t>(a / b + (a % b != 0));
}

}  // namespace

void MergedUnitBurst::release(Tick tick, bool all) {
    while (!pending_.empty()) {
        Pending next = pending_.top();
        // tick * scale stays within 10^18 inside the documented bounds.
        if (!all && next.first >= tick * next.scale)
            return;
        // Far below the best, a stretch of units cannot beat it whatever they let out.
        if (best_.cost - inside() >= skip_from_) [[unlikely]] {
            if (skip_below_best(tick, all))
                continue;
        }
        if (next.slot != kSingle && --periodic_wait_ <= 0) [[unlikely]] {
            if (skip_periodic(tick, all))
                continue;
        }
        pending_.pop();
        if (next.slot == kSingle) {
            take_single(next.first, next.scale);
            continue;
        }
        ++steps_;
        slide_to(next.first, next.scale);
        // Its units before the tick and before the end of a span from the earliest unit inside
        // (this one if none is) come before any other request's unit that would let a unit
        // out: taken at once, none leaves, and the count only grows. The runs begun meanwhile
        // begin in time order, as the heap hands out their first units.
        std::int64_t take_now = 1;
        // Mostly (a window that slides with every unit) the second unit already leaves one
        // out: told without dividing.
        const std::int64_t second = next.first + next.step;
        if (next.count > 1 && (all || second < tick * next.scale) &&
            (inside() == 0 ? next.step < window_ * next.scale
                           : holds(earliest(), second, next.scale))) {
            take_now = next.count;
            if (!all)
                take_now = std::min(take_now, ceil_div(tick * next.scale - next.first, next.step));
            if (inside() == 0) {
                take_now = std::min(take_now, ceil_div(window_ * next.scale, next.step));
            } else {
                const Point front = earliest();
                // > 0: slide_to() left only units whose span ends after this one.
                const Int128 room =
                    static_cast<Int128>(front.time + window_ * front.scale) * next.scale -
                    static_cast<Int128>(next.first) * front.scale;
                take_now = std::min(take_now,
                                    ceil_div(room, static_cast<Int128>(next.step) * front.scale));
            }
        }
        Slot& slot = slots_[next.slot];
        if (take_now == next.count) {
            slot.pending = false;
            if (take_now == 1 && !slot.inside) {  // a last unit on its own needs no slot
                close_slot(next.slot);
                take_single(next.first, next.scale);
                continue;
            }
            take(next.first, next.scale, next.slot, take_now);
            continue;
        }
        take(next.first, next.scale, next.slot, take_now);
        next.first += take_now * next.step;
        next.count -= static_cast<std::int32_t>(take_now);
        pending_.push(next);
    }
}

bool MergedUnitBurst::skip_below_best(Tick tick, bool all) {
    // Spans ending at the units before y hold no more than the units inside now plus those
    // taken: while that is at most the best, none of them can beat it (a tie keeps the earlier
    // start), and it is enough to take them and let out what the last of them leaves behind.
    const std::int64_t budget = best_.cost - inside();
    const std::vector<Pending>& items = pending_.items();
    // Worth a pass over the pending requests only when it may take several units each.
    if (budget < 4 * static_cast<std::int64_t>(items.size() + runs_.size() + moved_.size())) {
        skip_from_ = std::max(skip_from_, 2 * budget);
        return false;
    }
    auto units_before = [&](Int128 y) {
        std::int64_t units = 0;
        for (const Pending& p : items) {
            const Int128 room = y * p.scale - p.first;
            if (room > 0)
                units += std::min<std::int64_t>(p.count, ceil_div(room, p.step));
            if (units > budget)
                break;
        }
        return units;
    };
    const Pending& top = pending_.top();
    Int128 lo = top.first / top.scale + 1;  // the earliest pending unit lies before it
    Int128 hi = tick;
    if (all) {
        hi = lo;
        for (const Pending& p : items)
            hi = std::max<Int128>(hi, (p.first + (p.count - 1) * p.step) / p.scale + 1);
    }
    if (units_before(lo) > budget) {
        skip_from_ = 2 * budget;  // not before the best is further ahead
        return false;
    }
    if (units_before(hi) > budget) {
        while (hi - lo > 1) {  // units_before(lo) <= budget < units_before(hi)
            const Int128 mid = lo + (hi - lo) / 2;
            (units_before(mid) <= budget ? lo : hi) = mid;
        }
        hi = lo;
    }
    take_before(hi, 1);
    skip_from_ = kSkipFrom;
    return true;
}

void MergedUnitBurst::let_out_behind(std::int64_t time, std::int64_t scale) {
    while (!singles_.empty() && !holds(singles_.front(), time, scale))
        singles_.pop_front();
    std::vector<Run> kept;
    kept.reserve(moved_.size());
    for (Run run : moved_) {
        if (cut(run, time, scale))
            kept.push_back(run);
    }
    // runs_ is in time order: those cut are at its front, and move to the heap.
    while (!runs_.empty() && !holds(Point{runs_.front().first, runs_.front().scale}, time, scale)) {
        Run run = runs_.front();
        runs_.pop_front();
        if (cut(run, time, scale))
            kept.push_back(run);
    }
    moved_.swap(kept);
    std::make_heap(moved_.begin(), moved_.end(), LaterRun{});
}

void MergedUnitBurst::add_run(const UnitSegment& segment) {
    if (segment.first != now_ * segment.scale) {
        adopt(segment);
        return;
    }
    // Its first unit is final at once, as in add().
    slide_to(segment.first, segment.scale);
    const std::uint32_t slot = open_slot(segment.step);
    take(segment.first, segment.scale, slot, 1);
    UnitSegment rest = segment;
    rest.first += rest.step;
    --rest.count;
    pending_.push(pending(rest, slot));
}

void MergedUnitBurst::slide_runs(std::int64_t time, std::int64_t scale) {
    while (inside() > 0) {
        const auto [from, front] = earliest_from();
        if (holds(front, time, scale))
            return;
        let_out(from, time, scale);
        ++steps_;
    }
}

bool MergedUnitBurst::cut(Run& run, std::int64_t time, std::int64_t scale) {
    if (holds(Point{run.first, run.scale}, time, scale))
        return true;
    Slot& slot = slots_[run.slot];
    // Units u (over run.scale) whose span ends by time / scale: u * scale <= bound.
    const Int128 bound =
        static_cast<Int128>(time) * run.scale - static_cast<Int128>(window_) * run.scale * scale;
    const Int128 gone = (bound - static_cast<Int128>(run.first) * scale) /
                            (static_cast<Int128>(slot.step) * scale) +
                        1;
    const std::int64_t held = (slot.end - run.first) / slot.step;
    if (gone >= held) {
        run_units_ -= held;
        slot.inside = false;
        if (!slot.pending)
            close_slot(run.slot);
        return false;
    }
    run_units_ -= static_cast<std::int64_t>(gone);
    run.first += static_cast<std::int64_t>(gone) * slot.step;
    return true;
}

void MergedUnitBurst::let_out(Source from, std::int64_t time, std::int64_t scale) {
    // The order in which units leave does not matter, only which are left: a run loses every
    // unit the new one leaves behind at once, as a long queue's units would otherwise leave one
    // heap step at a time while another key's units come in.
    if (from == Source::singles) {
        singles_.pop_front();
        return;
    }
    if (from == Source::runs) {
        Run run = runs_.front();
        runs_.pop_front();
        if (cut(run, time, scale)) {  // units of it are still inside
            moved_.push_back(run);
            std::push_heap(moved_.begin(), moved_.end(), LaterRun{});
        }
        return;
    }
    if (cut(moved_.front(), time, scale)) {  // still inside, later than before: down the heap
        sift_down_moved();
        return;
    }
    std::pop_heap(moved_.begin(), moved_.end(), LaterRun{});
    moved_.pop_back();
}

void MergedUnitBurst::sift_down_moved() {
    const std::size_t size = moved_.size();
    const Run run = moved_.front();
    std::size_t at = 0;
    for (;;) {
        std::size_t child = 2 * at + 1;
        if (child >= size)
            break;
        if (child + 1 < size && LaterRun{}(moved_[child], moved_[child + 1]))
            ++child;
        if (!LaterRun{}(run, moved_[child]))
            break;
        moved_[at] = moved_[child];
        at = child;
    }
    moved_[at] = run;
}

std::vector<UnitSegment> MergedUnitBurst::held_from(std::int64_t from, std::int64_t step) const {
    std::vector<UnitSegment> out;
    for (std::size_t i = 0; i < singles_.size(); ++i) {
        if (singles_[i].time >= from)
            out.push_back(UnitSegment{singles_[i].time, 1, step, singles_[i].scale});
    }
    auto add_run = [&](const Run& run) {
        const Slot& slot = slots_[run.slot];
        std::int64_t first = run.first;
        if (first < from)
            first += ceil_div(from - first, slot.step) * slot.step;
        if (first < slot.end)
            out.push_back(UnitSegment{first, (slot.end - first) / slot.step, slot.step, run.scale});
    };
    for (std::size_t i = 0; i < runs_.size(); ++i)
        add_run(runs_[i]);
    for (const Run& run : moved_)
        add_run(run);
    auto pending = pending_;
    for (; !pending.empty(); pending.pop()) {  // they start at the tick advanced to, or later
        const Pending& top = pending.top();
        out.push_back(UnitSegment{top.first, top.count, top.step, top.scale});
    }
    return out;
}

}  // namespace ratelab::detail
