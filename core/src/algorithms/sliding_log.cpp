// sliding_log: remembers the tick of every accepted cost unit for W ticks; exact, O(L) memory.
#include <string>

#include "basic_algorithm.h"
#include "ring_buffer.h"

namespace ratelab {
namespace {

struct SlidingLog {
    static constexpr std::string_view kId = "sliding_log";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t limit;
        Tick window;
    };
    // Units logged on one tick share an entry. `appended` counts every unit ever logged, and an
    // entry remembers that running total, so "how many units would expire by entry j" is one
    // subtraction and a retry time is a binary search rather than a walk over the log.
    struct Entry {
        Tick tick;
        std::int64_t units;
        std::int64_t appended_through;
    };
    struct State {
        detail::RingBuffer<Entry> log;
        std::int64_t held = 0;
        std::int64_t appended = 0;
    };

    static Config configure(const Limits& limits) { return Config{limits.limit, limits.window}; }
    static State initial(const Config&) { return State{}; }
    static void prefetch(const State& s) { s.log.prefetch_front(); }
    /// Whether `a` and `b` decide every later request alike. `appended` is a running count
    /// that only enters differences, so two logs that differ by it alone are the same.
    static bool same(const State& a, const State& b) {
        if (a.held != b.held || a.log.size() != b.log.size())
            return false;
        for (std::size_t i = 0; i < a.log.size(); ++i) {
            const Entry& x = a.log[i];
            const Entry& y = b.log[i];
            if (x.tick != y.tick || x.units != y.units ||
                a.appended - x.appended_through != b.appended - y.appended_through)
                return false;
        }
        return true;
    }

    static bool expired(const Config& c, const Entry& e, Tick now) {
        return now - e.tick >= c.window;
    }

    static void append(State& s, Tick now, std::int64_t cost) {
        s.appended += cost;
        s.held += cost;
        if (!s.log.empty() && s.log.back().tick == now) {
            s.log.back().units += cost;
            s.log.back().appended_through = s.appended;
        } else {
            s.log.push_back(Entry{now, cost, s.appended});
        }
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost,
                       bool rejections_count) {
        while (!s.log.empty() && expired(c, s.log.front(), now)) {
            s.held -= s.log.front().units;
            s.log.pop_front();
        }
        if (s.held + cost <= c.limit) {
            append(s, now, cost);
            return true;
        }
        if (rejections_count)
            append(s, now, cost);
        return false;
    }

    /// Index of the first entry still inside the window at `now`, and the units from there on.
    static std::pair<std::size_t, std::int64_t> live(const Config& c, const State& s, Tick now) {
        std::size_t first = 0;
        std::int64_t held = s.held;
        while (first < s.log.size() && expired(c, s.log[first], now))
            held -= s.log[first++].units;
        return {first, held};
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.limit)
            return std::nullopt;
        const auto [first, held] = live(c, s, now);
        const std::int64_t must_expire = held + cost - c.limit;
        const std::int64_t before = s.log[first].appended_through - s.log[first].units;
        std::size_t lo = first;
        std::size_t hi = s.log.size() - 1;
        while (lo < hi) {  // first entry by which enough units have expired
            const std::size_t mid = lo + (hi - lo) / 2;
            if (s.log[mid].appended_through - before >= must_expire) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return Rational(s.log[lo].tick + c.window - now);
    }

    /// "[6, 7, 7, 8]": one tick per unit, the middle of a long log elided.
    static std::string unit_ticks(const State& s, std::size_t first) {
        constexpr std::int64_t kHead = 3;
        constexpr std::int64_t kTail = 2;
        std::int64_t total = 0;
        for (std::size_t i = first; i < s.log.size(); ++i)
            total += s.log[i].units;
        const bool elide = total > kHead + kTail + 3;
        std::string text;
        auto emit = [&text](Tick tick, std::int64_t count) {
            for (std::int64_t i = 0; i < count; ++i)
                text += (text.empty() ? "" : ", ") + std::to_string(tick);
        };
        std::int64_t position = 0;
        bool dotted = false;
        for (std::size_t i = first; i < s.log.size(); ++i) {
            const Entry& e = s.log[i];
            const std::int64_t begin = position;
            const std::int64_t end = position + e.units;
            position = end;
            if (!elide) {
                emit(e.tick, e.units);
                continue;
            }
            emit(e.tick, std::max<std::int64_t>(0, std::min(end, kHead) - begin));
            const std::int64_t tail =
                std::max<std::int64_t>(0, end - std::max(begin, total - kTail));
            if (tail > 0 && !dotted) {
                text += ", ...";
                dotted = true;
            }
            emit(e.tick, tail);
        }
        return "[" + text + "]";
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const auto [first, held] = live(c, s, now);
        LimiterState state{{{"used", Rational(held)}, {"limit", Rational(c.limit)}},
                           "log " + unit_ticks(s, first) + ": " + std::to_string(held) + "/" +
                               std::to_string(c.limit)};
        if (first < s.log.size())
            state.fields.push_back({"oldest", Rational(s.log[first].tick)});
        return state;
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const auto [first, held] = live(c, s, now);
        return "log " + unit_ticks(s, first) + " holds " + std::to_string(held) + " + cost " +
               std::to_string(cost) + " = " + std::to_string(held + cost) +
               (held + cost <= c.limit ? " <= " : " > ") + std::to_string(c.limit);
    }
};

}  // namespace

void register_sliding_log(Registry& registry) {
    registry.add(detail::make_info<SlidingLog>(
        "Sliding log",
        "Remembers when every accepted unit arrived and accepts only while fewer than L remain "
        "from the last W ticks: exact, at the price of memory.",
        20));
}

}  // namespace ratelab
