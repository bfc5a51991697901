#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ratelab/parameters.h"
#include "ratelab/rational.h"
#include "ratelab/request_column.h"

namespace ratelab {

/// A short text pinned to a tick of a trace ("the window turns over here"): shown on the
/// timeline and in exports for a lecture or a lesson. The simulation never reads it.
struct TraceNote {
    Tick tick = 0;
    std::string text;  ///< 1 to bounds::kMaxNoteBytes bytes of UTF-8

    friend bool operator==(const TraceNote&, const TraceNote&) = default;
};

/// A request trace in compact form: requests refer to keys by index into a key table.
/// Requests are in non-decreasing tick order.
struct Trace {
    std::vector<std::string> keys{std::string()};  ///< keys[0] is always "" (the default key)
    /// In chunks that copies share: copying a trace, or editing it into a new one, copies
    /// little more than what changed.
    RequestColumn requests;
    /// How long each request holds what it takes, in ticks (the concurrency lane's in-flight
    /// time), or 0 where the request leaves it to the lane's `duration`. Empty when no request
    /// sets one, which is what almost every trace does; otherwise one entry per request.
    std::vector<Tick> durations;

    const std::string& key_name(KeyId id) const { return keys[id]; }
    /// The duration request `index` sets, or 0 when it sets none.
    Tick duration(std::size_t index) const { return durations.empty() ? 0 : durations[index]; }
    /// Sets the duration of request `index` (0: none), giving the trace the column if it needs it.
    void set_duration(std::size_t index, Tick duration);
    /// Adds request `request` with its `duration` (0: none) at the end.
    void append(const Request& request, Tick duration = 0);
    /// Adds request `index` of `from` at the end, its duration with it, as key `key`.
    void append_from(const Trace& from, std::size_t index, KeyId key);
    /// Adds requests [begin, end) of `from` at the end as they are, with their durations.
    void append_range(const Trace& from, std::size_t begin, std::size_t end);
    /// Adds request `index` of `from` at the end as it is, its duration with it.
    void append_from(const Trace& from, std::size_t index) {
        append(from.requests[index], from.duration(index));
    }
    /// The id of `key`, or nothing if no request uses it. Linear in the number of keys.
    std::optional<KeyId> find_key(std::string_view key) const;
    /// True if requests are in non-decreasing tick order and every key id is valid.
    bool is_well_formed() const;

    /// The same keys and requests, each request with the same duration (no column and one of
    /// zeros alike).
    friend bool operator==(const Trace& a, const Trace& b);
};

/// Builds a Trace, interning key strings in constant time per request.
class TraceBuilder {
public:
    TraceBuilder();
    KeyId intern(std::string_view key);
    /// Adds a request; `duration` as in Trace::durations (0: none).
    void add(Tick tick, std::uint32_t cost = 1, std::string_view key = {}, Tick duration = 0);
    void reserve(std::size_t requests) { trace_.requests.reserve(requests); }
    std::size_t size() const { return trace_.requests.size(); }
    Trace take() &&;

private:
    Trace trace_;
    std::unordered_map<std::string, KeyId> ids_;
};

/// The limit that applies to one key: L per W ticks, with optional overrides.
struct Limits {
    std::int64_t limit = 4;  ///< L >= 1
    Tick window = 10;        ///< W >= 1 ticks
    /// Values that replace the defaults each algorithm declares (derived from L and W), by
    /// algorithm id and parameter id: {"token_bucket": {"capacity": 8}}.
    AlgorithmParams overrides;
    /// How long one tick is, in milliseconds: library presets convert their parameters, in the
    /// library's own units, with it. Set from the trace file's tick_ms by set_tick_ms().
    std::int64_t tick_ms = 1000;

    /// What the declared defaults are computed from.
    ParamContext context() const { return ParamContext{limit, window, tick_ms}; }
    /// Sets one override: `value` for `parameter` of `algorithm`.
    void set_override(const std::string& algorithm, const std::string& parameter,
                      ParamValue value) {
        overrides[algorithm][parameter] = std::move(value);
    }
    /// The override of `parameter` of `algorithm`, or nothing.
    std::optional<ParamValue> override_of(std::string_view algorithm,
                                          std::string_view parameter) const;

    friend bool operator==(const Limits&, const Limits&) = default;
};

/// One lane of a comparison: an algorithm, the parameter values it sets itself, and a label.
/// A value the lane sets applies to every key; the parameters it leaves alone take the key's
/// tier override, else the trace's, else the algorithm's declared default.
struct Lane {
    std::string algorithm;  ///< a registered algorithm id
    ParamValues params;
    std::string label;  ///< empty: the algorithm's display name
    bool hidden = false;

    friend bool operator==(const Lane&, const Lane&) = default;
};

/// Everything that parameterises a simulation besides the trace.
struct Params {
    Limits base;
    /// Counted against the allowance even when rejected (window algorithms only).
    bool rejections_count = false;
    /// Keys with their own tier; every other key uses `base`.
    std::map<std::string, Limits, std::less<>> keys;
    /// The lanes to compare, in order; empty means one lane per registered algorithm at its
    /// defaults (default_lanes()).
    std::vector<Lane> lanes;

    const Limits& for_key(std::string_view key) const;
    friend bool operator==(const Params&, const Params&) = default;
};

/// Sets how long one tick is (Limits::tick_ms) for the trace and every tier: the trace file's
/// tick_ms, before simulating.
void set_tick_ms(Params& params, std::int64_t tick_ms);

/// One lane per registered algorithm of RateLab's own (Registry::all(), library presets left
/// out), in display order, with no values of its own.
std::vector<Lane> default_lanes();
/// `params.lanes`, or default_lanes() when it is empty.
std::vector<Lane> lanes_of(const Params& params);
/// The parameters one lane runs with: `params` with the lane's own values written into the
/// overrides of the trace and of every tier, and only that lane.
Params params_for_lane(const Params& params, const Lane& lane);
/// `params` with its hidden lanes left out: what a view shows. Unchanged when none is hidden,
/// and when all are (a view with no lane would show nothing).
Params without_hidden_lanes(const Params& params);
/// What a lane is called: its label, else the algorithm's display name followed by the values
/// the lane sets, as "Token bucket (capacity 8)".
std::string lane_label(const Lane& lane);

/// Problems with `params` (bounds, L or W < 1, unknown algorithms or parameters, values of the
/// wrong kind or out of their declared bounds), one message each; empty if valid.
std::vector<std::string> validate(const Params& params);
/// Problems with `trace` (order, bounds, key ids); empty if valid.
std::vector<std::string> validate(const Trace& trace);
/// The same for requests [begin, end) of `trace` only (and the order of the one after them), as
/// after an edit that changed only those: the rest are taken to be valid already.
std::vector<std::string> validate(const Trace& trace, std::size_t begin, std::size_t end);

}  // namespace ratelab
