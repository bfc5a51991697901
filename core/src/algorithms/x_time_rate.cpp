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
// fails.
//
// With max_wait above 0 it is a shaper, as a server that waits a little rather than refuse:
// r := ReserveN(t, cost) (224-227: reserveN with an infinite maxFutureReserve), and when
// r.DelayFrom(t) > max_wait, r.CancelAt(t) and refuse; else the request goes at t + delay.
// reserveN stores the tokens, negative ones included, and `last` = t. CancelAt (166-201), just
// after the reservation: restoreTokens = cost - tokensFromDuration(lastEvent - timeToAct) =
// cost (lastEvent is this reservation's timeToAct), advance(t) adds nothing, so the tokens are
// (tokens - cost) + cost in float64, capped at burst, and `last` stays t: unlike AllowN a
// refusal does store its advance, rounding included. The retry-after of such a refusal is
// what ReserveN would then report, less max_wait. max_wait is whole nanoseconds, as a
// time.Duration, truncated. A request is let through as one, whatever its cost (its burst
// figures count requests).
#include <cmath>
#include <limits>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct XTimeRate {
    static constexpr std::string_view kId = "x_time_rate";
    static constexpr bool kShapes = true;

    /// Go's clock in nanoseconds stays below 2^63: about 292 years of trace.
    static constexpr std::int64_t kMaxNanos = std::int64_t{9'000'000'000'000'000'000};

    struct Config {
        double limit;  // rate.Limit, events per second
        std::int64_t burst;
        std::int64_t tick_ms;
        std::int64_t max_wait_ns;  // 0: AllowN
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
                                "bucket size: events allowed at once"),
                max_wait_parameter()};
    }
    static ParameterInfo max_wait_parameter() {
        ParameterInfo max_wait = rational_parameter(
            "max_wait", "Max wait", ParamUnit::seconds, default_rules::fixed(Rational(0)),
            "0: AllowN; else ReserveN, waiting at most this long, cancelled beyond");
        max_wait.min = Rational(0);
        return max_wait;
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<XTimeRate> read(limits);
        const Rational limit = read.rational("limit");
        const Rational max_wait = read.rational("max_wait");
        const Int128 max_wait_ns =
            static_cast<Int128>(max_wait.num()) * 1'000'000'000 / max_wait.den();
        return Config{static_cast<double>(limit.num()) / static_cast<double>(limit.den()),
                      read.whole("burst"), limits.tick_ms,
                      static_cast<std::int64_t>(std::min<Int128>(max_wait_ns, kMaxNanos))};
    }
    static State initial(const Config&) { return State{}; }
    /// Releases in nanoseconds over tick_ms ticks; a reservation acts at once, so a request is
    /// one unit and the law's spacing is the grid's 1 ns.
    static ShaperLaw shaper_law(const Config& c) {
        return ShaperLaw{Rational(1, c.tick_ms * 1'000'000), c.burst};
    }

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
        if (cost > c.burst)
            return false;  // reserveN fails and stores nothing, for AllowN and ReserveN alike
        if (wait > c.max_wait_ns) {
            if (c.max_wait_ns > 0) {
                // ReserveN stored `left` and now; CancelAt gives the cost back, capped.
                const double restored = left + static_cast<double>(cost);
                const auto burst = static_cast<double>(c.burst);
                s.tokens = restored > burst ? burst : restored;
                s.last_ns = now_ns;
                s.started = true;
            }
            return false;
        }
        s.tokens = left;
        s.last_ns = now_ns;
        s.started = true;
        return true;
    }

    /// The reservation's wait, from the state it left: the tokens it took below zero.
    static std::int64_t reserved_wait(const Config& c, const State& s) {
        return s.tokens < 0 ? wait_for(c, -s.tokens) : 0;
    }
    static detail::UnitSegment released_units(const Config& c, const State& s, std::int64_t) {
        const Int128 at = static_cast<Int128>(s.last_ns) + reserved_wait(c, s);
        return detail::UnitSegment{static_cast<std::int64_t>(std::min<Int128>(at, kMaxNanos)), 1, 1,
                                   c.tick_ms * 1'000'000};
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.burst)
            return std::nullopt;
        const std::int64_t wait = wait_at(c, s, nanos(c, now), cost);
        return Rational(std::max<std::int64_t>(0, wait - c.max_wait_ns), c.tick_ms * 1'000'000);
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
               (wait > c.max_wait_ns ? " > " : " <= ") + std::to_string(c.max_wait_ns) + " ns";
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
