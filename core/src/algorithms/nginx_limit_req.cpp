// nginx_limit_req: ngx_http_limit_req_module of nginx 1.22.1 (Debian 12's nginx 1.22.1-9), one
// limit_req zone and one limit_req directive, decision for decision, its integer arithmetic
// included.
//
// What it reproduces, from src/http/modules/ngx_http_limit_req_module.c at the tag
// release-1.22.1:
// - The directives (839-939, 968-1061): the zone's rate is kept in milli-requests per second,
//   rate * 1000 / scale in integers (30r/m is 500, 7r/m is 116); burst and delay are kept times
//   1000; nodelay sets delay to NGX_MAX_INT_T_VALUE / 1000 (times 1000 again), past any excess.
//   The parameter `rate` is requests per second as a fraction, and its milli-rate is
//   floor(rate * 1000): exactly nginx's for every rate nginx can be given (n r/s, n r/m).
// - A key seen for the first time (lookup, 486-524) gets a node with excess 0 and last = now: the
//   first request is no excess at all, so a fresh key lets burst + 1 requests through at once.
// - A known key (445-474): ms = now - last; excess = stored - rate * ms / 1000 + 1000, the
//   division truncating, floored at 0. Above burst: rejected (NGX_BUSY), nothing stored.
//   Otherwise the excess is stored, and `last` moves to now: the fraction of a milli-request
//   that the truncation dropped is lost for good, so requests a millisecond or two apart at a
//   slow rate leak nothing.
// - The delay (account, 545-553; the handler, 294-326): an accepted request whose excess is at
//   most delay goes through at once, any other waits (excess - delay) * 1000 / rate ms, again
//   truncated, on a timer from its arrival; the handler does not look at the zone again when
//   the timer fires. The next request's excess counts the delayed ones already.
// - A rejection answers limit_req_status (`status`, 503 by default; 285), sent by
//   responses.cpp through rejection_status().
// Not reproduced: the zone's expiry of idle nodes (633-695), which runs only when another key
// is created, removes at most two least recently used keys idle for 60 s or more whose excess
// has drained, and so differs from this only for such a key whose next request would have found
// an excess above burst (rates below 1000 / 60 r/s, or stored excess above 59 requests at
// 1 r/s); and several limit_req directives on one request (the loop of 221-260).
// nginx counts requests: a request of any cost is one request, and is let through as one (the
// lane's worst burst counts requests; the per-key figures of key_figures.cpp count its cost).
// The retry-after of a rejection is RateLab's, since nginx tells none: the ms until the excess
// would be at most burst again, ceil((stored + 1000 - burst) * 1000 / rate) after `last`.
#include <algorithm>
#include <string>

#include "basic_algorithm.h"
#include "preset_support.h"

namespace ratelab {
namespace {

struct NginxLimitReq {
    static constexpr std::string_view kId = "nginx_limit_req";
    static constexpr bool kShapes = true;
    /// NGX_MAX_INT_T_VALUE / 1000 * 1000 on 64 bits: the delay nodelay sets.
    static constexpr std::int64_t kNoDelay = std::int64_t{9'223'372'036'854'775} * 1000;

    struct Config {
        std::int64_t rate;   // milli-requests per second (ctx->rate)
        std::int64_t burst;  // milli-requests (limit->burst)
        std::int64_t delay;  // milli-requests (limit->delay)
        std::int64_t tick_ms;
    };
    struct State {
        bool exists = false;      // a node for the key in the zone
        std::int64_t excess = 0;  // milli-requests
        std::int64_t last_ms = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        // nginx takes 1r/m at least; below that (a fleet's share) the arithmetic still holds
        // down to one milli-request per second.
        ParameterInfo rate = rational_parameter(
            "rate", "Rate", ParamUnit::per_second, default_rules::limit_per_second(),
            "requests per second (10r/s is 10, 30r/m is 1/2), at least 1/1000");
        rate.min = Rational(1, 1000);
        // nginx counts requests, whatever a request costs here.
        ParameterInfo burst = whole_parameter("burst", "Burst", ParamUnit::requests,
                                              default_rules::fixed(Rational(0)),
                                              "excess requests allowed beyond the rate (burst=)");
        burst.min = Rational(0);
        ParameterInfo nodelay;
        nodelay.id = "nodelay";
        nodelay.name = "Nodelay";
        nodelay.kind = ParamKind::flag;
        nodelay.default_rule = default_rules::fixed(false);
        nodelay.description = "let excess up to burst through at once instead of delaying it";
        ParameterInfo delay = whole_parameter(
            "delay", "Delay", ParamUnit::requests, default_rules::fixed(Rational(0)),
            "excess requests let through undelayed (delay=); nodelay overrides");
        delay.min = Rational(0);
        ParameterInfo status = whole_parameter("status", "Status", ParamUnit::http_status,
                                               default_rules::fixed(Rational(503)),
                                               "HTTP status of a rejection (limit_req_status)");
        status.min = Rational(400);
        status.max = Rational(599);
        return {rate, burst, nodelay, delay, status};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<NginxLimitReq> read(limits);
        const Rational rate = read.rational("rate");
        const auto milli =
            static_cast<std::int64_t>(static_cast<Int128>(rate.num()) * 1000 / rate.den());
        return Config{std::max<std::int64_t>(1, milli), read.whole("burst") * 1000,
                      read.flag("nodelay") ? kNoDelay : read.whole("delay") * 1000, limits.tick_ms};
    }
    static State initial(const Config&) { return State{}; }
    /// Releases in microseconds over tick_ms ticks. nginx lets a request through whole, so a
    /// released request is one unit whatever its cost, and the law's spacing is the grid's
    /// 1 µs (there is no spacing between the units of one request).
    static constexpr std::int64_t kUnitsPerMs = 1000;
    static ShaperLaw shaper_law(const Config& c) {
        return ShaperLaw{Rational(1, c.tick_ms * kUnitsPerMs), c.burst / 1000};
    }

    /// rate * ms / 1000: what the rate drains in `ms`, truncated as nginx does.
    static std::int64_t drained(const Config& c, std::int64_t ms) {
        const Int128 milli = static_cast<Int128>(c.rate) * ms / 1000;
        return static_cast<std::int64_t>(std::min<Int128>(milli, detail::preset::kMaxClockMs));
    }
    /// The excess a request at `now_ms` would have: lookup's formula; 0 for a fresh key.
    static std::int64_t excess_at(const Config& c, const State& s, std::int64_t now_ms) {
        if (!s.exists)
            return 0;
        return std::max<std::int64_t>(0, s.excess - drained(c, now_ms - s.last_ms) + 1000);
    }
    /// account's delay for an accepted request with `excess`, in ms.
    static std::int64_t delay_ms(const Config& c, std::int64_t excess) {
        if (excess <= c.delay)
            return 0;
        return static_cast<std::int64_t>(static_cast<Int128>(excess - c.delay) * 1000 / c.rate);
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t, bool) {
        const std::int64_t now_ms = detail::preset::clock_ms(now, c.tick_ms);
        const std::int64_t excess = excess_at(c, s, now_ms);
        if (excess > c.burst)
            return false;
        // `last` moves only when ms is not 0 (469-471), which for a clock that never goes back
        // is the same as always.
        s = State{true, excess, now_ms};
        return true;
    }

    static detail::UnitSegment released_units(const Config& c, const State& s, std::int64_t) {
        // The arrival (s.last_ms, just stored) plus the timer's delay.
        const std::int64_t release_us = (s.last_ms + delay_ms(c, s.excess)) * kUnitsPerMs;
        return detail::UnitSegment{release_us, 1, 1, c.tick_ms * kUnitsPerMs};
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t) {
        // Passes once rate * ms / 1000 >= stored + 1000 - burst, i.e. rate * ms >= that * 1000.
        const std::int64_t need = s.excess + 1000 - c.burst;
        const auto wait_ms =
            static_cast<std::int64_t>((static_cast<Int128>(need) * 1000 + c.rate - 1) / c.rate);
        const std::int64_t now_ms = detail::preset::clock_ms(now, c.tick_ms);
        return detail::preset::ms_as_ticks(std::max<std::int64_t>(0, s.last_ms + wait_ms - now_ms),
                                           c.tick_ms);
    }

    static std::string milli_text(std::int64_t milli) {
        std::string fraction = std::to_string(milli % 1000);
        fraction.insert(0, 3 - fraction.size(), '0');
        return std::to_string(milli / 1000) + "." + fraction;
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        // The excess left at `now`, as the next request would find it before adding its own.
        const std::int64_t now_ms = detail::preset::clock_ms(now, c.tick_ms);
        const std::int64_t left =
            s.exists ? std::max<std::int64_t>(0, s.excess - drained(c, now_ms - s.last_ms)) : 0;
        return LimiterState{{{"excess", Rational(left, 1000)},
                             {"burst", Rational(c.burst, 1000)},
                             {"rate_per_s", Rational(c.rate, 1000)}},
                            (s.exists ? "excess " + milli_text(left) : std::string("no node")) +
                                " / burst " + std::to_string(c.burst / 1000) + ", rate " +
                                milli_text(c.rate) + " r/s"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t) {
        const std::int64_t now_ms = detail::preset::clock_ms(now, c.tick_ms);
        const std::int64_t excess = excess_at(c, s, now_ms);
        std::string text;
        if (!s.exists) {
            text = "new node: excess 0.000";
        } else {
            const std::int64_t ms = now_ms - s.last_ms;
            text = "excess " + milli_text(s.excess) + " - " + std::to_string(c.rate) + " x " +
                   std::to_string(ms) + " ms / 1000 + 1.000 = " + milli_text(excess);
        }
        text += excess <= c.burst ? " <= burst " : " > burst ";
        text += milli_text(c.burst);
        if (excess <= c.burst && delay_ms(c, excess) > 0)
            text += ", delayed " + std::to_string(delay_ms(c, excess)) + " ms";
        return text;
    }
};

}  // namespace

void register_nginx_limit_req(Registry& registry) {
    registry.add(detail::make_preset_info<NginxLimitReq>(
        "nginx limit_req",
        "Excess in milli-requests with truncating integer arithmetic; a fresh key takes burst + 1 "
        "at once; excess beyond delay (all of it unless nodelay) waits on a timer; rejections "
        "answer 503.",
        100, "nginx ngx_http_limit_req_module", "1.22.1"));
}

}  // namespace ratelab
