// gcra: the generic cell rate algorithm; a token bucket stored as one theoretical arrival time.
#include <algorithm>
#include <string>

#include "basic_algorithm.h"

namespace ratelab {
namespace {

struct Gcra {
    static constexpr std::string_view kId = "gcra";
    static constexpr bool kShapes = false;
    /// What a key's state holds, in numbers (the report's "What it costs").
    static StateSize state_size() {
        return {1, StateSize::Grows::no, "the theoretical arrival time"};
    }

    // Time is kept in units of 1/scale ticks so that the emission interval T is a whole number.
    struct Config {
        std::int64_t burst;     // B
        std::int64_t interval;  // T, scaled
        std::int64_t scale;
        std::int64_t tolerance;  // tau = (B - 1) * T, scaled
    };
    struct State {
        std::int64_t tat = 0;  // theoretical arrival time, scaled
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {whole_parameter("burst", "Burst", ParamUnit::cost_units, default_rules::limit(),
                                "cost units accepted back to back after a pause"),
                rational_parameter("emission_interval", "Emission interval",
                                   ParamUnit::ticks_per_unit, default_rules::window_per_limit(),
                                   "ticks between two cost units at the sustained rate")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<Gcra> read(limits);
        const std::int64_t burst = read.whole("burst");
        const Rational t = read.rational("emission_interval");
        return Config{burst, t.num(), t.den(), (burst - 1) * t.num()};
    }
    static State initial(const Config&) { return State{}; }
    /// Its allowance refills like a token bucket of B tokens at one token per T ticks.
    static LevelLaw level_law(const Config& c) {
        return LevelLaw{c.burst, Rational(c.scale, c.interval)};
    }

    /// How far the request's last cell would be ahead of schedule: base + (cost-1)*T - now.
    /// Within the bounds this fits in 64 bits: now is at most 10^18 scaled, TAT runs at most
    /// tau + T <= 10^18 + 10^12 ahead of the last accepted arrival, and (cost-1)*T <= 10^18.
    static std::int64_t lead(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t now_scaled = now * c.scale;
        return std::max(s.tat, now_scaled) - now_scaled + (cost - 1) * c.interval;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        const bool conforms = lead(c, s, now, cost) <= c.tolerance;
        const std::int64_t base = std::max(s.tat, now * c.scale);
        s.tat = conforms ? base + cost * c.interval : s.tat;
        return conforms;
    }

    /// Moves the theoretical arrival time on by `cost` cells whether or not they conform (a
    /// fleet's store merging charges).
    static void charge(const Config& c, State& s, Tick now, std::int64_t cost) {
        s.tat = std::max(s.tat, now * c.scale) + cost * c.interval;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.burst)
            return std::nullopt;
        return Rational::from_wide(lead(c, s, now, cost) - c.tolerance, c.scale);
    }

    static Rational ticks(const Config& c, Int128 scaled) {
        return Rational::from_wide(scaled, c.scale);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const Int128 now_scaled = static_cast<Int128>(now) * c.scale;
        const Int128 ahead = std::max<Int128>(0, s.tat - now_scaled);
        const Rational next = ticks(c, std::max<Int128>(now_scaled, s.tat - c.tolerance));
        // The token-bucket equivalent: B cells, less one per T the schedule runs ahead of now.
        const Rational allowance =
            Rational::from_wide(static_cast<Int128>(c.burst) * c.interval - ahead, c.interval);
        return LimiterState{
            {{"tat", ticks(c, s.tat)},
             {"next_allowed", next},
             {"allowance", allowance},
             {"tolerance", ticks(c, c.tolerance)},
             {"interval", ticks(c, c.interval)}},
            "TAT " + ticks(c, s.tat).to_short() + ", next allowed at " + next.to_short()};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const Int128 value = lead(c, s, now, cost);
        return "max(TAT " + ticks(c, s.tat).to_short() + ", now " + std::to_string(now) + ") + (" +
               std::to_string(cost) + " - 1) x " + ticks(c, c.interval).to_short() + " - " +
               std::to_string(now) + " = " + ticks(c, value).to_short() +
               (value <= c.tolerance ? " <= " : " > ") + "tolerance " +
               ticks(c, c.tolerance).to_short();
    }
};

}  // namespace

void register_gcra(Registry& registry) {
    registry.add(detail::make_info<Gcra>(
        "GCRA",
        "Keeps one theoretical arrival time per caller and accepts a request unless it would run "
        "more than the burst tolerance ahead of schedule; a token bucket in one number.",
        60));
}

}  // namespace ratelab
