// x_time_rate: golang.org/x/time/rate v0.3.0 (Debian 12's golang-golang-x-time-dev 0.3.0-1),
// Limiter.AllowN(t, cost), decision for decision, float64 tokens included.
//
// What it reproduces, from /usr/share/gocode/src/golang.org/x/time/rate/rate.go:
// - NewLimiter (98-103) leaves tokens at 0 and `last` at the zero time.Time, so the first call's
//   advance() sees an elapsed time from year 1, saturated by Time.Sub to the largest Duration:
//   a fresh key starts full (unless limit * 9223372036.85 s is less than burst).
// - advance (395-409): tokens += elapsed.Seconds() * limit, capped at burst. Duration.Seconds()
//   is float64(whole seconds) + float64(nanoseconds)/1e9, from the Go standard library.
// - reserveN (334-390) with maxFutureReserve 0, which is what AllowN (113-115) passes: tokens -= n;
//   when negative, the wait is durationFromTokens(-tokens) (413-419), a float64 of nanoseconds
//   converted to an integer Duration, which truncates. ok = n <= burst && wait <= 0, so a
//   deficit worth less than one nanosecond passes and leaves the tokens slightly negative.
//   Only an accepted call stores `last` and the tokens; a rejected one changes nothing.
// The retry-after of a rejection is the wait ReserveN(t, cost) would report at that moment
// (Reservation.DelayFrom, 147-156), in nanoseconds; never when cost > burst, where ReserveN
// fails. max_wait (ReserveN used as a shaper) is not reproduced: AllowN only.
#include <cmath>
#include <limits>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct XTimeRate {
    static constexpr std::string_view kId = "x_time_rate";
    static constexpr bool kShapes = false;

    /// Go's clock in nanoseconds stays below 2^63: about 292 years of trace.
    static constexpr std::int64_t kMaxNanos = std::int64_t{9'000'000'000'000'000'000};

    struct Config {
        double limit;  // rate.Limit, events per second
        std::int64_t burst;
        std::int64_t tick_ms;
    };
    struct State {
        double tokens = 0;
        bool started = false;  // false: `last` is the zero time.Time
        std::int64_t last_ns = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {rational_parameter("limit", "Limit", ParamUnit::per_second,
                                   default_rules::limit_per_second(),
                                   "events per second (rate.Limit), as an exact fraction"),
                whole_parameter("burst", "Burst", ParamUnit::tokens, default_rules::limit(),
                                "bucket size: events allowed at once")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<XTimeRate> read(limits);
        const Rational limit = read.rational("limit");
        return Config{static_cast<double>(limit.num()) / static_cast<double>(limit.den()),
                      read.whole("burst"), limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t nanos(const Config& c, Tick now) {
        const Int128 ns = static_cast<Int128>(detail::preset::clock_ms(now, c.tick_ms)) * 1'000'000;
        return static_cast<std::int64_t>(std::min<Int128>(ns, kMaxNanos));
    }
    /// time.Duration.Seconds().
    static double duration_seconds(std::int64_t d) {
        const std::int64_t sec = d / 1'000'000'000;
        const std::int64_t nsec = d % 1'000'000'000;
        return static_cast<double>(sec) + static_cast<double>(nsec) / 1e9;
    }
    /// Limiter.advance: the tokens at `now_ns`.
    static double advanced(const Config& c, const State& s, std::int64_t now_ns) {
        const std::int64_t elapsed =
            s.started ? now_ns - s.last_ns : std::numeric_limits<std::int64_t>::max();
        const double tokens = s.tokens + duration_seconds(elapsed) * c.limit;
        const auto burst = static_cast<double>(c.burst);
        return tokens > burst ? burst : tokens;
    }
    /// Limit.durationFromTokens: float64(time.Second) * seconds, converted to an int64.
    static std::int64_t wait_for(const Config& c, double deficit) {
        const double ns = 1e9 * (deficit / c.limit);
        if (!(ns < 9.2e18))
            return std::numeric_limits<std::int64_t>::max();
        return static_cast<std::int64_t>(ns);  // truncates toward zero, as Go's conversion
    }
    /// reserveN's wait for `cost` at `now_ns`: 0 when the tokens cover it.
    static std::int64_t wait_at(const Config& c, const State& s, std::int64_t now_ns,
                                std::int64_t cost) {
        const double left = advanced(c, s, now_ns) - static_cast<double>(cost);
        return left < 0 ? wait_for(c, -left) : 0;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        const std::int64_t now_ns = nanos(c, now);
        const double left = advanced(c, s, now_ns) - static_cast<double>(cost);
        const std::int64_t wait = left < 0 ? wait_for(c, -left) : 0;
        if (cost > c.burst || wait > 0)
            return false;
        s.tokens = left;
        s.last_ns = now_ns;
        s.started = true;
        return true;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.burst)
            return std::nullopt;
        return Rational(wait_at(c, s, nanos(c, now), cost), c.tick_ms * 1'000'000);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const double tokens = advanced(c, s, nanos(c, now));
        return LimiterState{{{"tokens", detail::preset::decimal(tokens)},
                             {"burst", Rational(c.burst)},
                             {"limit", detail::preset::decimal(c.limit)}},
                            "tokens " + detail::preset::decimal_text(tokens) + " / " +
                                std::to_string(c.burst) + ", +" +
                                detail::preset::decimal_text(c.limit) + " per second"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t now_ns = nanos(c, now);
        const double tokens = advanced(c, s, now_ns);
        if (cost > c.burst)
            return "cost " + std::to_string(cost) + " > burst " + std::to_string(c.burst);
        const std::int64_t wait = wait_at(c, s, now_ns, cost);
        return "tokens " + detail::preset::decimal_text(tokens) + " - cost " +
               std::to_string(cost) + ": wait " + std::to_string(wait) + " ns" +
               (wait > 0 ? " > 0" : " = 0");
    }
};

}  // namespace

void register_x_time_rate(Registry& registry) {
    registry.add(detail::make_preset_info<XTimeRate>(
        "x/time/rate (Go)",
        "A float64 token bucket that starts full; AllowN passes when the wait for the missing "
        "tokens, truncated to whole nanoseconds, is zero.",
        120, "golang.org/x/time/rate", "v0.3.0"));
}

}  // namespace ratelab
