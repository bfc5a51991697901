// sliding_log: remembers the tick of every accepted cost unit for W ticks; exact, O(L) memory.
#include <string>

#include "basic_algorithm.h"
#include "ring_buffer.h"

namespace ratelab {
namespace {

struct SlidingLog {
    static constexpr std::string_view kId = "sliding_log";
    static constexpr bool kShapes = false;
    /// What a key's state holds, in numbers (the report's "What it costs").
    static StateSize state_size() {
        return {0, StateSize::Grows::per_request_in_window,
                "a timestamp for each request of the last W ticks"};
    }

    struct Config {
        std::int64_t limit;
        Tick window;
    };
    // Units logged on one tick share an entry. `appended` counts every unit ever logged and
    // `expired` those let out; an entry remembers the running count through its own units. So
    // the units held are one subtraction, and so are "how many units would expire by entry j":
    // a retry time is a binary search rather than a walk over the log.
    struct Entry {
        Tick tick;
        std::int64_t appended_through;
    };
    // 64 bytes with the log's first two entries inline: with a million keys, most logs are that
    // short, and a request reads one cache line.
    struct alignas(64) State {
        detail::RingBuffer<Entry, 2> log;
        std::int64_t appended = 0;
        std::int64_t expired = 0;
        std::int64_t held() const { return appended - expired; }
    };
    static_assert(sizeof(State) == 64);

    static Config configure(const Limits& limits) { return Config{limits.limit, limits.window}; }
    static State initial(const Config&) { return State{}; }
    static void prefetch(const State& s) { s.log.prefetch_front(); }
    /// Whether `a` and `b` decide every later request alike. The running counts only enter
    /// differences, so two logs that differ by them alone are the same.
    static bool same(const State& a, const State& b) {
        if (a.held() != b.held() || a.log.size() != b.log.size())
            return false;
        for (std::size_t i = 0; i < a.log.size(); ++i) {
            const Entry& x = a.log[i];
            const Entry& y = b.log[i];
            if (x.tick != y.tick ||
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
        if (!s.log.empty() && s.log.back().tick == now)
            s.log.back().appended_through = s.appended;
        else
            s.log.push_back(Entry{now, s.appended});
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost,
                       bool rejections_count) {
        while (!s.log.empty() && expired(c, s.log.front(), now)) {
            s.expired = s.log.front().appended_through;
            s.log.pop_front();
        }
        if (s.held() + cost <= c.limit) {
            append(s, now, cost);
            return true;
        }
        if (rejections_count)
            append(s, now, cost);
        return false;
    }

    /// Logs `cost` units whatever the log holds (a fleet's store merging charges).
    static void charge(const Config& c, State& s, Tick now, std::int64_t cost) {
        while (!s.log.empty() && expired(c, s.log.front(), now)) {
            s.expired = s.log.front().appended_through;
            s.log.pop_front();
        }
        append(s, now, cost);
    }

    /// The entries still inside the window at `now`: from index `first` on, after the first
    /// `before` units ever logged; `held` units in all.
    struct Live {
        std::size_t first;
        std::int64_t before;
        std::int64_t held;
    };
    static Live live(const Config& c, const State& s, Tick now) {
        Live live{0, s.expired, 0};
        while (live.first < s.log.size() && expired(c, s.log[live.first], now))
            live.before = s.log[live.first++].appended_through;
        live.held = s.appended - live.before;
        return live;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.limit)
            return std::nullopt;
        const auto [first, before, held] = live(c, s, now);
        const std::int64_t must_expire = held + cost - c.limit;
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
    static std::string unit_ticks(const State& s, const Live& live) {
        constexpr std::int64_t kHead = 3;
        constexpr std::int64_t kTail = 2;
        const std::int64_t total = live.held;
        const bool elide = total > kHead + kTail + 3;
        std::string text;
        auto emit = [&text](Tick tick, std::int64_t count) {
            for (std::int64_t i = 0; i < count; ++i)
                text += (text.empty() ? "" : ", ") + std::to_string(tick);
        };
        bool dotted = false;
        for (std::size_t i = live.first; i < s.log.size(); ++i) {
            const Entry& e = s.log[i];
            // Positions of this entry's units among those held.
            const std::int64_t end = e.appended_through - live.before;
            const std::int64_t begin =
                i == live.first ? 0 : s.log[i - 1].appended_through - live.before;
            if (!elide) {
                emit(e.tick, end - begin);
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
        const Live now_live = live(c, s, now);
        const std::int64_t held = now_live.held;
        LimiterState state{{{"used", Rational(held)}, {"limit", Rational(c.limit)}},
                           "log " + unit_ticks(s, now_live) + ": " + std::to_string(held) + "/" +
                               std::to_string(c.limit)};
        if (now_live.first < s.log.size())
            state.fields.push_back({"oldest", Rational(s.log[now_live.first].tick)});
        return state;
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const Live now_live = live(c, s, now);
        const std::int64_t held = now_live.held;
        return "log " + unit_ticks(s, now_live) + " holds " + std::to_string(held) + " + cost " +
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
