#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "burst.h"

namespace ratelab::detail {

/// Worst W-tick burst over the units that several shapers (one per key) let through.
///
/// Counted unit by unit (MergedUnitBurst) while requests cost few units, which is fastest for
/// many keys with short queues; once the units far outnumber the requests (a few costly
/// requests), it moves to counting from segments, in time and memory that grow with the
/// requests rather than their cost units:
///
/// A candidate span [u, u + W) starts at a unit u, and holds f(u) = N(u + W) - N(u) units, where
/// N(x) counts the units before x. While every shaper drains at one interval D, N is cheap to
/// count: a segment that has begun but not ended at x contributes floor(x / D) - floor(a / D) +
/// [a mod D < x mod D] units (a its first unit), so the segments under x are summed from their
/// number, the sum of floor(a / D) and how many residues lie below x mod D. Between two
/// "events" (x or x + W crossing a segment's first or last unit) the segments under both edges
/// stay the same, so moving u one unit along its segment changes f by the same amount each
/// time: among a segment's units between two events only the first and the last can be worst,
/// and the ones between are skipped. A segment is looked at a few times per event it lives
/// through, and a unit no more than once.
///
/// A span's count is final once every unit before u + W is known, that is once requests
/// arrive at u + W or later (a request's units never start before it arrives): segments are
/// kept until then, and settled in batches as they double. When keys drain at different
/// intervals (tiers with their own L or W), the count is no longer linear in that way, and it
/// counts unit by unit throughout (MergedUnitBurst): in memory that grows with the requests, as
/// it holds a run of units per request, and in time that grows with the units only where the
/// window stays near its worst.
class ManyShaperBurst {
public:
    /// When it moves from units to segments: once the units added exceed `units` plus
    /// `units_per_segment` for each segment added.
    struct Switch {
        std::int64_t units = 1 << 16;
        std::int64_t units_per_segment = 16;
    };
    explicit ManyShaperBurst(Tick window) : ManyShaperBurst(window, Switch{}) {}
    ManyShaperBurst(Tick window, Switch when)
        : window_(window), switch_(when), budget_(when.units), units_(window) {}
    /// Takes the units of a request arriving at the tick last advanced to.
    void add(const UnitSegment& segment) {
        budget_ += switch_.units_per_segment - segment.count;
        if (segment.step != step_ || segment.scale != scale_) [[unlikely]]
            note_interval(segment);
        if (units_) [[likely]] {
            units_->add(segment);
            if (budget_ < 0 && !mixed_) [[unlikely]]
                to_segments();
            return;
        }
        segments_.push_back(segment);
    }
    /// Every request still to come arrives at `tick` or later.
    void advance_to(Tick tick) {
        now_ = tick;
        if (units_) [[likely]]
            units_->advance_to(tick);
        else if (segments_.size() >= settle_at_)
            settle_due();
    }
    Burst result();
    /// Entries held: what a copy costs.
    std::size_t held() const { return units_ ? units_->held() : segments_.size(); }
    /// Whether it counts from segments now.
    bool counts_segments() const { return !units_; }

private:
    /// Looks at every span starting before `end` (scaled) and at or after settled_, which
    /// becomes `end`; then forgets the segments no later span can reach.
    void settle(std::int64_t end);
    /// Settles what the tick advanced to allows, as the segments held have doubled.
    void settle_due();
    /// The first segment's drain interval, or another one: then units only, from here on.
    [[gnu::cold]] void note_interval(const UnitSegment& segment);
    [[gnu::cold]] void to_segments();
    [[gnu::cold]] void to_units();

    Tick window_;
    Switch switch_;
    Tick now_ = 0;
    std::int64_t step_ = 0;   // D over scale_, shared by every segment so far (0: none yet)
    std::int64_t scale_ = 1;  // of every segment so far
    bool mixed_ = false;      // segments with other D came: units only
    // Switch's units plus units_per_segment per segment, less the units added: below 0, move.
    std::int64_t budget_;
    // Counting from segments:
    std::vector<UnitSegment> segments_;  // those with a unit at or after settled_
    std::int64_t settled_ = 0;           // spans starting before it are settled (scaled)
    std::size_t settle_at_ = kFirstSettle;
    std::int64_t best_cost_ = 0;
    std::int64_t best_start_ = 0;  // scaled
    // Counting unit by unit, when engaged:
    std::optional<MergedUnitBurst> units_;

    static constexpr std::size_t kFirstSettle = 64;
};

}  // namespace ratelab::detail
