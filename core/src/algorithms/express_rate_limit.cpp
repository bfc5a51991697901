// express_rate_limit: the npm package express-rate-limit 8.7.5 (pinned by
// tests/conformance/package-lock.json) with its default MemoryStore, decision for decision.
//
// What it reproduces, from node_modules/express-rate-limit/dist/index.cjs of 8.7.5:
// - MemoryStore.getClient (198-210): a key seen for the first time gets a window ending
//   windowMs after that moment (resetClient, 185-188).
// - MemoryStore.increment (123-131): when resetTime <= now the window starts over at now;
//   then totalHits goes up by one, before the limit is looked at, so rejected requests count.
// - The middleware (1087) rejects when totalHits > limit. A request is one hit whatever its
//   cost: the library has no notion of cost.
// - clearExpired (216-219), on a setInterval of windowMs, only drops clients whose window has
//   already ended, which increment would have reset anyway: it changes no decision.
// The retry-after of a rejection is the Retry-After header it sends (setRetryAfterHeader,
// 302-306, and getResetSeconds, 244-253): max(0, ceil((resetTime - now) / 1000)) whole seconds.
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct ExpressRateLimit {
    static constexpr std::string_view kId = "express_rate_limit";
    static constexpr bool kShapes = false;
    /// The library's own bound on windowMs with the MemoryStore (index.cjs 688-695).
    static constexpr std::int64_t kMaxWindowMs = 2'147'483'647;

    struct Config {
        std::int64_t limit;
        std::int64_t window_ms;
        std::int64_t tick_ms;
    };
    struct State {
        bool known = false;
        std::int64_t hits = 0;
        std::int64_t reset_ms = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        ParameterInfo window = whole_parameter("window_ms", "Window", ParamUnit::milliseconds,
                                               default_rules::window_milliseconds(),
                                               "windowMs: the window, from a key's first hit");
        window.max = Rational(kMaxWindowMs);
        return {whole_parameter("limit", "Limit", ParamUnit::cost_units, default_rules::limit(),
                                "requests allowed per window"),
                window};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<ExpressRateLimit> read(limits);
        return Config{read.whole("limit"), read.whole("window_ms"), limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t now_ms(const Config& c, Tick now) {
        return detail::preset::clock_ms(now, c.tick_ms);
    }
    /// totalHits as increment() leaves it at `now`, before its own hit.
    static std::int64_t hits_at(const Config& c, const State& s, Tick now) {
        return s.known && s.reset_ms > now_ms(c, now) ? s.hits : 0;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t, bool) {
        const std::int64_t at = now_ms(c, now);
        if (!s.known || s.reset_ms <= at) {
            s = State{true, 0, at + c.window_ms};
        }
        ++s.hits;
        return s.hits <= c.limit;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t) {
        const std::int64_t left_ms = s.reset_ms - now_ms(c, now);
        const std::int64_t seconds = std::max<std::int64_t>(0, (left_ms + 999) / 1000);
        return detail::preset::ms_as_ticks(seconds * 1000, c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t hits = hits_at(c, s, now);
        std::string summary = "hits " + std::to_string(hits) + " / " + std::to_string(c.limit);
        if (hits > 0)
            summary += ", window ends at " + std::to_string(s.reset_ms) + " ms";
        return LimiterState{{{"hits", Rational(hits)}, {"limit", Rational(c.limit)}}, summary};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t) {
        const std::int64_t hits = hits_at(c, s, now) + 1;
        return "totalHits " + std::to_string(hits) + (hits > c.limit ? " > " : " <= ") + "limit " +
               std::to_string(c.limit) + " (every request is one hit, rejected too)";
    }
};

}  // namespace

void register_express_rate_limit(Registry& registry) {
    registry.add(detail::make_preset_info<ExpressRateLimit>(
        "express-rate-limit",
        "Counts every request, rejected ones too, in a window that starts at the key's first "
        "request; rejects once the count passes limit, and tells Retry-After in whole seconds.",
        130, "express-rate-limit (npm) MemoryStore", "8.7.5"));
}

}  // namespace ratelab
