// envoy_local_ratelimit: Envoy's local rate limit filter in timer mode (the token bucket of
// source/extensions/filters/common/local_ratelimit/local_ratelimit_impl.cc at envoyproxy/envoy
// commit 016c0c8007133da7f1b1e22a1809f76fa40ae912). Envoy cannot run in .ci/conformance: the
// golden tests in tests/core/presets_test.cpp follow this source.
//
// What it reproduces (LocalRateLimiterImpl in that file):
// - The constructor fills every bucket (the default one and one per descriptor, which is what a
//   key is here) with max_tokens when the filter is created, the trace's tick 0, and arms a
//   timer of fill_interval, which must be at least 50 ms (it throws below).
// - onFillTimer / onFillTimerHelper: each time the timer fires, at every multiple of
//   fill_interval, tokens = min(max_tokens, tokens + tokens_per_fill): whole batches on the
//   timer's schedule, nothing in between, however long a key was idle.
// - requestAllowedHelper: a request passes when tokens > 0 and takes exactly one; a request is
//   one token whatever its cost. A rejection changes nothing.
// - A fill due at the very tick of a request is applied first (the dispatcher runs the due
//   timer before it reads the request).
// The retry-after of a rejection is the time to the next fill. (The optional x-ratelimit-reset
// header, remainingFillInterval, truncates it to whole seconds: 0 below a second.)
#include <algorithm>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct EnvoyLocalRateLimit {
    static constexpr std::string_view kId = "envoy_local_ratelimit";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t max_tokens;
        std::int64_t tokens_per_fill;
        std::int64_t fill_ms;
        std::int64_t tick_ms;
    };
    struct State {
        std::int64_t tokens = -1;  // -1: still the max_tokens it was created with
        std::int64_t fills = 0;    // fills applied so far
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        ParameterInfo fill = rational_parameter(
            "fill_interval", "Fill interval", ParamUnit::seconds, default_rules::fixed(Rational(1)),
            "seconds between two fills of the timer");
        fill.min = Rational(1, 20);  // Envoy refuses a fill timer below 50 ms
        return {whole_parameter("max_tokens", "Max tokens", ParamUnit::tokens,
                                default_rules::limit(), "tokens a bucket holds, full at the start"),
                whole_parameter("tokens_per_fill", "Tokens per fill", ParamUnit::tokens,
                                default_rules::limit(), "tokens each fill adds"),
                fill};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<EnvoyLocalRateLimit> read(limits);
        const Rational fill = read.rational("fill_interval");
        // Protobuf durations are read in whole milliseconds (PROTOBUF_GET_MS_OR_DEFAULT).
        const std::int64_t fill_ms = std::max<std::int64_t>(
            50, static_cast<std::int64_t>(static_cast<Int128>(fill.num()) * 1000 / fill.den()));
        return Config{read.whole("max_tokens"), read.whole("tokens_per_fill"), fill_ms,
                      limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t fills_by(const Config& c, Tick now) {
        return detail::preset::clock_ms(now, c.tick_ms) / c.fill_ms;
    }
    /// The bucket at `now`, every fill due by then applied.
    static std::int64_t tokens_at(const Config& c, const State& s, Tick now) {
        const std::int64_t held = s.tokens < 0 ? c.max_tokens : s.tokens;
        const Int128 added = static_cast<Int128>(fills_by(c, now) - s.fills) * c.tokens_per_fill;
        return static_cast<std::int64_t>(std::min<Int128>(c.max_tokens, held + added));
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t, bool) {
        s = State{tokens_at(c, s, now), fills_by(c, now)};
        if (s.tokens == 0)
            return false;
        --s.tokens;
        return true;
    }

    static std::optional<Rational> retry_after(const Config& c, const State&, Tick now,
                                               std::int64_t) {
        const std::int64_t next_fill_ms = (fills_by(c, now) + 1) * c.fill_ms;
        return detail::preset::ms_as_ticks(next_fill_ms - detail::preset::clock_ms(now, c.tick_ms),
                                           c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t tokens = tokens_at(c, s, now);
        const std::int64_t next_fill_ms = (fills_by(c, now) + 1) * c.fill_ms;
        return LimiterState{
            {{"tokens", Rational(tokens)},
             {"max_tokens", Rational(c.max_tokens)},
             {"next_fill_ms", Rational(next_fill_ms)}},
            "tokens " + std::to_string(tokens) + " / " + std::to_string(c.max_tokens) + ", +" +
                std::to_string(c.tokens_per_fill) + " at " + std::to_string(next_fill_ms) + " ms"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t) {
        const std::int64_t tokens = tokens_at(c, s, now);
        return "tokens " + std::to_string(tokens) + (tokens > 0 ? " > 0" : " = 0") +
               " (one token per request, whatever its cost)";
    }
};

}  // namespace

void register_envoy_local_ratelimit(Registry& registry) {
    registry.add(detail::make_preset_info<EnvoyLocalRateLimit>(
        "Envoy local rate limit",
        "A bucket full at the start, refilled by a timer in whole batches of tokens_per_fill "
        "every fill_interval; each request takes one token.",
        170, "Envoy local rate limit filter (timer mode)", "commit 016c0c8"));
}

}  // namespace ratelab
