// rate_limiter_flexible: the npm package rate-limiter-flexible 11.4.0 (pinned by
// tests/conformance/package-lock.json), RateLimiterMemory.consume(key, cost) with its defaults
// (no blockDuration, no execEvenly), decision for decision.
//
// What it reproduces, from node_modules/rate-limiter-flexible/lib/ of 11.4.0:
// - RateLimiterMemory.consume (RateLimiterMemory.js:18-45): incrby the key by the cost, then
//   reject when the consumed points exceed `points`. The points are added first, so rejected
//   consumption counts.
// - MemoryStorage.incrby (component/MemoryStorage/MemoryStorage.js:13-29): a record whose
//   expiresAt - now is still > 0 adds the cost; otherwise set() (31-55) starts a new record
//   with value = cost expiring `duration` seconds from now: a fixed window from the first hit.
// - The setTimeout that deletes a record (MemoryStorage.js:44-50) fires when the record has
//   expired, which incrby treats as absent anyway: it changes no decision.
// The retry-after of a rejection is msBeforeNext, the milliseconds left in the record;
// never when the cost exceeds `points`, since a new record already holds the whole cost.
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct RateLimiterFlexible {
    static constexpr std::string_view kId = "rate_limiter_flexible";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t points;
        std::int64_t duration_s;
        std::int64_t tick_ms;
    };
    struct State {
        bool known = false;
        std::int64_t consumed = 0;
        std::int64_t expires_ms = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {whole_parameter("points", "Points", ParamUnit::cost_units, default_rules::limit(),
                                "points a key may consume per duration"),
                whole_parameter("duration", "Duration", ParamUnit::seconds,
                                default_rules::window_seconds(),
                                "seconds a key's record lives, from its first hit")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<RateLimiterFlexible> read(limits);
        return Config{read.whole("points"), read.whole("duration"), limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t now_ms(const Config& c, Tick now) {
        return detail::preset::clock_ms(now, c.tick_ms);
    }
    static bool live(const Config& c, const State& s, Tick now) {
        return s.known && s.expires_ms - now_ms(c, now) > 0;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        if (live(c, s, now)) {
            s.consumed += cost;
        } else {
            s = State{true, cost, now_ms(c, now) + c.duration_s * 1000};
        }
        return s.consumed <= c.points;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.points)
            return std::nullopt;
        return detail::preset::ms_as_ticks(s.expires_ms - now_ms(c, now), c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t consumed = live(c, s, now) ? s.consumed : 0;
        std::string summary =
            "consumed " + std::to_string(consumed) + " / " + std::to_string(c.points);
        if (consumed > 0)
            summary += ", record expires at " + std::to_string(s.expires_ms) + " ms";
        return LimiterState{{{"consumed", Rational(consumed)}, {"points", Rational(c.points)}},
                            summary};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t consumed = (live(c, s, now) ? s.consumed : 0) + cost;
        return "consumedPoints " + std::to_string(consumed) +
               (consumed > c.points ? " > " : " <= ") + "points " + std::to_string(c.points) +
               " (rejected points count too)";
    }
};

}  // namespace

void register_rate_limiter_flexible(Registry& registry) {
    registry.add(detail::make_preset_info<RateLimiterFlexible>(
        "rate-limiter-flexible",
        "Adds every cost, rejected ones too, to a record that lives `duration` seconds from the "
        "key's first hit; rejects once the total passes points.",
        131, "rate-limiter-flexible (npm) RateLimiterMemory", "11.4.0"));
}

}  // namespace ratelab
