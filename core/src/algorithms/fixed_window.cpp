// fixed_window: one counter per window [kW, (k+1)W), aligned at tick 0.
#include <string>

#include "basic_algorithm.h"

namespace ratelab {
namespace {

struct FixedWindow {
    static constexpr std::string_view kId = "fixed_window";
    static constexpr bool kShapes = false;
    /// What a key's state holds, in numbers (the report's "What it costs").
    static StateSize state_size() {
        return {2, StateSize::Grows::no, "the current window's start and its count"};
    }

    struct Config {
        std::int64_t limit;
        Tick window;
    };
    struct State {
        std::int64_t window_index = -1;
        Tick window_end = 0;    // so that most requests need no division to find their window
        std::int64_t used = 0;  // accepted cost (and rejected cost when rejections count)
        friend bool operator==(const State&, const State&) = default;
    };

    static Config configure(const Limits& limits) { return Config{limits.limit, limits.window}; }
    static State initial(const Config&) { return State{}; }

    /// The counter as it stands at `now`: a new window starts from zero.
    static std::int64_t used_at(const Config& c, const State& s, Tick now) {
        return now / c.window == s.window_index ? s.used : 0;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost,
                       bool rejections_count) {
        if (now >= s.window_end) {  // ticks never go back, so this is the only way out
            s.window_index = now / c.window;
            s.window_end = (s.window_index + 1) * c.window;
            s.used = 0;
        }
        const bool fits = s.used + cost <= c.limit;
        s.used += detail::only_if(fits || rejections_count, cost);
        return fits;
    }

    /// Counts `cost` whatever the counter holds (a fleet's store merging charges).
    static void charge(const Config& c, State& s, Tick now, std::int64_t cost) {
        if (now >= s.window_end) {
            s.window_index = now / c.window;
            s.window_end = (s.window_index + 1) * c.window;
            s.used = 0;
        }
        s.used += cost;
    }

    static std::optional<Rational> retry_after(const Config& c, const State&, Tick now,
                                               std::int64_t cost) {
        if (cost > c.limit)
            return std::nullopt;
        return Rational((now / c.window + 1) * c.window - now);  // the next window starts empty
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const Tick start = now / c.window * c.window;
        const std::int64_t used = used_at(c, s, now);
        return LimiterState{{{"window_start", Rational(start)},
                             {"window_end", Rational(start + c.window)},
                             {"used", Rational(used)},
                             {"limit", Rational(c.limit)}},
                            "window [" + std::to_string(start) + ", " +
                                std::to_string(start + c.window) + "): " + std::to_string(used) +
                                "/" + std::to_string(c.limit)};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t used = used_at(c, s, now);
        const Tick start = now / c.window * c.window;
        return "window [" + std::to_string(start) + ", " + std::to_string(start + c.window) +
               "): used " + std::to_string(used) + " + cost " + std::to_string(cost) + " = " +
               std::to_string(used + cost) + (used + cost <= c.limit ? " <= " : " > ") +
               std::to_string(c.limit);
    }
};

}  // namespace

void register_fixed_window(Registry& registry) {
    registry.add(detail::make_info<FixedWindow>(
        "Fixed window",
        "Counts accepted cost per fixed window [kW, (k+1)W); the count starts over at every "
        "boundary, so up to 2L can pass in W ticks around one.",
        10));
}

}  // namespace ratelab
