// The stretch shortcuts of MergedUnitBurst (core/src/burst.h): skip_periodic(), which takes a
// stretch of busy queues at steady paces at once, and take_before(), which both shortcuts use.
#include "burst.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ratelab::detail {

namespace {

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
    /// Its first unit after t, if before `before`.
    std::optional<Int128> unit_after(Int128 t, Int128 before) const {
        const Int128 unit = first > t ? first : first + ((t - first) / step + 1) * step;
        if (unit < std::min(before, end))
            return unit;
        return std::nullopt;
    }
    /// Where units_to(t), and units_to(t - w), are a floor of t / step: from the first edge to
    /// before the second.
    std::array<Int128, 2> coming() const { return {first - step, end}; }
    std::array<Int128, 2> leaving(Int128 w) const { return {first + w - step, end + w}; }
    static bool within(const std::array<Int128, 2>& edges, Int128 t) {
        return edges[0] <= t && t < edges[1];
    }
    /// Whether `later`'s units carry on where these end, a step apart, as a busy queue's next
    /// request does: then the two are one progression, and count as one term.
    bool carried_on_by(const PeriodicTerm& later) const {
        return later.step == step && later.first == end &&
               (next == end || later.next == later.first);
    }
};

/// Joins the terms whose units carry on one another's (a busy queue's requests back to back)
/// into one term each, so that a queue of many short requests is one term and does not end a
/// stretch between them.
void join_back_to_back(std::vector<PeriodicTerm>& terms) {
    // Each term's predecessor ends where it begins, so comes before it in this order; a term
    // that nothing carries on yet is open, by its step and end.
    std::sort(terms.begin(), terms.end(), [](const PeriodicTerm& a, const PeriodicTerm& b) {
        return std::pair{a.step, a.first} < std::pair{b.step, b.first};
    });
    std::map<std::pair<Int128, Int128>, std::size_t> open;
    std::vector<PeriodicTerm> joined;
    for (const PeriodicTerm& term : terms) {
        const auto before = open.find({term.step, term.first});
        if (before != open.end() && joined[before->second].carried_on_by(term)) {
            PeriodicTerm& into = joined[before->second];
            if (into.next == into.end)
                into.next = term.next;
            into.end = term.end;
            open.emplace(std::pair{into.step, into.end}, before->second);
            open.erase(before);
            continue;
        }
        open.emplace(std::pair{term.step, term.end}, joined.size());
        joined.push_back(term);
    }
    terms.swap(joined);
}

/// Whether no span ending at a unit in [start, stop) can hold more than `best` units, by the
/// worst count of each pace (see skip_periodic()).
bool bounded_by_best(const std::vector<PeriodicTerm>& terms, Int128 start, Int128 stop, Int128 w,
                     std::int64_t best) {
    Int128 most = 0;
    std::vector<bool> counted(terms.size(), false);
    std::vector<const PeriodicTerm*> pace;
    std::vector<std::pair<Int128, int>> changes;  // a unit coming in (+1) or leaving (-1)
    for (std::size_t i = 0; i < terms.size(); ++i) {
        if (counted[i])
            continue;
        const Int128 step = terms[i].step;
        pace.clear();
        Int128 change = 0;  // over one step
        for (std::size_t j = i; j < terms.size(); ++j) {
            if (terms[j].step != step)
                continue;
            counted[j] = true;
            pace.push_back(&terms[j]);
            change += PeriodicTerm::within(terms[j].coming(), start);
            change -= PeriodicTerm::within(terms[j].leaving(w), start);
        }
        // The count is highest at the step's start or where a unit comes in. Within a step
        // each term has at most one unit coming in and one leaving: the count at lo, then
        // those changes in time order.
        const Int128 lo = change > 0 ? std::max(start, stop - step) : start;
        const Int128 hi = std::min(stop, lo + step);
        Int128 count = 0;
        changes.clear();
        for (const PeriodicTerm* term : pace) {
            count += term->at(lo, w);
            if (const auto unit = term->unit_after(lo, hi))
                changes.emplace_back(*unit, 1);
            if (const auto unit = term->unit_after(lo - w, hi - w))
                changes.emplace_back(*unit + w, -1);
        }
        std::sort(changes.begin(), changes.end());
        Int128 worst = count;
        for (std::size_t at = 0; at < changes.size();) {
            const Int128 t = changes[at].first;
            bool came = false;
            for (; at < changes.size() && changes[at].first == t; ++at) {
                count += changes[at].second;
                came = came || changes[at].second > 0;
            }
            if (came)
                worst = std::max(worst, count);
        }
        most += worst;
        if (most > best)
            return false;
    }
    return true;
}

/// How many units of `terms` are still to take before `until`.
Int128 units_before(const std::vector<PeriodicTerm>& terms, Int128 until) {
    Int128 units = 0;
    for (const PeriodicTerm& term : terms) {
        const Int128 last = std::min(until, term.end);
        if (term.next < last)
            units += ceil_div_wide(last - term.next, term.step);
    }
    return units;
}

}  // namespace

bool MergedUnitBurst::skip_periodic(Tick tick, bool all) {
    // Bounds on the work of one try: terms looked at, a common time unit, the units of a period.
    constexpr std::size_t kMostHeld = 4096;
    constexpr std::size_t kMostTerms = 256;
    constexpr Int128 kMostScale = 1'000'000'000'000'000'000;  // times * scale stay below 10^31
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
    // later, join the term whose units they carry on, or else end the stretch where they begin.
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
        terms.push_back(
            PeriodicTerm{first, p.step * m, (p.first + Int128{p.count} * p.step) * m, first});
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
    if (ahead)
        return give_up();
    join_back_to_back(terms);
    // Those still queued behind, whose units begin after the stretch's start, only end the
    // stretch where they begin. (No unit taken is among them: the run loop has taken none ahead,
    // and single units are taken in time order.)
    const auto queued = [start](const PeriodicTerm& term) {
        return term.first - term.step > start;
    };
    for (const PeriodicTerm& term : terms) {
        if (queued(term))
            stop = std::min(stop, term.first - term.step);
    }
    std::erase_if(terms, queued);
    if (terms.size() > kMostTerms)
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
    // Takes the whole stretch. One of a few units gains little over counting them (it is that
    // short when requests come every tick): the back-off grows then, as after a try that failed.
    auto take_stretch = [&] {
        periodic_backoff_ = units_before(terms, stop) < kPeriodicWait
                                ? std::min<std::int64_t>(2 * periodic_backoff_, 1024)
                                : kPeriodicWait;
        periodic_wait_ = periodic_backoff_;
        return take_before(stop, static_cast<std::int64_t>(scale));
    };
    // A bound first, which needs no common period. The units of requests whose units are one
    // step apart repeat their count every step (less what they lose, more what they gain,
    // over one), so their worst count in the stretch is in its first step or its last. The
    // worst counts of each pace, added up, bound the count of any span in the stretch: when
    // that is no more than the best, none beats it. Paces whose common period is far too long
    // to count (drain intervals over large primes) are taken a stretch at a time this way
    // wherever each pace's worst is the best's.
    if (bounded_by_best(terms, start, stop, w, best_.cost))
        return take_stretch();
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
        periodic_wait_ =
            static_cast<std::int64_t>(std::clamp<Int128>(units_before(terms, stop), 1, 1 << 20));
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
    if (worst <= best_.cost)  // none beats the best: take the whole stretch
        return take_stretch();
    // Up to the unit that beats it, which the caller takes; then the rest of the stretch.
    periodic_backoff_ = kPeriodicWait;
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

}  // namespace ratelab::detail
