// token_bucket: a bucket of C tokens refilled lazily at a fixed rate; a request spends its cost.
#include <algorithm>
#include <string>

#include "basic_algorithm.h"

namespace ratelab {
namespace {

struct TokenBucket {
    static constexpr std::string_view kId = "token_bucket";
    static constexpr bool kShapes = false;
    /// What a key's state holds, in numbers (the report's "What it costs").
    static StateSize state_size() {
        return {2, StateSize::Grows::no, "the tokens and when they were last counted"};
    }

    // Tokens are kept in units of 1/rate_den, so that one tick adds exactly rate_num of them.
    struct Config {
        std::int64_t capacity;  // C, in tokens
        std::int64_t rate_num;  // rate = rate_num / rate_den tokens per tick
        std::int64_t rate_den;
        std::int64_t full;  // C * rate_den
    };
    struct State {
        std::int64_t tokens;  // scaled
        Tick last = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {whole_parameter("capacity", "Capacity", ParamUnit::tokens, default_rules::limit(),
                                "tokens the bucket holds when full"),
                rational_parameter("refill_rate", "Refill rate", ParamUnit::per_tick,
                                   default_rules::limit_per_window(), "tokens added per tick")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<TokenBucket> read(limits);
        const std::int64_t capacity = read.whole("capacity");
        const Rational rate = read.rational("refill_rate");
        return Config{capacity, rate.num(), rate.den(), capacity * rate.den()};
    }
    static State initial(const Config& c) { return State{c.full, 0}; }
    static LevelLaw level_law(const Config& c) {
        return LevelLaw{c.capacity, Rational(c.rate_num, c.rate_den)};
    }

    static std::int64_t tokens_at(const Config& c, const State& s, Tick now) {
        const Int128 refilled = static_cast<Int128>(std::max<Tick>(0, now - s.last)) * c.rate_num;
        return static_cast<std::int64_t>(std::min<Int128>(c.full, s.tokens + refilled));
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        s.tokens = tokens_at(c, s, now);
        s.last = std::max(s.last, now);
        const std::int64_t needed = cost * c.rate_den;
        const bool enough = s.tokens >= needed;
        s.tokens -= detail::only_if(enough, needed);
        return enough;
    }

    /// Spends `cost` whatever the bucket holds, so tokens may go below zero (a fleet's store
    /// merging charges); the refill pays the debt back before the bucket can fill again.
    static void charge(const Config& c, State& s, Tick now, std::int64_t cost) {
        s.tokens = tokens_at(c, s, now) - cost * c.rate_den;
        s.last = std::max(s.last, now);
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.capacity)
            return std::nullopt;
        return Rational(cost * c.rate_den - tokens_at(c, s, now), c.rate_num);
    }

    static Rational tokens(const Config& c, std::int64_t scaled) {
        return Rational(scaled, c.rate_den);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const Rational held = tokens(c, tokens_at(c, s, now));
        const Rational rate(c.rate_num, c.rate_den);
        return LimiterState{{{"tokens", held}, {"capacity", Rational(c.capacity)}, {"rate", rate}},
                            "tokens " + held.to_fixed(2) + " / " + std::to_string(c.capacity) +
                                ", +" + rate.to_fixed(2) + " per tick"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t scaled = tokens_at(c, s, now);
        const bool enough = scaled >= cost * c.rate_den;
        return "tokens " + tokens(c, scaled).to_fixed(2) + (enough ? " >= " : " < ") + "cost " +
               std::to_string(cost);
    }
};

}  // namespace

void register_token_bucket(Registry& registry) {
    registry.add(detail::make_info<TokenBucket>(
        "Token bucket",
        "Holds up to C tokens, refilled at a steady rate; a request spends its cost in tokens, so "
        "an idle caller can burst C at once.",
        40));
}

}  // namespace ratelab
