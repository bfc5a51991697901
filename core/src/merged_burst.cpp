#include "merged_burst.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>

namespace ratelab::detail {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

std::int64_t floor_div(std::int64_t a, std::int64_t d) {
    return a / d - ((a % d != 0) && ((a < 0) != (d < 0)));
}

/// Counts, for an edge x that only moves forward, the units of `segments` before x: N(x).
class EdgeCount {
public:
    EdgeCount(const std::vector<UnitSegment>& segments, const std::vector<std::uint32_t>& by_first,
              const std::vector<std::uint32_t>& by_last, const std::vector<std::int64_t>& residues,
              std::int64_t step)
        : segments_(segments),
          by_first_(by_first),
          by_last_(by_last),
          residues_(residues),
          step_(step),
          below_(residues.size() + 1, 0) {}

    /// Moves the edge to x, which is no earlier than before, and returns N(x).
    std::int64_t count_at(std::int64_t x) {
        while (entered_ < by_first_.size() && segments_[by_first_[entered_]].first < x) {
            const UnitSegment& s = segments_[by_first_[entered_++]];
            // Begun before x: counted from here until it has ended too.
            ++under_;
            quotients_ += floor_div(s.first, step_);
            add_residue(s.first, +1);
        }
        while (left_ < by_last_.size() && segments_[by_last_[left_]].last() < x) {
            const UnitSegment& s = segments_[by_last_[left_++]];
            --under_;
            quotients_ -= floor_div(s.first, step_);
            add_residue(s.first, -1);
            passed_ += s.count;
        }
        // Each segment under x has floor(x/D) - floor(a/D) + [a mod D < x mod D] units before x.
        const std::int64_t x_residue = x - floor_div(x, step_) * step_;
        const auto rank = static_cast<std::size_t>(
            std::lower_bound(residues_.begin(), residues_.end(), x_residue) - residues_.begin());
        const Int128 partial =
            static_cast<Int128>(under_) * floor_div(x, step_) - quotients_ + residues_below(rank);
        return passed_ + static_cast<std::int64_t>(partial);
    }

private:
    // A Fenwick tree over the distinct residues: how many segments under the edge have each.
    void add_residue(std::int64_t first, std::int64_t delta) {
        const std::int64_t residue = first - floor_div(first, step_) * step_;
        auto at = static_cast<std::size_t>(
            std::lower_bound(residues_.begin(), residues_.end(), residue) - residues_.begin());
        for (++at; at < below_.size(); at += at & (~at + 1))
            below_[at] += delta;
    }
    /// Segments under the edge whose residue is among the first `rank` distinct ones.
    std::int64_t residues_below(std::size_t rank) const {
        std::int64_t sum = 0;
        for (std::size_t at = rank; at > 0; at -= at & (~at + 1))
            sum += below_[at];
        return sum;
    }

    const std::vector<UnitSegment>& segments_;
    const std::vector<std::uint32_t>& by_first_;
    const std::vector<std::uint32_t>& by_last_;
    const std::vector<std::int64_t>& residues_;
    std::int64_t step_;
    std::vector<std::int64_t> below_;
    std::size_t entered_ = 0;
    std::size_t left_ = 0;
    std::int64_t passed_ = 0;  // units of the segments that ended before x
    std::int64_t under_ = 0;   // segments begun before x and not ended
    Int128 quotients_ = 0;     // their sum of floor(a / D)
};

}  // namespace

void ManyShaperBurst::note_interval(const UnitSegment& segment) {
    if (step_ == 0) {
        step_ = segment.step;
        scale_ = segment.scale;
        return;
    }
    mixed_ = true;
    if (!units_)
        to_units();
}

void ManyShaperBurst::settle_due() {
    // Spans starting before now - W hold every unit they will ever hold. Scaled times and
    // window * scale stay below 3 * 10^18 within the documented bounds.
    const std::int64_t end = (now_ - window_) * scale_;
    if (end > settled_)
        settle(end);
    settle_at_ = std::max(kFirstSettle, 2 * segments_.size());
}

Burst ManyShaperBurst::result() {
    if (units_)
        return units_->result();
    settle(kNever);
    return best_cost_ == 0 ? Burst{} : Burst{best_cost_, Rational(best_start_, scale_)};
}

void ManyShaperBurst::to_segments() {
    // Every unit before now_ has been taken, so the unit tracker has counted every span that
    // starts before now_ - W in full; the spans from there on are counted from segments.
    const Burst& best = units_->best();
    best_cost_ = best.cost;
    best_start_ = best.cost == 0 ? 0 : best.start.num() * (scale_ / best.start.den());
    settled_ = std::max<std::int64_t>(0, (now_ - window_) * scale_);
    segments_ = units_->held_from(settled_, step_);
    units_.reset();
    settle_at_ = std::max(kFirstSettle, 2 * segments_.size());
}

void ManyShaperBurst::to_units() {
    // Settle what can be settled, then hand the rest over unit by unit: the unit tracker counts
    // the spans ending at each unit it takes, and those that start at or after settled_ hold
    // only units it is given. Spans it sees that start earlier miss units, so they count no
    // more than the settled spans they overlap and never replace the best.
    const std::int64_t end = (now_ - window_) * scale_;
    if (end > settled_)
        settle(end);
    const Burst best = best_cost_ == 0 ? Burst{} : Burst{best_cost_, Rational(best_start_, scale_)};
    units_.emplace(window_, now_, best);
    for (UnitSegment s : segments_) {
        if (s.first < settled_) {
            const std::int64_t skip = (settled_ - s.first + s.step - 1) / s.step;
            s.first += skip * s.step;
            s.count -= skip;
        }
        if (s.count > 0)
            units_->adopt(s);
    }
    units_->advance_to(now_);
    segments_.clear();
    segments_.shrink_to_fit();
}

void ManyShaperBurst::settle(std::int64_t end) {
    if (segments_.empty()) {
        settled_ = end;
        return;
    }
    const std::int64_t d = step_;
    const std::int64_t w = window_ * scale_;
    const auto n = static_cast<std::uint32_t>(segments_.size());
    std::vector<std::uint32_t> by_first(n);
    std::iota(by_first.begin(), by_first.end(), 0u);
    std::vector<std::uint32_t> by_last = by_first;
    std::sort(by_first.begin(), by_first.end(), [&](std::uint32_t a, std::uint32_t b) {
        return segments_[a].first < segments_[b].first;
    });
    std::sort(by_last.begin(), by_last.end(), [&](std::uint32_t a, std::uint32_t b) {
        return segments_[a].last() < segments_[b].last();
    });
    std::vector<std::int64_t> residues;
    // Where the segments under either edge change: an edge crossing a first or a last unit.
    std::vector<std::int64_t> events;
    residues.reserve(n);
    events.reserve(4 * static_cast<std::size_t>(n));
    for (const UnitSegment& s : segments_) {
        residues.push_back(s.first - floor_div(s.first, d) * d);
        for (const std::int64_t at : {s.first, s.last()}) {
            events.push_back(at);
            events.push_back(at - w);
        }
    }
    std::sort(residues.begin(), residues.end());
    residues.erase(std::unique(residues.begin(), residues.end()), residues.end());
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());

    EdgeCount left(segments_, by_first, by_last, residues, d);
    EdgeCount right(segments_, by_first, by_last, residues, d);
    // Candidate starts, earliest first: a unit of each segment, as (time, segment).
    using Candidate = std::pair<std::int64_t, std::uint32_t>;
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> next;
    for (std::uint32_t i = 0; i < n; ++i) {
        const UnitSegment& s = segments_[i];
        std::int64_t at = s.first;
        if (at < settled_)
            at += (settled_ - at + d - 1) / d * d;
        if (at <= s.last() && at < end)
            next.emplace(at, i);
    }
    while (!next.empty()) {
        const auto [u, i] = next.top();
        next.pop();
        const std::int64_t held = right.count_at(u + w) - left.count_at(u);
        if (held > best_cost_) {
            best_cost_ = held;
            best_start_ = u;
        }
        const UnitSegment& s = segments_[i];
        std::int64_t after = u + d;
        if (after > s.last() || after >= end)
            continue;
        const auto event = std::lower_bound(events.begin(), events.end(), u);
        if (event == events.end() || *event != u) {
            // u lies strictly between two events, and so do this segment's units up to the
            // next one: f changes by the same step from each to the next, so the last of them
            // is the only one that can beat u (a tie keeps the earlier start).
            const std::int64_t limit = std::min(event == events.end() ? kNever : *event, end);
            const std::int64_t last_before = std::min(s.last(), u + (limit - 1 - u) / d * d);
            after = std::max(after, last_before);
        }
        next.emplace(after, i);
    }
    settled_ = end;
    std::erase_if(segments_, [end](const UnitSegment& s) { return s.last() < end; });
}

}  // namespace ratelab::detail
