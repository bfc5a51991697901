#pragma once
// Inside simulate_fleet(): the routing every mode shares, and the run of one mode.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/fleet.h"
#include "ratelab/limiter.h"

namespace ratelab::detail {

/// SplitMix64's finaliser: a well mixed 64-bit value from any 64-bit input, the same on every
/// platform (std::hash and the standard distributions are not).
inline std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// The inputs of every mode, with the routing worked out once.
struct FleetPlan {
    const Trace& trace;
    const Params& params;
    const Lane& lane;
    const FleetSettings& settings;
    std::vector<std::uint16_t> routed;  ///< per request: the balancer's server
    std::vector<std::uint16_t> hashed;  ///< per request: the key's server by key_hash
    std::vector<std::uint16_t> size;    ///< per request: N when it arrives
    RunControl* control = nullptr;      ///< watched every kStretch requests, when given
};

/// Requests decided between two looks at a RunControl.
inline constexpr std::size_t kStretch = 4096;

/// Adds `decided` requests to `control` and throws SimulationCancelled when it says stop.
inline void report_stretch(RunControl* control, std::size_t decided) {
    if (control == nullptr)
        return;
    control->decided.fetch_add(decided, std::memory_order_relaxed);
    if (control->stop.load(std::memory_order_relaxed))
        throw SimulationCancelled();
}

/// What a mode decided, before the figures are counted.
struct ModeDecisions {
    std::vector<std::uint8_t> accepted;
    std::int64_t store_round_trips = 0;
    std::int64_t during_outage = 0;
    std::string why;  ///< for the request asked about
};

/// Decides every request of `plan` in `mode`; with `explain`, also says why request `explain`
/// went as it did (and may stop after it).
ModeDecisions run_fleet_mode(const FleetPlan& plan, FleetMode mode,
                             std::optional<std::size_t> explain);

}  // namespace ratelab::detail
