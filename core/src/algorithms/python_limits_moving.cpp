// python_limits_moving: the Python library limits 2.8.0 (Debian 12's python3-limits 2.8.0-1),
// MovingWindowRateLimiter over its MemoryStorage, decision for decision.
//
// What it reproduces, from the package's files under /usr/lib/python3/dist-packages/limits/:
// - strategies.py:74-87 (MovingWindowRateLimiter.hit) calls storage.acquire_entry.
// - storage/memory.py:92-111 (acquire_entry): the key's entries are a list, newest first, one
//   entry per cost unit. A hit of `cost` looks at the single entry events[amount - cost] and is
//   rejected when that entry exists and its time is >= now - window. Two quirks follow:
//   * ">=": an entry exactly one window old still counts;
//   * when cost > amount the index is negative, and Python reads it from the oldest end
//     (events[-(cost - amount)]); with fewer entries than that there is none and the hit is
//     accepted, so a hit costing more than amount can pass on a fresh key.
//   An accepted hit inserts `cost` entries stamped now at the front.
// - Times are time.time() floats in seconds, compared as doubles (now = milliseconds / 1000).
// - The background sweep (memory.py:35-50, a threading.Timer of 10 ms on the wall clock, which a
//   simulated clock never meets) is left out: entries are only ever read, never dropped, which
//   is what the library does between two runs of its timer. The preset keeps every accepted
//   hit, as the library's list keeps every entry until the sweep.
// The retry-after of a rejection is what get_window_stats reports (strategies.py:107-123,
// memory.py:135-151): int(time of the newest entry still inside the window) + window, minus
// now, and 0 when that whole-second reset is already past.
#include <string>
#include <vector>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct PythonLimitsMoving {
    static constexpr std::string_view kId = "python_limits_moving";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t amount;
        std::int64_t window_s;
        std::int64_t tick_ms;
    };
    /// `units` entries stamped at `ms`: one accepted hit.
    struct Hit {
        std::int64_t ms;
        std::int64_t units;
        friend bool operator==(const Hit&, const Hit&) = default;
    };
    struct State {
        std::vector<Hit> hits;  // oldest first: the library's list read backwards
        std::int64_t entries = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {whole_parameter("amount", "Amount", ParamUnit::cost_units, default_rules::limit(),
                                "entries allowed in any window (RateLimitItem amount)"),
                whole_parameter("window", "Window", ParamUnit::seconds,
                                default_rules::window_seconds(), "window length in seconds")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<PythonLimitsMoving> read(limits);
        return Config{read.whole("amount"), read.whole("window"), limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static double seconds(std::int64_t ms) { return static_cast<double>(ms) / 1000.0; }
    static std::int64_t now_ms(const Config& c, Tick now) {
        return detail::preset::clock_ms(now, c.tick_ms);
    }

    /// The time stamp of events[index] as Python indexes the newest-first list, or nothing
    /// where Python raises IndexError.
    static std::optional<std::int64_t> entry(const State& s, std::int64_t index) {
        if (index >= 0) {
            if (index >= s.entries)
                return std::nullopt;
            std::int64_t skipped = 0;
            for (auto it = s.hits.rbegin(); it != s.hits.rend(); ++it) {
                skipped += it->units;
                if (index < skipped)
                    return it->ms;
            }
            return std::nullopt;
        }
        const std::int64_t from_oldest = -index;  // 1 is the oldest
        if (from_oldest > s.entries)
            return std::nullopt;
        std::int64_t skipped = 0;
        for (const Hit& hit : s.hits) {
            skipped += hit.units;
            if (from_oldest <= skipped)
                return hit.ms;
        }
        return std::nullopt;
    }
    static bool inside(const Config& c, std::int64_t stamp_ms, std::int64_t at_ms) {
        return seconds(stamp_ms) >= seconds(at_ms) - static_cast<double>(c.window_s);
    }
    /// The entry acquire_entry tests, when it is still inside the window: the hit is rejected.
    static std::optional<std::int64_t> blocking(const Config& c, const State& s, Tick now,
                                                std::int64_t cost) {
        const auto stamp = entry(s, c.amount - cost);
        if (stamp && inside(c, *stamp, now_ms(c, now)))
            return stamp;
        return std::nullopt;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        if (blocking(c, s, now, cost))
            return false;
        const std::int64_t at = now_ms(c, now);
        if (!s.hits.empty() && s.hits.back().ms == at) {
            s.hits.back().units += cost;
        } else {
            s.hits.push_back(Hit{at, cost});
        }
        s.entries += cost;
        return true;
    }

    /// Entries inside the window at `now`, as get_num_acquired counts them.
    static std::int64_t acquired(const Config& c, const State& s, Tick now) {
        std::int64_t count = 0;
        for (const Hit& hit : s.hits) {
            count += inside(c, hit.ms, now_ms(c, now)) ? hit.units : 0;
        }
        return count;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t) {
        const std::int64_t at = now_ms(c, now);
        // get_moving_window: the first entry of the newest-first list inside the window.
        std::int64_t start_s = at / 1000;
        for (auto it = s.hits.rbegin(); it != s.hits.rend(); ++it) {
            if (inside(c, it->ms, at)) {
                start_s = it->ms / 1000;  // int() of a non-negative time truncates
                break;
            }
        }
        const std::int64_t reset_ms = (start_s + c.window_s) * 1000;
        return detail::preset::ms_as_ticks(std::max<std::int64_t>(0, reset_ms - at), c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t count = acquired(c, s, now);
        return LimiterState{{{"entries", Rational(count)}, {"amount", Rational(c.amount)}},
                            "entries in the last " + std::to_string(c.window_s) +
                                " s: " + std::to_string(count) + " / " + std::to_string(c.amount)};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t index = c.amount - cost;
        const auto stamp = entry(s, index);
        const std::string at = "events[" + std::to_string(index) + "]";
        if (!stamp)
            return at + " does not exist: accepted";
        const double limit = seconds(now_ms(c, now)) - static_cast<double>(c.window_s);
        const bool in = inside(c, *stamp, now_ms(c, now));
        return at + " at " + detail::preset::decimal_text(seconds(*stamp)) + " s" +
               (in ? " >= " : " < ") + "now - window = " + detail::preset::decimal_text(limit) +
               " s" + (in ? ": rejected" : ": accepted");
    }
};

}  // namespace

void register_python_limits_moving(Registry& registry) {
    registry.add(detail::make_preset_info<PythonLimitsMoving>(
        "limits moving window (Python)",
        "Keeps one time stamp per cost unit and tests only the one at position amount - cost; "
        "an entry exactly one window old still counts.",
        111, "limits (Python) MovingWindowRateLimiter", "2.8.0"));
}

}  // namespace ratelab
