#pragma once
// A fleet: N servers behind a balancer enforcing one lane together, in one of five placements
// of its state (a shared store, a racy store, local shares, local counts synced now and then,
// keys routed to one server each), with store outages and scale events. Built on Limiter
// (limiter.h): every server decides with the lane's own algorithm, exactly.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"
#include "ratelab/simulation.h"

namespace ratelab {

/// Where a fleet keeps the limiter's state.
enum class FleetMode : std::uint8_t {
    /// One shared store, each check atomic: the fleet decides as one limiter over the trace,
    /// and every decision waits a store round trip.
    central,
    /// Check, then act, without atomicity: request i is decided on the store holding the
    /// charges of the accepted requests j < i with tick_j + store_latency <= tick_i.
    central_racy,
    /// Each server enforces its share alone (local_share_params()).
    local_share,
    /// Each server counts locally and syncs every sync_every ticks: it decides on the charges
    /// accepted anywhere before the last sync point, plus its own since.
    periodic_sync,
    /// Each key's requests go to one server (key_hash), which holds the full limit.
    key_routed,
};

enum class Balancer : std::uint8_t {
    round_robin,  ///< request i to server i mod N (a rotation that goes on over a new N)
    random,       ///< a seeded uniform draw, reproducible on every platform
    key_hash,     ///< consistent hashing with virtual nodes (HashRing)
};

/// What the fleet does with requests while the store is down.
enum class OutagePolicy : std::uint8_t {
    fail_open,       ///< accept everything
    fail_closed,     ///< reject everything
    fallback_local,  ///< each server enforces its local share, starting fresh
};

/// The store is down for ticks [start, end).
struct Outage {
    Tick start = 0;
    Tick end = 0;
    OutagePolicy policy = OutagePolicy::fail_open;
    friend bool operator==(const Outage&, const Outage&) = default;
};

/// From `tick` on, the fleet has `servers` servers.
struct ScaleEvent {
    Tick tick = 0;
    int servers = 1;
    friend bool operator==(const ScaleEvent&, const ScaleEvent&) = default;
};

inline constexpr int kMaxFleetServers = 1000;

/// Everything a fleet run takes besides the trace, the parameters and the lane.
struct FleetSettings {
    int servers = 1;  ///< N at tick 0, 1 to kMaxFleetServers
    Balancer balancer = Balancer::round_robin;
    /// In the order to report them; empty means all five in declaration order.
    std::vector<FleetMode> modes;
    Tick store_latency = 0;  ///< ticks of one store round trip
    Tick sync_every = 1;     ///< periodic_sync: sync points at S, 2S, ...
    std::optional<Outage> outage;
    std::vector<ScaleEvent> scale;  ///< in increasing tick order
    std::uint64_t seed = 0;         ///< Balancer::random
    /// central_racy: a server's write replaces the key's state in the store with what it read
    /// plus its own charge (last writer wins), instead of adding its charge to what is there.
    bool lost_updates = false;
    friend bool operator==(const FleetSettings&, const FleetSettings&) = default;
};

std::string_view mode_name(FleetMode mode);
std::string_view balancer_name(Balancer balancer);
std::string_view outage_policy_name(OutagePolicy policy);
std::optional<FleetMode> parse_fleet_mode(std::string_view name);
std::optional<Balancer> parse_balancer(std::string_view name);
std::optional<OutagePolicy> parse_outage_policy(std::string_view name);
/// The five modes, in declaration order.
std::vector<FleetMode> all_fleet_modes();

/// Problems with `settings` (bounds, order of scale events, an empty outage, a repeated
/// mode), one sentence each naming the setting; empty if valid.
std::vector<std::string> validate(const FleetSettings& settings);

/// Consistent hashing: each server owns 64 points of a 64-bit ring, a key goes to the owner
/// of the first point at or after its hash. Growing from N to M servers only adds points, so
/// about (M - N) / M of the keys move, all of them to the new servers.
class HashRing {
public:
    explicit HashRing(int servers);
    int server_of(std::string_view key) const;
    int servers() const { return servers_; }

private:
    int servers_;
    std::vector<std::pair<std::uint64_t, int>> points_;
};

/// The parameters one server of `servers` enforces alone for `lane`: in the base limits and
/// every tier, L and each whole-number size the algorithm declares (tokens, cost units) are
/// divided by N and rounded down (at least 1); rates (per tick, per second) are divided by N
/// and intervals (ticks per unit) multiplied by N, exactly; durations, flags and choices stay.
/// The lane's own values are folded in, so run it with a lane of no values. Throws
/// SimulationError when a divided value falls outside its declared bounds.
Params local_share_params(const Params& params, const Lane& lane, int servers);

/// One key's worst W-tick burst of what a whole fleet accepted, against the key's limit.
struct KeyBurst {
    KeyId key = 0;
    Burst burst;
    std::int64_t limit = 1;  ///< the key's L
    /// burst.cost / limit: above 1 the fleet let through more than one limiter would allow.
    Rational overshoot() const { return Rational(burst.cost, limit); }
    friend bool operator==(const KeyBurst&, const KeyBurst&) = default;
};

/// What one server received and accepted in one mode.
struct ServerLoad {
    std::int64_t requests = 0;
    std::int64_t accepted = 0;
    std::int64_t accepted_cost = 0;
    friend bool operator==(const ServerLoad&, const ServerLoad&) = default;
};

/// One placement mode's run over the trace. Everything a view draws: each decision with its
/// server, and the settings (sync points, the outage, charges landing store_latency after
/// their request) are in FleetResult::settings.
struct FleetModeResult {
    FleetMode mode = FleetMode::central;
    std::vector<std::uint16_t> servers;  ///< per request: the server that decided it
    std::vector<std::uint8_t> accepted;  ///< per request: 1 when accepted
    Totals totals;                       ///< counts and costs (max_delay stays 0)
    std::vector<KeyBurst> keys;          ///< per key with requests, in key id order
    KeyBurst worst;                      ///< the key with the largest overshoot (first on ties)
    std::int64_t extra_accepted = 0;     ///< accepted here, rejected by the single limiter
    std::int64_t extra_rejected = 0;     ///< rejected here, accepted by the single limiter
    std::vector<ServerLoad> load;        ///< per server index that ever existed
    /// Ticks the store adds to each decision that waits for it (0 in the local modes), and
    /// the decisions that waited (an outage's are answered without the store).
    Tick store_wait = 0;
    std::int64_t store_round_trips = 0;
    /// Requests decided while the store was down.
    std::int64_t during_outage = 0;

    bool is_accepted(std::size_t index) const { return accepted[index] != 0; }
    friend bool operator==(const FleetModeResult&, const FleetModeResult&) = default;
};

struct FleetResult {
    std::shared_ptr<const Trace> trace;
    Params params;
    Lane lane;
    FleetSettings settings;  ///< modes filled in
    /// The single limiter over the whole trace (what simulate() decides): 1 when accepted.
    std::vector<std::uint8_t> ideal;
    /// The single limiter's acceptances and worst burst, to set each mode's against.
    std::int64_t ideal_accepted = 0;
    KeyBurst ideal_worst;
    std::vector<FleetModeResult> modes;  ///< in settings.modes order
};

/// Runs every mode of `settings` over `trace` for `lane`. Throws SimulationError for invalid
/// input, and for a mode the lane's algorithm cannot run (central_racy and periodic_sync merge
/// charges decided elsewhere, which library presets cannot; nor do they merge counted
/// rejections, so they need rejections_count off). With `control`, the run adds the requests
/// it decides to control->decided and throws SimulationCancelled soon after control->stop is
/// set (within a few thousand requests), as simulate() does.
std::shared_ptr<const FleetResult> simulate_fleet(std::shared_ptr<const Trace> trace,
                                                  const Params& params, const Lane& lane,
                                                  const FleetSettings& settings,
                                                  RunControl* control = nullptr);

/// How many servers the fleet has at `tick`: settings.servers, and from each scale event's tick
/// on, its count.
int fleet_size_at(const FleetSettings& settings, Tick tick);

/// The periodic_sync points in [from, to]: the multiples S, 2S, ... of sync_every (tick 0 is
/// not one: every server starts from the same empty store).
std::vector<Tick> fleet_sync_points(const FleetSettings& settings, Tick from, Tick to);

/// How many requests each server of mode `mode` (an index into result.modes) received in each
/// span of `bucket` ticks from tick `from` to `end` inclusive (span k is [from + k * bucket,
/// from + (k + 1) * bucket)): `servers` rows of `buckets` counts, row by row, for a heat strip.
/// `servers` is result.modes[mode].load.size().
struct FleetHeat {
    std::size_t servers = 0;
    std::size_t buckets = 0;
    std::vector<std::int64_t> counts;  ///< counts[server * buckets + bucket]
    std::int64_t peak = 0;             ///< the largest count, 0 for an empty trace
    std::int64_t at(std::size_t server, std::size_t span) const {
        return counts[server * buckets + span];
    }
    friend bool operator==(const FleetHeat&, const FleetHeat&) = default;
};
FleetHeat fleet_heat(const FleetResult& result, std::size_t mode, Tick bucket, Tick end,
                     Tick from = 0);

/// The cost the whole fleet accepted in mode `mode` in the W ticks (tick - W, tick] up to each
/// request's tick, W the lane's window, counting every key: what the fleet-wide load chart sets
/// against L. One value per request, in trace order.
std::vector<std::int64_t> fleet_window_load(const FleetResult& result, std::size_t mode);

/// periodic_sync run with one sync interval: its worst key's overshoot and what it accepted.
struct SyncOvershoot {
    Tick sync_every = 1;
    Rational overshoot;
    std::int64_t accepted = 0;
    friend bool operator==(const SyncOvershoot&, const SyncOvershoot&) = default;
};

/// periodic_sync over `trace` once for each interval of `sync_every` (each >= 1), the other
/// settings as given: how the overshoot grows as the servers sync less often. Throws, and
/// watches `control`, as simulate_fleet() does.
std::vector<SyncOvershoot> periodic_sync_overshoots(std::shared_ptr<const Trace> trace,
                                                    const Params& params, const Lane& lane,
                                                    FleetSettings settings,
                                                    const std::vector<Tick>& sync_every,
                                                    RunControl* control = nullptr);

/// Why mode `mode` (an index into result.modes) decided request `index` as it did, from what
/// its server saw: "server 2, store as of the sync at 20 and 1 local since: count 4 + 1 > 4".
/// Replays the mode up to the request.
std::string explain_fleet(const FleetResult& result, std::size_t mode, std::size_t index);

}  // namespace ratelab
