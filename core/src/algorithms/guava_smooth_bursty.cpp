// guava_smooth_bursty: Guava 31.1 (Debian 12's libguava-java 31.1-1) RateLimiter, the
// SmoothBursty limiter RateLimiter.create(permits_per_second) builds, asked
// tryAcquire(cost, 0, MICROSECONDS), decision for decision, doubles included.
//
// What it reproduces, from Guava 31.1's com/google/common/util/concurrent/ (line numbers from
// the Debian jar's own line tables, javap -l):
// - RateLimiter.create(double, SleepingStopwatch) (RateLimiter.java:135-137) makes new
//   SmoothBursty(stopwatch, maxBurstSeconds = 1.0) and calls setRate (256-261), i.e.
//   SmoothRateLimiter.doSetRate (SmoothRateLimiter.java:336-340): the stable interval is 1e6 /
//   permitsPerSecond microseconds, and SmoothBursty.doSetRate (288-299) sets maxPermits =
//   maxBurstSeconds * permitsPerSecond with storedPermits = 0: a new limiter starts EMPTY. Its
//   clock (SleepingStopwatch.createFromSystemTimer) counts microseconds from its creation; a
//   key's limiter is created at the key's first request.
// - RateLimiter.tryAcquire(int, long, TimeUnit) (410-422) and canAcquire (426): with a zero
//   timeout a request passes when nextFreeTicketMicros <= now, whatever it costs, and is then
//   charged by reserveEarliestAvailable (SmoothRateLimiter.java:356-366): resync (386-391:
//   stored += (now - nextFree) / stableInterval, capped at maxPermits, nextFree = now), spend
//   min(cost, stored) stored permits, and push nextFree later by (long) (the rest *
//   stableInterval). The caller pays nothing for the permits it lacks: the NEXT caller waits
//   for them ("pay later"). A rejection changes nothing.
// The retry-after of a rejection is nextFreeTicketMicros - now: when canAcquire holds again, for
// any cost. No request is ever refused for good.
#include <algorithm>
#include <limits>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct GuavaSmoothBursty {
    static constexpr std::string_view kId = "guava_smooth_bursty";
    static constexpr bool kShapes = false;

    struct Config {
        double max_permits;
        double stable_interval_us;
        std::int64_t tick_ms;
    };
    struct State {
        bool made = false;
        std::int64_t origin_ms = 0;  // when the key's limiter was created
        double stored = 0;
        std::int64_t next_free_us = 0;  // on the limiter's own clock
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {rational_parameter("permits_per_second", "Permits per second",
                                   ParamUnit::per_second, default_rules::limit_per_second(),
                                   "the stable rate, as an exact fraction"),
                rational_parameter("max_burst_seconds", "Max burst", ParamUnit::seconds,
                                   default_rules::fixed(Rational(1)),
                                   "seconds of unused permits it saves (create() uses 1)")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<GuavaSmoothBursty> read(limits);
        const Rational rate = read.rational("permits_per_second");
        const Rational burst = read.rational("max_burst_seconds");
        const double permits_per_second =
            static_cast<double>(rate.num()) / static_cast<double>(rate.den());
        const double burst_seconds =
            static_cast<double>(burst.num()) / static_cast<double>(burst.den());
        return Config{burst_seconds * permits_per_second, 1e6 / permits_per_second, limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    /// The limiter's clock at `now`, in microseconds since it was made (at `now` if not yet).
    static std::int64_t micros(const Config& c, const State& s, Tick now) {
        const std::int64_t at = detail::preset::clock_ms(now, c.tick_ms);
        return s.made ? (at - s.origin_ms) * 1000 : 0;
    }
    /// SmoothRateLimiter.resync.
    static void resync(const Config& c, State& s, std::int64_t now_us) {
        if (now_us > s.next_free_us) {
            const double fresh =
                static_cast<double>(now_us - s.next_free_us) / c.stable_interval_us;
            s.stored = std::min(c.max_permits, s.stored + fresh);
            s.next_free_us = now_us;
        }
    }
    static std::int64_t saturated_add(std::int64_t a, std::int64_t b) {
        if (b > 0 && a > std::numeric_limits<std::int64_t>::max() - b)
            return std::numeric_limits<std::int64_t>::max();
        return a + b;
    }
    /// Java's (long) of a double: truncation, saturating at the ends.
    static std::int64_t java_long(double value) {
        if (!(value < 9.2e18))
            return value > 0 ? std::numeric_limits<std::int64_t>::max() : 0;
        return static_cast<std::int64_t>(value);
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        if (!s.made) {
            s = State{true, detail::preset::clock_ms(now, c.tick_ms), 0, 0};
        }
        const std::int64_t now_us = micros(c, s, now);
        if (s.next_free_us > now_us)
            return false;
        resync(c, s, now_us);
        const auto required = static_cast<double>(cost);
        const double spend = std::min(required, s.stored);
        const double fresh = required - spend;
        s.next_free_us = saturated_add(s.next_free_us, java_long(fresh * c.stable_interval_us));
        s.stored -= spend;
        return true;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t) {
        const std::int64_t wait_us = std::max<std::int64_t>(0, s.next_free_us - micros(c, s, now));
        return Rational(wait_us, c.tick_ms * 1000);
    }

    /// The stored permits resync would find at `now`.
    static double stored_at(const Config& c, const State& s, Tick now) {
        State seen = s;
        resync(c, seen, micros(c, s, now));
        return seen.stored;
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const double stored = stored_at(c, s, now);
        const std::int64_t owed_us = std::max<std::int64_t>(0, s.next_free_us - micros(c, s, now));
        return LimiterState{{{"stored_permits", detail::preset::decimal(stored)},
                             {"max_permits", detail::preset::decimal(c.max_permits)},
                             {"next_free_in_us", Rational(owed_us)}},
                            "stored " + detail::preset::decimal_text(stored) + " / " +
                                detail::preset::decimal_text(c.max_permits) + ", next free in " +
                                std::to_string(owed_us) + " us"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t) {
        const std::int64_t now_us = micros(c, s, now);
        const bool free = s.next_free_us <= now_us;
        return "nextFreeTicket " + std::to_string(s.next_free_us) + " us" +
               (free ? " <= " : " > ") + "now " + std::to_string(now_us) + " us" +
               (free ? " (any cost passes, the next caller pays)" : "");
    }
};

}  // namespace

void register_guava_smooth_bursty(Registry& registry) {
    registry.add(detail::make_preset_info<GuavaSmoothBursty>(
        "Guava RateLimiter (smooth bursty)",
        "Starts empty; a request passes when the limiter is free, whatever it costs, and the "
        "permits it lacks make the next caller wait (pay later).",
        150, "Guava RateLimiter.create(...).tryAcquire(cost, 0, ...)", "31.1"));
}

}  // namespace ratelab
