// sliding_counter: estimates the last W ticks from this window's count and the previous one's,
// weighting the previous window by how much of it the rolling window still covers.
#include <string>

#include "basic_algorithm.h"

namespace ratelab {
namespace {

struct SlidingCounter {
    static constexpr std::string_view kId = "sliding_counter";
    static constexpr bool kShapes = false;
    /// What a key's state holds, in numbers (the report's "What it costs").
    static StateSize state_size() {
        return {3, StateSize::Grows::no,
                "the current window's start and the counts of it and of the window before"};
    }

    struct Config {
        std::int64_t limit;
        Tick window;
    };
    struct State {
        std::int64_t window_index = -1;  // of `current`
        Tick window_start = 0;           // so that most requests need no division
        std::int64_t previous = 0;
        std::int64_t current = 0;
        friend bool operator==(const State&, const State&) = default;
    };
    /// The counters as they stand at a tick, and how far into its window the tick is.
    struct View {
        std::int64_t previous;
        std::int64_t current;
        Tick elapsed;
    };

    static Config configure(const Limits& limits) { return Config{limits.limit, limits.window}; }
    static State initial(const Config&) { return State{}; }

    static View view_at(const Config& c, const State& s, Tick now) {
        const std::int64_t index = now / c.window;
        const Tick elapsed = now - index * c.window;
        if (index == s.window_index)
            return View{s.previous, s.current, elapsed};
        if (index == s.window_index + 1)
            return View{s.current, 0, elapsed};
        return View{0, 0, elapsed};
    }

    /// estimate + cost <= L, as prev*(W-e) + (curr+cost)*W <= L*W so that nothing is divided.
    static bool fits(const Config& c, const View& v, std::int64_t cost) {
        return static_cast<Int128>(v.previous) * (c.window - v.elapsed) +
                   static_cast<Int128>(v.current + cost) * c.window <=
               static_cast<Int128>(c.limit) * c.window;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost,
                       bool rejections_count) {
        if (s.window_index < 0 || now - s.window_start >= c.window) {
            const View rolled = view_at(c, s, now);
            s.window_index = now / c.window;
            s.window_start = s.window_index * c.window;
            s.previous = rolled.previous;
            s.current = rolled.current;
        }
        const View v{s.previous, s.current, now - s.window_start};
        const bool accepted = fits(c, v, cost);
        s.current += detail::only_if(accepted || rejections_count, cost);
        return accepted;
    }

    /// Counts `cost` whatever the counters hold (a fleet's store merging charges).
    static void charge(const Config& c, State& s, Tick now, std::int64_t cost) {
        if (s.window_index < 0 || now - s.window_start >= c.window) {
            const View rolled = view_at(c, s, now);
            s.window_index = now / c.window;
            s.window_start = s.window_index * c.window;
            s.previous = rolled.previous;
            s.current = rolled.current;
        }
        s.current += cost;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.limit)
            return std::nullopt;
        const View v = view_at(c, s, now);
        const Int128 w = c.window;
        if (v.current + cost <= c.limit && v.previous > 0) {
            // Later in this window: prev*(W-e') <= (L-curr-cost)*W at e' = W -
            // (L-curr-cost)*W/prev.
            const Int128 num =
                (w - v.elapsed) * v.previous - static_cast<Int128>(c.limit - v.current - cost) * w;
            return Rational::from_wide(num, v.previous);
        }
        // In the next window the current count becomes the previous one: curr*(W-e') <= (L-cost)*W.
        const Int128 num = (w - v.elapsed) * v.current + w * (v.current + cost - c.limit);
        return Rational::from_wide(num, v.current);
    }

    static Rational weight(const Config& c, const View& v) {
        return Rational(c.window - v.elapsed, c.window);
    }

    static Rational estimate(const Config& c, const View& v, std::int64_t extra) {
        return Rational::from_wide(static_cast<Int128>(v.previous) * (c.window - v.elapsed) +
                                       static_cast<Int128>(v.current + extra) * c.window,
                                   c.window);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const View v = view_at(c, s, now);
        const Rational total = estimate(c, v, 0);
        return LimiterState{{{"previous", Rational(v.previous)},
                             {"current", Rational(v.current)},
                             {"weight", weight(c, v)},
                             {"estimate", total},
                             {"limit", Rational(c.limit)}},
                            "estimate " + std::to_string(v.previous) + " x " +
                                weight(c, v).to_fixed(2) + " + " + std::to_string(v.current) +
                                " = " + total.to_fixed(2) + " of " + std::to_string(c.limit)};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const View v = view_at(c, s, now);
        return "estimate " + std::to_string(v.previous) + " x " + weight(c, v).to_fixed(2) + " + " +
               std::to_string(v.current) + " + " + std::to_string(cost) + " = " +
               estimate(c, v, cost).to_fixed(2) + (fits(c, v, cost) ? " <= " : " > ") +
               std::to_string(c.limit);
    }
};

}  // namespace

void register_sliding_counter(Registry& registry) {
    registry.add(detail::make_info<SlidingCounter>(
        "Sliding counter",
        "Estimates the last W ticks from two fixed-window counts, weighting the previous window "
        "by how much of it is still in view; O(1) memory, usually close to the exact log.",
        30));
}

}  // namespace ratelab
