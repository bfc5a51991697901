#include "series_lines.h"

#include <algorithm>

namespace ratelab::detail {
namespace {

/// Appends "from `tick` on, the value is `value`", dropping changes that change nothing.
void set_value(StepSeries& series, Tick tick, std::int64_t value) {
    if (!series.ticks.empty() && series.ticks.back() == tick) {
        series.values.back() = value;
        const std::size_t size = series.values.size();
        const std::int64_t before = size > 1 ? series.values[size - 2] : 0;
        if (value == before) {
            series.ticks.pop_back();
            series.values.pop_back();
        }
        return;
    }
    const std::int64_t current = series.values.empty() ? 0 : series.values.back();
    if (value != current) {
        series.ticks.push_back(tick);
        series.values.push_back(value);
    }
}

Int128 floor_div(Int128 num, Int128 den) {
    const Int128 q = num / den;
    return (num % den != 0 && ((num < 0) != (den < 0))) ? q - 1 : q;
}

Int128 ceil_div(Int128 num, Int128 den) {
    return -floor_div(-num, den);
}

Int128 gcd128(Int128 a, Int128 b) {
    while (b != 0)
        a = std::exchange(b, a % b);
    return a < 0 ? -a : a;
}

}  // namespace

/// Adds amounts at ticks, in non-decreasing tick order, into a running total.
void add_to_total(StepSeries& total, Tick tick, std::int64_t amount) {
    if (amount != 0)
        set_value(total, tick, (total.values.empty() ? 0 : total.values.back()) + amount);
}

/// a(t) - b(t - shift) at each tick t: with b = a and shift = W, the total of the trailing
/// window (t - W, t]; with shift = 0, what has arrived and not yet left.
StepSeries difference(const StepSeries& a, const StepSeries& b, Tick shift) {
    StepSeries out;
    out.ticks.reserve(a.ticks.size() + b.ticks.size());
    out.values.reserve(a.ticks.size() + b.ticks.size());
    std::int64_t a_value = 0;
    std::int64_t b_value = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.ticks.size() || j < b.ticks.size()) {
        Tick tick = i < a.ticks.size() ? a.ticks[i] : b.ticks[j] + shift;
        if (j < b.ticks.size())
            tick = std::min(tick, b.ticks[j] + shift);
        if (i < a.ticks.size() && a.ticks[i] == tick)
            a_value = a.values[i++];
        if (j < b.ticks.size() && b.ticks[j] + shift == tick)
            b_value = b.values[j++];
        set_value(out, tick, a_value - b_value);
    }
    return out;
}

/// Adds, for one accepted request of a shaper, how many of its cost units leave at each tick.
/// Its units start at release - k * drain for k = cost-1 .. 0, and a unit starting at time s
/// counts at tick ceil(s), the first tick at or after it. Work is O(cost) either way: one step per
/// unit when units are at least a tick apart, else one step per tick they span.
///
/// A request that would take more than kMaxReleaseSteps steps takes that many instead: its units
/// are cut into runs of consecutive units, and each run counts at the tick its last unit leaves.
/// A release of 10^6 units across 10^12 ticks then costs 4,096 steps rather than 10^6, and a
/// chart of it is drawn the same to well past the width of a screen; the totals shown are never
/// ahead of the units that have left.
void add_unit_releases(std::vector<std::pair<Tick, std::int64_t>>& out, const Rational& release,
                       std::int64_t cost, const Rational& drain) {
    if (cost == 1) {
        out.emplace_back(release.ceil(), 1);
        return;
    }
    // Exact times over one common denominator.
    const Int128 den =
        static_cast<Int128>(release.den()) * drain.den() / gcd128(release.den(), drain.den());
    const Int128 last = static_cast<Int128>(release.num()) * (den / release.den());
    const Int128 step = static_cast<Int128>(drain.num()) * (den / drain.den());
    const Int128 first = last - static_cast<Int128>(cost - 1) * step;
    const Int128 ticks_spanned = ceil_div(last, den) - ceil_div(first, den) + 1;
    if (std::min<Int128>(cost, ticks_spanned) > kMaxReleaseSteps) {
        const std::int64_t per_run = (cost + kMaxReleaseSteps - 1) / kMaxReleaseSteps;
        for (std::int64_t done = 0; done < cost;) {
            const std::int64_t run = std::min(per_run, cost - done);
            done += run;
            out.emplace_back(static_cast<Tick>(ceil_div(first + (done - 1) * step, den)), run);
        }
        return;
    }
    if (step >= den) {
        for (Int128 s = first; s <= last; s += step)
            out.emplace_back(static_cast<Tick>(ceil_div(s, den)), 1);
        return;
    }
    const auto departed_by = [&](Int128 tick) -> Int128 {
        const Int128 k = floor_div(tick * den - first, step) + 1;
        return std::clamp<Int128>(k, 0, cost);
    };
    const Int128 end = ceil_div(last, den);
    for (Int128 tick = ceil_div(first, den); tick <= end; ++tick) {
        const Int128 units = departed_by(tick) - departed_by(tick - 1);
        if (units > 0)
            out.emplace_back(static_cast<Tick>(tick), static_cast<std::int64_t>(units));
    }
}

StepSeries released_total(std::vector<std::pair<Tick, std::int64_t>> events) {
    const auto by_tick = [](const auto& x, const auto& y) { return x.first < y.first; };
    if (!std::is_sorted(events.begin(), events.end(), by_tick))
        std::stable_sort(events.begin(), events.end(), by_tick);
    StepSeries out;
    out.ticks.reserve(events.size());
    out.values.reserve(events.size());
    for (const auto& [tick, amount] : events)
        add_to_total(out, tick, amount);
    return out;
}

/// A level that refills at `slope` per tick up to `capacity` and drops by the cost of each
/// accepted request of `key`. This is a token bucket; GCRA's allowance follows the same law
/// with capacity B and slope 1/T, which is why the two lines coincide under equal settings.
/// The level is kept exactly, in units of 1/slope.den(), so that a tick adds slope.num() units.
LevelSeries bucket_level(const Trace& trace, const AlgorithmRun& run, KeyId key,
                         std::int64_t capacity, const Rational& slope, Tick from,
                         const RunControl* control) {
    const Int128 per_tick = slope.num();
    const Int128 unit = slope.den();
    const Int128 full = capacity * unit;
    const auto to_y = [unit](Int128 level) {
        return static_cast<double>(level) / static_cast<double>(unit);
    };
    LevelSeries out;
    const auto push = [&out](double x, double y) {
        const PlotPoint point{x, y};
        if (out.vertices.empty() || !(out.vertices.back() == point))
            out.vertices.push_back(point);
    };
    Int128 level = full;
    Tick last = from;
    push(static_cast<double>(from), static_cast<double>(capacity));
    // When the level is refilled to full again after `last`.
    const auto full_at = [&]() {
        return static_cast<double>(last) +
               static_cast<double>(full - level) / static_cast<double>(per_tick);
    };
    const RequestColumn& requests = trace.requests;
    for (std::size_t i = 0; i < requests.size();) {
        const Tick tick = requests[i].tick;
        std::int64_t spent = 0;
        for (; i < requests.size() && requests[i].tick == tick; ++i) {
            stop_if_asked(control, i);
            if (requests[i].key == key && run.accepted(i))
                spent += requests[i].cost;
        }
        if (spent == 0)
            continue;
        if (level < full) {
            const Int128 refilled = level + static_cast<Int128>(tick - last) * per_tick;
            if (refilled >= full)
                push(full_at(), static_cast<double>(capacity));
            level = std::min(refilled, full);
        }
        push(static_cast<double>(tick), to_y(level));
        level -= spent * unit;
        push(static_cast<double>(tick), to_y(level));
        last = tick;
    }
    if (level < full)
        push(full_at(), static_cast<double>(capacity));
    return out;
}

}  // namespace ratelab::detail
