// python_limits_fixed: the Python library limits 2.8.0 (Debian 12's python3-limits 2.8.0-1),
// FixedWindowRateLimiter over its MemoryStorage, decision for decision.
//
// What it reproduces, from the package's files under /usr/lib/python3/dist-packages/limits/:
// - strategies.py:131-148 (FixedWindowRateLimiter.hit): storage.incr(key, expiry, amount=cost)
//   and accept when the new count is <= amount. The count goes up before the test, so a
//   rejected hit is counted too.
// - storage/memory.py:73-82 (get): a key whose expiry is <= time.time() is dropped first.
// - storage/memory.py:52-71 (incr): the expiry is set to time.time() + window only when the
//   count equals the cost just added, i.e. by the first hit after the key was dropped: the
//   window starts at the first hit, not at a multiple of the window.
// - Times are time.time() floats in seconds, so the preset compares doubles as the library
//   does (expiry <= now), with now = milliseconds / 1000.
// - The background sweep (memory.py:35-50, a threading.Timer of 10 ms on the wall clock) drops
//   the same keys the lazy check in get() drops, so it is left out.
// The retry-after of a rejection is the stored expiry minus now (get_window_stats reports that
// expiry truncated to whole seconds, strategies.py:162-176); never when the cost exceeds
// amount, as the count after a reset is at least the cost.
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct PythonLimitsFixed {
    static constexpr std::string_view kId = "python_limits_fixed";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t amount;
        std::int64_t window_s;
        std::int64_t tick_ms;
    };
    struct State {
        std::int64_t count = 0;  // hits in the key's window, rejected ones included
        double expiry = 0;       // time.time() at which the key is dropped; 0 without a key
        std::int64_t start_ms = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {
            whole_parameter("amount", "Amount", ParamUnit::cost_units, default_rules::limit(),
                            "hits allowed per window (RateLimitItem amount)"),
            whole_parameter("window", "Window", ParamUnit::seconds, default_rules::window_seconds(),
                            "window length in seconds, from the first hit")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<PythonLimitsFixed> read(limits);
        return Config{read.whole("amount"), read.whole("window"), limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static double seconds(const Config& c, Tick now) {
        return static_cast<double>(detail::preset::clock_ms(now, c.tick_ms)) / 1000.0;
    }
    /// The count get() sees at `now`: nothing once the expiry has passed.
    static std::int64_t count_at(const Config& c, const State& s, Tick now) {
        return s.expiry <= seconds(c, now) ? 0 : s.count;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        const double time = seconds(c, now);
        if (s.expiry <= time) {
            s = State{};
        }
        s.count += cost;
        if (s.count == cost) {
            s.expiry = time + static_cast<double>(c.window_s);
            s.start_ms = detail::preset::clock_ms(now, c.tick_ms);
        }
        return s.count <= c.amount;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.amount)
            return std::nullopt;
        const std::int64_t end_ms = s.start_ms + c.window_s * 1000;
        return detail::preset::ms_as_ticks(end_ms - detail::preset::clock_ms(now, c.tick_ms),
                                           c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t count = count_at(c, s, now);
        const bool open = count > 0;
        std::string summary = "hits " + std::to_string(count) + " / " + std::to_string(c.amount);
        if (open) {
            summary += ", window ends at " + detail::preset::decimal_text(s.expiry) + " s";
        }
        return LimiterState{{{"hits", Rational(count)},
                             {"amount", Rational(c.amount)},
                             {"expiry_s", open ? detail::preset::decimal(s.expiry) : Rational(0)}},
                            summary};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t count = count_at(c, s, now) + cost;
        return "hits " + std::to_string(count - cost) + " + cost " + std::to_string(cost) + " = " +
               std::to_string(count) + (count <= c.amount ? " <= " : " > ") + "amount " +
               std::to_string(c.amount) + " (rejected hits count too)";
    }
};

}  // namespace

void register_python_limits_fixed(Registry& registry) {
    registry.add(detail::make_preset_info<PythonLimitsFixed>(
        "limits fixed window (Python)",
        "Counts every hit, rejected ones too, in a window that starts at the key's first hit; "
        "accepts while the count is at most amount.",
        110, "limits (Python) FixedWindowRateLimiter", "2.8.0"));
}

}  // namespace ratelab
