// npm_limiter: the npm package limiter 4.1.0 (pinned by tests/conformance/package-lock.json),
// TokenBucket.tryRemoveTokens(cost) without a parent bucket, float tokens included.
//
// What it reproduces, from node_modules/limiter/dist/cjs/TokenBucket.js of 4.1.0:
// - The constructor (29-61) starts the bucket EMPTY (content 0) with lastDrip = now: a key's
//   bucket is made at its first request, so its first request is rejected.
// - tryRemoveTokens (115-144): a cost above bucketSize is refused at once, before drip() runs,
//   so that refusal leaves lastDrip where it was; otherwise drip(), then refuse when the cost
//   exceeds the content, else take it.
// - drip (146-164): content = min(content + deltaMS * (tokensPerInterval / interval),
//   bucketSize), in doubles, with deltaMS = max(now - lastDrip, 0) and lastDrip = now; a
//   rejected request drips too.
// The clock is performance.now() (clock.js), read here as milliseconds since the trace began.
// The retry-after of a rejection is what getWaitTime(cost) (84-96) reports right after it:
// ceil((cost - content) / (tokensPerInterval / interval)) milliseconds; never when the cost
// exceeds bucketSize, where getWaitTime throws.
#include <algorithm>
#include <cmath>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"
#include "ratelab/limits.h"

namespace ratelab {
namespace {

struct NpmLimiter {
    static constexpr std::string_view kId = "npm_limiter";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t bucket_size;
        std::int64_t tokens_per_interval;
        std::int64_t interval_ms;
        std::int64_t tick_ms;
    };
    struct State {
        bool made = false;
        double content = 0;
        double last_drip = 0;  // ms
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        ParameterInfo interval = whole_parameter("interval_ms", "Interval", ParamUnit::milliseconds,
                                                 default_rules::window_milliseconds(),
                                                 "the interval tokens_per_interval drip over");
        interval.max = Rational(bounds::kMaxRationalPart);
        return {whole_parameter("bucket_size", "Bucket size", ParamUnit::tokens,
                                default_rules::limit(), "tokens the bucket holds at most"),
                whole_parameter("tokens_per_interval", "Tokens per interval", ParamUnit::tokens,
                                default_rules::limit(), "tokens added over one interval"),
                interval};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<NpmLimiter> read(limits);
        return Config{read.whole("bucket_size"), read.whole("tokens_per_interval"),
                      read.whole("interval_ms"), limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }

    static double now_ms(const Config& c, Tick now) {
        return static_cast<double>(detail::preset::clock_ms(now, c.tick_ms));
    }
    static double rate(const Config& c) {
        return static_cast<double>(c.tokens_per_interval) / static_cast<double>(c.interval_ms);
    }
    /// The bucket as the constructor (on a key's first request) and drip() leave it at `now`.
    static State dripped(const Config& c, State s, Tick now) {
        const double at = now_ms(c, now);
        if (!s.made)
            return State{true, 0, at};
        const double delta = std::max(at - s.last_drip, 0.0);
        s.last_drip = at;
        s.content = std::min(s.content + delta * rate(c), static_cast<double>(c.bucket_size));
        return s;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        if (!s.made)
            s = dripped(c, s, now);  // the constructor runs before tryRemoveTokens
        if (cost > c.bucket_size)
            return false;
        s = dripped(c, s, now);
        if (static_cast<double>(cost) > s.content)
            return false;
        s.content -= static_cast<double>(cost);
        return true;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.bucket_size)
            return std::nullopt;
        const State seen = dripped(c, s, now);
        const double missing = static_cast<double>(cost) - seen.content;
        const double wait = missing > 0 ? std::ceil(missing / rate(c)) : 0;
        return detail::preset::ms_as_ticks(static_cast<std::int64_t>(std::min(wait, 4e18)),
                                           c.tick_ms);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const State seen = dripped(c, s, now);
        return LimiterState{{{"content", detail::preset::decimal(seen.content)},
                             {"bucket_size", Rational(c.bucket_size)}},
                            "content " + detail::preset::decimal_text(seen.content) + " / " +
                                std::to_string(c.bucket_size) + ", +" +
                                std::to_string(c.tokens_per_interval) + " per " +
                                std::to_string(c.interval_ms) + " ms"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        if (cost > c.bucket_size)
            return "cost " + std::to_string(cost) + " > bucketSize " +
                   std::to_string(c.bucket_size);
        const State seen = dripped(c, s, now);
        const bool enough = static_cast<double>(cost) <= seen.content;
        return "content " + detail::preset::decimal_text(seen.content) + (enough ? " >= " : " < ") +
               "cost " + std::to_string(cost) + (s.made ? "" : " (a new bucket starts empty)");
    }
};

}  // namespace

void register_npm_limiter(Registry& registry) {
    registry.add(detail::make_preset_info<NpmLimiter>(
        "limiter (npm) token bucket",
        "A float token bucket that starts empty when a key first appears and drips "
        "tokens_per_interval per interval_ms; tryRemoveTokens takes the cost or refuses.",
        132, "limiter (npm) TokenBucket", "4.1.0"));
}

}  // namespace ratelab
