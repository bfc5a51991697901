#pragma once
// Idle keys: a limiter that drops the state of keys it has not seen for a while, or of all but
// its most recently used keys, against one that keeps every key. What the state table holds
// over time, and which decisions forgetting changes.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"

namespace ratelab {

struct SimulationResult;

/// How a limiter chooses the keys whose state it drops. A dropped key's next request meets a
/// fresh state, as a key never seen does.
struct Eviction {
    enum class Kind : std::uint8_t {
        keep_all,  ///< every key is kept: what simulate() does
        idle,      ///< a key is dropped `idle_ticks` after its last request
        lru,       ///< at most `max_keys` are kept; a new key drops the least recently used
    };
    Kind kind = Kind::keep_all;
    Tick idle_ticks = 0;
    std::int64_t max_keys = 0;

    friend bool operator==(const Eviction&, const Eviction&) = default;
};

/// Parses "keep", "idle=T" (T >= 1 ticks) or "lru=M" (M >= 1 keys): the eviction, or a one-line
/// message naming what is wrong.
std::variant<Eviction, std::string> parse_eviction(std::string_view text);
/// The eviction as parse_eviction() reads it: "keep", "idle=50", "lru=1000".
std::string to_string(const Eviction& eviction);

/// One key dropped: before request `before` is decided (the trace's size: after the last), at
/// tick `at`.
struct EvictionEvent {
    std::size_t before = 0;
    KeyId key = 0;
    Tick at = 0;
    friend bool operator==(const EvictionEvent&, const EvictionEvent&) = default;
};

/// The keys held over time, the same for every lane: every request, accepted or not, makes its
/// key recently used.
struct EvictionSchedule {
    std::vector<EvictionEvent> events;  ///< in the order they happen
    /// (tick, keys held from that tick on), at every change, in tick order; one entry per tick.
    std::vector<std::pair<Tick, std::int64_t>> held;
    std::int64_t peak_held = 0;
};

/// What eviction did to one lane.
struct EvictionLane {
    std::string label;
    std::int64_t evictions = 0;
    /// Evictions of a state not yet back to what a fresh key's is: a request arriving at that
    /// tick would have been decided otherwise by the dropped state than by a fresh one (at cost
    /// 1, or at the largest cost either lets through). The key's next request may then pass
    /// where, kept, it would not.
    std::int64_t early_evictions = 0;
    /// The first early eviction: its key and tick.
    std::optional<std::pair<std::string, Tick>> first_early;
    /// Requests decided otherwise than when every key is kept: their indexes, in order.
    std::vector<std::size_t> changed;
    std::int64_t extra_accepted = 0;  ///< accepted with eviction, rejected when kept
    std::int64_t extra_rejected = 0;  ///< rejected with eviction, accepted when kept
    /// Among `changed`, acceptances or rejections with another delay or retry time.
    std::int64_t other_changes = 0;
};

struct EvictionResult {
    Eviction eviction;
    EvictionSchedule schedule;
    std::vector<EvictionLane> lanes;  ///< one per lane of the simulation
};

/// The keys `eviction` drops over `trace`, and when.
EvictionSchedule eviction_schedule(const Trace& trace, const Eviction& eviction);

/// Lane `lane` of `kept` (a simulate() result with its decisions) decided again one request at
/// a time with keys dropped as `schedule` says (eviction_schedule() of its trace), and compared
/// with `kept`. Throws SimulationError when the lane kept no decisions.
EvictionLane evict_lane(const SimulationResult& kept, std::size_t lane,
                        const EvictionSchedule& schedule);

/// evict_lane() for every lane, with the schedule of `eviction`.
EvictionResult simulate_eviction(const SimulationResult& kept, const Eviction& eviction);

}  // namespace ratelab
