#include "burst.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <utility>

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

/// ceil(a / b) for a >= 0 and b > 0, in 128 bits.
Int128 ceil_div_wide(Int128 a, Int128 b) {
    return a / b + (a % b != 0);
}

/// floor(a / b) for b > 0.
Int128 floor_div(Int128 a, Int128 b) {
    const Int128 q = a / b;
    return q - (a % b != 0 && a < 0);
}

Int128 gcd_wide(Int128 a, Int128 b) {
    while (b != 0)
        a = std::exchange(b, a % b);
    return a;
}

/// lcm(a, b) for a, b > 0, or nothing past `most`.
std::optional<Int128> lcm_at_most(Int128 a, Int128 b, Int128 most) {
    const Int128 a_part = a / gcd_wide(a, b);
    if (a_part > most / b)
        return std::nullopt;
    return a_part * b;
}

/// A request's units as skip_periodic() sees them, in its common time unit: from its first
/// unit inside the window (or its first unit, if none is) to its last, `next` being the first
/// not yet taken. Just after the units at t are taken, those after t - w and up to t are inside
/// (w: the window). That changes with t in two stretches, where its units come and where they
/// leave, as a floor of t / step; elsewhere it stays.
struct PeriodicTerm {
    Int128 first, step, end, next;  // units first, first + step, ... before end
    /// Its units up to t.
    Int128 units_to(Int128 t) const {
        return std::clamp<Int128>(floor_div(t - first, step) + 1, 0, (end - first) / step);
    }
    Int128 at(Int128 t, Int128 w) const { return units_to(t) - units_to(t - w); }
    /// Where units_to(t), and units_to(t - w), are a floor of t / step: from the first edge to
    /// before the second.
    std::array<Int128, 2> coming() const { return {first - step, end}; }
    std::array<Int128, 2> leaving(Int128 w) const { return {first + w - step, end + w}; }
    static bool within(const std::array<Int128, 2>& edges, Int128 t) {
        return edges[0] <= t && t < edges[1];
    }
};

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

bool MergedUnitBurst::skip_periodic(Tick tick, bool all) {
    // Bounds on the work of one try: terms looked at, a common time unit, the units of a period.
    constexpr std::size_t kMostHeld = 4096;
    constexpr std::size_t kMostTerms = 64;
    constexpr Int128 kMostScale = 1'000'000'000;
    constexpr Int128 kMostPeriodUnits = 4096;
    auto give_up = [&] {
        periodic_backoff_ = std::min<std::int64_t>(2 * periodic_backoff_, 1024);
        periodic_wait_ = periodic_backoff_;
        return false;
    };
    const std::vector<Pending>& items = pending_.items();
    if (items.size() + singles_.size() + runs_.size() + moved_.size() > kMostHeld)
        return give_up();
    // Every time over one common scale.
    Int128 scale = 1;
    auto join = [&](std::int64_t s) {
        const auto joined = lcm_at_most(scale, s, kMostScale);
        if (joined)
            scale = *joined;
        return joined.has_value();
    };
    for (const Pending& p : items) {
        if (!join(p.scale))
            return give_up();
    }
    for (std::size_t i = 0; i < singles_.size(); ++i) {
        if (!join(singles_[i].scale))
            return give_up();
    }
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        if (!join(runs_[i].scale))
            return give_up();
    }
    for (const Run& run : moved_) {
        if (!join(run.scale))
            return give_up();
    }
    // One term per request: those inside the window with their units to take, if any, those
    // only inside, and those only to take. Requests queued behind others, whose units begin
    // later, only end the stretch where they begin.
    const Int128 w = window_ * scale;
    const Pending& top = pending_.top();
    const Int128 start = top.first * (scale / top.scale);
    Int128 stop = all ? std::numeric_limits<Int128>::max() : tick * scale;
    std::vector<PeriodicTerm> terms;
    for (const Pending& p : items) {
        if (p.slot != kSingle && slots_[p.slot].inside)
            continue;  // with its run below
        const Int128 m = scale / p.scale;
        const Int128 first = p.first * m;
        if (first - p.step * m > start) {
            stop = std::min(stop, first - p.step * m);
            continue;
        }
        terms.push_back(
            PeriodicTerm{first, p.step * m, (p.first + Int128{p.count} * p.step) * m, first});
        if (terms.size() > kMostTerms)
            return give_up();
    }
    for (std::size_t i = 0; i < singles_.size(); ++i) {
        const Int128 at = singles_[i].time * (scale / singles_[i].scale);
        terms.push_back(PeriodicTerm{at, 1, at + 1, at + 1});
    }
    // The run loop may have taken a request's units ahead of others' (those that let nothing
    // out): then the count before them is not what the window holds, and this waits.
    bool ahead = false;
    auto add_run = [&](const Run& run) {
        const Int128 m = scale / run.scale;
        const Slot& slot = slots_[run.slot];
        ahead = ahead || (slot.end - slot.step) * m > start;
        Int128 end = slot.end;  // over run.scale
        if (slot.pending) {     // to the request's last unit
            for (const Pending& p : items) {
                if (p.slot == run.slot)
                    end = p.first + Int128{p.count} * p.step;
            }
        }
        terms.push_back(PeriodicTerm{run.first * m, slot.step * m, end * m, slot.end * m});
    };
    for (std::size_t i = 0; i < runs_.size(); ++i)
        add_run(runs_[i]);
    for (const Run& run : moved_)
        add_run(run);
    if (terms.size() > kMostTerms || ahead)
        return give_up();

    // The stretch: from the earliest pending unit to the first change of pace after it.
    for (const PeriodicTerm& term : terms) {
        for (const auto& edges : {term.coming(), term.leaving(w)}) {
            for (const Int128 edge : edges) {
                if (edge > start)
                    stop = std::min(stop, edge);
            }
        }
    }
    // Its period, and how the count changes over one.
    Int128 period = 1;
    Int128 change = 0;
    Int128 period_units = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (const PeriodicTerm& term : terms) {
            const bool coming = PeriodicTerm::within(term.coming(), start);
            const bool leaving = PeriodicTerm::within(term.leaving(w), start);
            if (pass == 0 && (coming || leaving)) {
                const auto joined = lcm_at_most(period, term.step, Int128{1} << 100);
                if (!joined)
                    return give_up();
                period = *joined;
            }
            if (pass == 1) {
                change += (coming ? period / term.step : 0) - (leaving ? period / term.step : 0);
                period_units += coming ? period / term.step : 0;
            }
        }
    }
    if (stop - start < 8 * period || period_units > kMostPeriodUnits) {
        // Too short to gain from: try again about when it has been taken.
        Int128 units = 0;
        for (const PeriodicTerm& term : terms) {
            const Int128 until = std::min(stop, term.end);
            if (term.next < until)
                units += ceil_div_wide(until - term.next, term.step);
        }
        periodic_wait_ = static_cast<std::int64_t>(std::clamp<Int128>(units, 1, 1 << 20));
        return false;
    }
    // The units of the period that holds the worst count, and the first of them that has it.
    const Int128 lo = change > 0 ? stop - period : start;
    std::vector<Int128> times;
    for (const PeriodicTerm& term : terms) {
        if (term.next >= lo + period)
            continue;
        const Int128 skip = term.next < lo ? ceil_div_wide(lo - term.next, term.step) : 0;
        for (Int128 t = term.next + skip * term.step; t < lo + period && t < term.end;
             t += term.step)
            times.push_back(t);
    }
    std::sort(times.begin(), times.end());
    Int128 worst = -1;
    Int128 worst_at = 0;
    for (const Int128 t : times) {
        Int128 count = 0;
        for (const PeriodicTerm& term : terms)
            count += term.at(t, w);
        if (count > worst) {
            worst = count;
            worst_at = t;
        }
    }
    periodic_backoff_ = kPeriodicWait;
    if (worst <= best_.cost) {  // none beats the best: take the whole stretch
        periodic_wait_ = kPeriodicWait;
        return take_before(stop, static_cast<std::int64_t>(scale));
    }
    // Up to the unit that beats it, which the caller takes; then the rest of the stretch.
    periodic_wait_ = 1;
    return worst_at > start && take_before(worst_at, static_cast<std::int64_t>(scale));
}

bool MergedUnitBurst::take_before(Int128 y, std::int64_t y_scale) {
    // The runs begun begin in time order, as the heap hands out their first units, and the
    // single units come in time order too.
    Point newest{0, 1};
    bool took = false;
    while (!pending_.empty() && static_cast<Int128>(pending_.top().first) * y_scale <
                                    y * static_cast<Int128>(pending_.top().scale)) {
        Pending next = pending_.top();
        pending_.pop();
        took = true;
        const Int128 before =
            ceil_div_wide(y * next.scale - static_cast<Int128>(next.first) * y_scale,
                          static_cast<Int128>(next.step) * y_scale);
        const auto take_now = static_cast<std::int64_t>(std::min<Int128>(next.count, before));
        const std::int64_t last = next.first + (take_now - 1) * next.step;
        if (later(last, next.scale, newest.time, newest.scale))
            newest = Point{last, next.scale};
        if (next.slot == kSingle) {
            singles_.push_back(Point{next.first, next.scale});
            continue;
        }
        Slot& slot = slots_[next.slot];
        if (!slot.inside) {
            runs_.push_back(Run{next.first, next.scale, next.slot});
            slot.inside = true;
        }
        slot.end = next.first + take_now * next.step;
        run_units_ += take_now;
        if (take_now == next.count) {
            slot.pending = false;
            continue;
        }
        next.first += take_now * next.step;
        next.count -= static_cast<std::int32_t>(take_now);
        pending_.push(next);  // at y or later: not taken again here
    }
    if (took)
        let_out_behind(newest.time, newest.scale);
    return took;
}

void MergedUnitBurst::let_out_behind(std::int64_t time, std::int64_t scale) {
    while (!singles_.empty() && !holds(singles_.front(), time, scale))
        singles_.pop_front();
    // Cuts a run to its units that a span ending at time / scale holds; false: none are left.
    auto cut = [&](Run& run) {
        if (holds(Point{run.first, run.scale}, time, scale))
            return true;
        Slot& slot = slots_[run.slot];
        // Units u (over run.scale) whose span ends by time / scale: u * scale <= bound.
        const Int128 bound = static_cast<Int128>(time) * run.scale -
                             static_cast<Int128>(window_) * run.scale * scale;
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
    };
    std::vector<Run> kept;
    kept.reserve(moved_.size());
    for (Run run : moved_) {
        if (cut(run))
            kept.push_back(run);
    }
    // runs_ is in time order: those cut are at its front, and move to the heap.
    while (!runs_.empty() && !holds(Point{runs_.front().first, runs_.front().scale}, time, scale)) {
        Run run = runs_.front();
        runs_.pop_front();
        if (cut(run))
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
        let_out(from);
    }
}

void MergedUnitBurst::let_out(Source from) {
    if (from == Source::singles) {
        singles_.pop_front();
        return;
    }
    --run_units_;
    if (from == Source::runs) {
        Run run = runs_.front();
        runs_.pop_front();
        Slot& slot = slots_[run.slot];
        run.first += slot.step;
        if (run.first != slot.end) {  // units of it are still inside
            moved_.push_back(run);
            std::push_heap(moved_.begin(), moved_.end(), LaterRun{});
            return;
        }
        slot.inside = false;
        if (!slot.pending)
            close_slot(run.slot);
        return;
    }
    Run& top = moved_.front();
    Slot& slot = slots_[top.slot];
    top.first += slot.step;
    if (top.first != slot.end) {  // still inside, later than before: down the heap
        sift_down_moved();
        return;
    }
    slot.inside = false;
    if (!slot.pending)
        close_slot(top.slot);
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
