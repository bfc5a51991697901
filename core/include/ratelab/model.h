#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ratelab/rational.h"

namespace ratelab {

/// Simulated time: a whole number of ticks, >= 0.
using Tick = std::int64_t;
/// Index into Trace::keys.
using KeyId = std::uint32_t;

/// One request of a trace. Requests on the same tick are processed in trace order.
struct Request {
    Tick tick = 0;
    std::uint32_t cost = 1;  ///< >= 1
    KeyId key = 0;           ///< Trace::keys[key] is the caller's key; 0 is the default key ""

    friend bool operator==(const Request&, const Request&) = default;
};

/// A request trace in compact form: requests refer to keys by index into a key table.
/// Requests are in non-decreasing tick order.
struct Trace {
    std::vector<std::string> keys{std::string()};  ///< keys[0] is always "" (the default key)
    std::vector<Request> requests;

    const std::string& key_name(KeyId id) const { return keys[id]; }
    /// The id of `key`, or nothing if no request uses it. Linear in the number of keys.
    std::optional<KeyId> find_key(std::string_view key) const;
    /// True if requests are in non-decreasing tick order and every key id is valid.
    bool is_well_formed() const;

    friend bool operator==(const Trace&, const Trace&) = default;
};

/// Builds a Trace, interning key strings in constant time per request.
class TraceBuilder {
public:
    TraceBuilder();
    KeyId intern(std::string_view key);
    void add(Tick tick, std::uint32_t cost = 1, std::string_view key = {});
    void reserve(std::size_t requests) { trace_.requests.reserve(requests); }
    std::size_t size() const { return trace_.requests.size(); }
    Trace take() &&;

private:
    Trace trace_;
    std::unordered_map<std::string, KeyId> ids_;
};

/// Optional per-algorithm overrides of the defaults derived from L and W.
struct Overrides {
    std::optional<std::int64_t> bucket_capacity;  ///< token_bucket, default L
    std::optional<Rational> refill_rate;          ///< token_bucket, tokens per tick, default L/W
    std::optional<std::int64_t> queue_size;       ///< leaky_bucket, default L
    std::optional<Rational> drain_interval;     ///< leaky_bucket, ticks per cost unit, default W/L
    std::optional<std::int64_t> gcra_burst;     ///< gcra, default L
    std::optional<Rational> emission_interval;  ///< gcra, ticks per cost unit, default W/L

    friend bool operator==(const Overrides&, const Overrides&) = default;
};

/// The limit that applies to one key: L per W ticks, with optional overrides.
struct Limits {
    std::int64_t limit = 4;  ///< L >= 1
    Tick window = 10;        ///< W >= 1 ticks
    Overrides overrides;

    friend bool operator==(const Limits&, const Limits&) = default;
};

/// Everything that parameterises a simulation besides the trace.
struct Params {
    Limits base;
    /// Counted against the allowance even when rejected (window algorithms only).
    bool rejections_count = false;
    /// Keys with their own tier; every other key uses `base`.
    std::map<std::string, Limits, std::less<>> keys;

    const Limits& for_key(std::string_view key) const;
    friend bool operator==(const Params&, const Params&) = default;
};

/// Problems with `params` (bounds, L or W < 1, zero rates), one message each; empty if valid.
std::vector<std::string> validate(const Params& params);
/// Problems with `trace` (order, bounds, key ids); empty if valid.
std::vector<std::string> validate(const Trace& trace);

}  // namespace ratelab
