// seed_redis_lua: the atomic Redis token bucket described in reference article 000 ("An atomic
// token bucket in Redis"), as a Lua script run by Redis 7 (Debian 12's redis-server 7.0.15)
// with `now` passed in; tests/conformance/token_bucket.lua is that script, written from the
// article's description.
//
// What it reproduces (line numbers of tests/conformance/token_bucket.lua):
// - 10-12: a key without a hash starts with `capacity` tokens and ts = now.
// - 13: tokens = min(capacity, tokens + (now - ts) / 1000 * rate), in doubles (Lua numbers),
//   in that order. The refill is applied on every call, rejected ones too, so the float error
//   of many small refills adds up ("drift"): a bucket may miss a token it has on paper.
// - 14-16: allowed when tokens >= cost; the tokens (taken or not) and ts = now are written back
//   on every call. Redis writes a Lua number into the hash as a round-trip decimal, so the
//   double read back is the one written.
// - 17: PEXPIRE capacity / rate * 1000 ms, rounded up. Redis drops a key whose expiry time is
//   passed (db.c keyIsExpired: now > when): an idle key comes back full, exactly.
// The retry-after of a rejection is the script's third reply, ceil((cost - tokens) / rate *
// 1000) milliseconds (19-20); never when the cost exceeds capacity.
#include <algorithm>
#include <cmath>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct SeedRedisLua {
    static constexpr std::string_view kId = "seed_redis_lua";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t capacity;
        double rate;  // tokens per second, as the script's tonumber() reads it
        std::int64_t ttl_ms;
        std::int64_t tick_ms;
    };
    struct State {
        bool stored = false;  // the key's hash exists
        double tokens = 0;
        std::int64_t ts = 0;  // ms
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {whole_parameter("capacity", "Capacity", ParamUnit::tokens, default_rules::limit(),
                                "burst size: tokens the bucket holds"),
                rational_parameter("rate", "Rate", ParamUnit::per_second,
                                   default_rules::limit_per_second(),
                                   "tokens added per second, as an exact fraction")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<SeedRedisLua> read(limits);
        const std::int64_t capacity = read.whole("capacity");
        const Rational rate = read.rational("rate");
        const double per_second = static_cast<double>(rate.num()) / static_cast<double>(rate.den());
        const double ttl = std::ceil(static_cast<double>(capacity) / per_second * 1000);
        return Config{capacity, per_second, static_cast<std::int64_t>(std::min(ttl, 4e18)),
                      limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t now_ms(const Config& c, Tick now) {
        return detail::preset::clock_ms(now, c.tick_ms);
    }
    /// The hash as the script reads it at `now`, refilled (line 13).
    static double refilled(const Config& c, const State& s, std::int64_t at) {
        const auto capacity = static_cast<double>(c.capacity);
        const bool live = s.stored && at <= s.ts + c.ttl_ms;
        const double tokens = live ? s.tokens : capacity;
        const auto ts = static_cast<double>(live ? s.ts : at);
        return std::min(capacity, tokens + (static_cast<double>(at) - ts) / 1000 * c.rate);
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        const std::int64_t at = now_ms(c, now);
        double tokens = refilled(c, s, at);
        const bool allowed = tokens >= static_cast<double>(cost);
        if (allowed)
            tokens -= static_cast<double>(cost);
        s = State{true, tokens, at};
        return allowed;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.capacity)
            return std::nullopt;
        // After a rejection at `now` the hash holds the tokens the script compared.
        const double tokens = refilled(c, s, now_ms(c, now));
        const double wait = std::ceil((static_cast<double>(cost) - tokens) / c.rate * 1000);
        return detail::preset::ms_as_ticks(static_cast<std::int64_t>(std::clamp(wait, 0.0, 4e18)),
                                           c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const double tokens = refilled(c, s, now_ms(c, now));
        return LimiterState{{{"tokens", detail::preset::decimal(tokens)},
                             {"capacity", Rational(c.capacity)},
                             {"rate", detail::preset::decimal(c.rate)}},
                            "tokens " + detail::preset::decimal_text(tokens) + " / " +
                                std::to_string(c.capacity) + ", +" +
                                detail::preset::decimal_text(c.rate) + " per second"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const double tokens = refilled(c, s, now_ms(c, now));
        const bool allowed = tokens >= static_cast<double>(cost);
        return "tokens " + detail::preset::decimal_text(tokens) + (allowed ? " >= " : " < ") +
               "cost " + std::to_string(cost) + " (doubles, refilled on every call)";
    }
};

}  // namespace

void register_seed_redis_lua(Registry& registry) {
    registry.add(detail::make_preset_info<SeedRedisLua>(
        "Redis Lua token bucket (article 000)",
        "A float token bucket in a Redis hash, refilled and written back on every call, rejected "
        "ones too; an idle key expires and comes back full.",
        140, "Redis 7 Lua script of reference article 000", "redis-server 7.0.15"));
}

}  // namespace ratelab
