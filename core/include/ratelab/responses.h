#pragma once
// The HTTP response a lane would send for each decision: the status, Retry-After, and the
// RateLimit header fields of draft-ietf-httpapi-ratelimit-headers-10 (or the older
// X-RateLimit-* variant), all computed exactly from the limiter rather than estimated.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ratelab/limiter.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"

namespace ratelab {

/// What a lane promises a key: Q cost units per window. Q is the lane's capacity, queue size
/// or burst where it declares one (quota_parameter()), else the tier's L; the window is the
/// tier's W.
struct Quota {
    std::int64_t units = 0;  ///< Q
    Tick window = 1;         ///< W, in ticks
    friend bool operator==(const Quota&, const Quota&) = default;
};

/// The id of the parameter that is `algorithm`'s quota (capacity, queue_size, burst and the
/// presets' own names), or nothing when the quota is the tier's L.
std::optional<std::string> quota_parameter(const AlgorithmInfo& algorithm);
/// The quota of one key of a lane: `limits` is the key's tier as the lane runs it
/// (params_for_lane()).
Quota quota_of(const AlgorithmInfo& algorithm, const Limits& limits);
/// The status a key of a lane answers a rejection with: the lane's whole parameter `status`
/// where it declares one (nginx_limit_req's limit_req_status, 503 by default), else 429.
int rejection_status(const AlgorithmInfo& algorithm, const Limits& limits);

/// Whether some cost is too large for a request for `key` at `now` to pass: false for presets
/// that count requests whatever their cost (and for a quirk of python_limits_moving).
bool bounds_cost(const Limiter& limiter, KeyId key, Tick now);
/// R, given the state `limiter` holds for `key` at `now`: where the lane bounds cost
/// (bounds_cost()), the largest cost that a request would be accepted with, so that cost R
/// passes and R + 1 does not (0 when even cost 1 would be refused); else the number of
/// requests of cost 1 that would pass one after another at `now`, as those libraries count
/// what remains. Probes clones; changes nothing.
std::int64_t remaining_cost(const Limiter& limiter, KeyId key, Tick now);
/// T: the fewest ticks after `now` at which a request of `cost`, with no other traffic, would
/// be accepted (0 when it would be now); nothing when it never would. Probes clones.
std::optional<Tick> ticks_until_accepted(const Limiter& limiter, KeyId key, Tick now,
                                         std::int64_t cost);

/// Which rate-limit header fields a response carries.
enum class HeaderStyle : std::uint8_t {
    ietf,         ///< RateLimit-Policy and RateLimit (the IETF draft)
    x_ratelimit,  ///< X-RateLimit-Limit, -Remaining and -Reset
    both,
};

/// One HTTP response, as numbers; header_fields() writes them as text.
struct Response {
    int status = 200;  ///< 200, or the rejection status (rejection_status(), usually 429)
    /// Rejections that a retry can pass: Retry-After in whole seconds, rounded up.
    std::optional<std::int64_t> retry_after_seconds;
    Quota quota;
    std::int64_t window_seconds = 0;  ///< WS: the window rounded up to whole seconds
    std::int64_t remaining = 0;       ///< R, right after the decision
    /// T in ticks (before rounding), and TS in seconds; nothing when a request of cost Q can
    /// never pass.
    std::optional<Tick> reset_ticks;
    std::optional<std::int64_t> reset_seconds;
    friend bool operator==(const Response&, const Response&) = default;
};

/// The response to `decision`, which `limiter` has just made for `key` at `now` (its state is
/// the state after the decision). `tick_ms` converts ticks to seconds; a rejection answers
/// `rejected_status`.
Response respond(const Limiter& limiter, KeyId key, Tick now, const Decision& decision,
                 const Quota& quota, std::int64_t tick_ms, int rejected_status = 429);

/// ceil(ticks * tick_ms / 1000): a number of ticks as whole seconds, rounded up.
std::int64_t ticks_to_seconds(const Rational& ticks, std::int64_t tick_ms);

using HeaderField = std::pair<std::string, std::string>;
/// The response's header fields in `style`, in the order an HTTP response lists them:
/// Retry-After first (429 only), then the rate-limit fields.
std::vector<HeaderField> header_fields(const Response& response, HeaderStyle style);
/// The response as HTTP/1.1 text ("HTTP/1.1 429 Too Many Requests", then one line per field,
/// CRLF-terminated, then an empty line): what a view shows and lets one copy.
std::string http_text(const Response& response, HeaderStyle style);

/// The response to every request of lane `lane` of `result`, in trace order. Each key is
/// replayed on a limiter of its own, so probing costs the same whatever the number of keys.
std::vector<Response> lane_responses(const SimulationResult& result, std::size_t lane);

/// The response to request `index` of lane `lane` of `result` alone: lane_responses()[index],
/// found by replaying the requests of its key up to it, so that a view can answer the decision
/// a user selected without working out every other.
Response response_to(const SimulationResult& result, std::size_t lane, std::size_t index);

}  // namespace ratelab
