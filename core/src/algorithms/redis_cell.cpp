// redis_cell: CL.THROTTLE of the Redis module redis-cell v0.5.0 (brandur/redis-cell, tag
// v0.5.0), decision for decision. redis-cell is not packaged for Debian, so it cannot run in
// .ci/conformance: tests/core/presets_test.cpp replays the library's own test table and the
// quirks below, derived from its source.
//
// What it reproduces (files of the tag v0.5.0):
// - src/lib.rs:55: the rate is Rate::per_period(count_per_period, period seconds), and
//   src/cell/mod.rs:32-42 makes its emission interval (period in ns as f64 / count) as i64,
//   truncated to whole nanoseconds.
// - src/cell/mod.rs:76-84: the delay variation tolerance is that interval * (max_burst + 1),
//   and the limit is max_burst + 1: a fresh key takes max_burst + 1 at once, not max_burst.
// - src/cell/mod.rs:113-115, 140-192 (GCRA): increment = interval * cost; a key without a TAT
//   has TAT = now; new_tat = max(tat, now) + increment; the request is limited when now -
//   (new_tat - tolerance) < 0, and then nothing is stored; otherwise TAT = new_tat. The key's
//   TTL (new_tat - now) runs out only once TAT has passed, which is when max(tat, now) = now
//   anyway, so it changes no decision.
// - src/cell/mod.rs:182-188 and src/lib.rs:64-76: the retry_after of a limited request is
//   -(that difference), or -1 (never) when the increment exceeds the tolerance; the reply
//   gives it in whole seconds, as_seconds_f64() as i64, plus one when its millisecond part is
//   above 0: a wait of 1.000001 s is answered 1, a wait of 0.5 s is answered 1.
// The retry-after of a rejection is that reply value (the fourth of CL.THROTTLE's five); the
// state line shows the others (limited, limit, remaining, reset_after).
#include <cmath>
#include <limits>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct RedisCell {
    static constexpr std::string_view kId = "redis_cell";
    static constexpr bool kShapes = false;
    /// Periods are seconds whose nanoseconds fit in an i64.
    static constexpr std::int64_t kMaxPeriod = 1'000'000'000;

    struct Config {
        std::int64_t interval_ns;   // emission interval
        std::int64_t tolerance_ns;  // delay variation tolerance
        std::int64_t limit;         // max_burst + 1
        std::int64_t tick_ms;
    };
    struct State {
        bool stored = false;
        std::int64_t tat_ns = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        ParameterInfo period =
            whole_parameter("period", "Period", ParamUnit::seconds, default_rules::window_seconds(),
                            "seconds count_per_period is spread over");
        period.max = Rational(kMaxPeriod);
        // L - 1 by default, so that the limit (max_burst + 1) is L.
        ParameterInfo burst = whole_parameter(
            "max_burst", "Max burst", ParamUnit::tokens,
            DefaultRule{"L - 1",
                        [](const ParamContext& c) { return ParamValue(Rational(c.limit - 1)); }},
            "requests beyond the first allowed at once");
        burst.min = Rational(0);
        return {burst,
                whole_parameter("count_per_period", "Count per period", ParamUnit::cost_units,
                                default_rules::limit(), "requests allowed per period"),
                period};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<RedisCell> read(limits);
        const std::int64_t max_burst = read.whole("max_burst");
        const std::int64_t count = read.whole("count_per_period");
        const std::int64_t period_ns = read.whole("period") * 1'000'000'000;
        const auto interval =
            static_cast<std::int64_t>(static_cast<double>(period_ns) / static_cast<double>(count));
        return Config{interval, interval * (max_burst + 1), max_burst + 1, limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t now_ns(const Config& c, Tick now) {
        const Int128 ns = static_cast<Int128>(detail::preset::clock_ms(now, c.tick_ms)) * 1'000'000;
        return static_cast<std::int64_t>(std::min<Int128>(ns, std::int64_t{1} << 62));
    }
    static std::int64_t increment(const Config& c, std::int64_t cost) {
        const Int128 inc = static_cast<Int128>(c.interval_ns) * cost;
        return static_cast<std::int64_t>(std::min<Int128>(inc, std::int64_t{1} << 62));
    }
    /// now - allow_at for a request of `cost` at `at`: limited when negative.
    static Int128 slack(const Config& c, const State& s, std::int64_t at, std::int64_t cost) {
        const std::int64_t tat = s.stored ? s.tat_ns : at;
        const Int128 new_tat = static_cast<Int128>(at > tat ? at : tat) + increment(c, cost);
        return static_cast<Int128>(at) - (new_tat - c.tolerance_ns);
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        const std::int64_t at = now_ns(c, now);
        if (slack(c, s, at, cost) < 0)
            return false;
        const std::int64_t tat = s.stored ? s.tat_ns : at;
        s = State{true, (at > tat ? at : tat) + increment(c, cost)};
        return true;
    }

    /// The reply's rounding of a duration to seconds (src/lib.rs:69-76).
    static std::int64_t reply_seconds(std::int64_t ns) {
        auto seconds = static_cast<std::int64_t>(static_cast<double>(ns) / 1e9);
        if (ns % 1'000'000'000 / 1'000'000 > 0)
            ++seconds;
        return seconds;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (increment(c, cost) > c.tolerance_ns)
            return std::nullopt;
        const Int128 wait = -slack(c, s, now_ns(c, now), cost);
        const std::int64_t seconds =
            reply_seconds(static_cast<std::int64_t>(std::max<Int128>(0, wait)));
        return detail::preset::ms_as_ticks(seconds * 1000, c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t at = now_ns(c, now);
        const std::int64_t tat = s.stored && s.tat_ns > at ? s.tat_ns : at;
        const std::int64_t reset_ns = tat - at;
        // remaining, as the reply computes it from the tolerance left (src/cell/mod.rs:227-231).
        const std::int64_t next = c.tolerance_ns - reset_ns;
        const std::int64_t remaining =
            next > -c.interval_ns
                ? static_cast<std::int64_t>(
                      static_cast<double>(next / 1000) /
                      static_cast<double>(std::max<std::int64_t>(1, c.interval_ns / 1000)))
                : 0;
        return LimiterState{{{"limit", Rational(c.limit)},
                             {"remaining", Rational(remaining)},
                             {"reset_after_s", Rational(reply_seconds(reset_ns))},
                             {"tat_ms", Rational(tat / 1'000'000)}},
                            "limit " + std::to_string(c.limit) + ", remaining " +
                                std::to_string(remaining) + ", reset after " +
                                std::to_string(reply_seconds(reset_ns)) + " s"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const Int128 diff = slack(c, s, now_ns(c, now), cost);
        return "now - (max(TAT, now) + " + std::to_string(cost) + " x " +
               std::to_string(c.interval_ns) + " ns - " + std::to_string(c.tolerance_ns) +
               " ns) = " + std::to_string(static_cast<std::int64_t>(diff)) + " ns" +
               (diff < 0 ? " < 0" : " >= 0");
    }
};

}  // namespace

void register_redis_cell(Registry& registry) {
    registry.add(detail::make_preset_info<RedisCell>(
        "redis-cell CL.THROTTLE",
        "GCRA with a limit of max_burst + 1 and nanosecond times; tells the retry in whole "
        "seconds, rounded up only when the millisecond part is above zero.",
        160, "redis-cell CL.THROTTLE (Redis module)", "v0.5.0"));
}

}  // namespace ratelab
