// leaky_bucket: a FIFO queue that lets one cost unit through every D ticks; it delays traffic
// to fit instead of rejecting it, and rejects only when the queue is full.
#include <algorithm>
#include <string>

#include "basic_algorithm.h"
#include "ratelab/tick_text.h"

namespace ratelab {
namespace {

struct LeakyBucket {
    static constexpr std::string_view kId = "leaky_bucket";
    static constexpr bool kShapes = true;
    /// What a key's state holds, in numbers (the report's "What it costs").
    static StateSize state_size() {
        return {1, StateSize::Grows::per_queued_request,
                "when its queue empties, and each request waiting in it"};
    }

    // Time is kept in units of 1/scale ticks so that the drain interval D is a whole number.
    struct Config {
        std::int64_t queue_size;  // Q
        std::int64_t interval;    // D, scaled
        std::int64_t scale;
    };
    struct State {
        bool started = false;
        std::int64_t first_unit = 0;  // start of the last accepted request's first unit, scaled
        std::int64_t last_unit = 0;   // start of its last unit: the request's release, scaled
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        return {whole_parameter("queue_size", "Queue size", ParamUnit::cost_units,
                                default_rules::limit(), "cost units the queue holds"),
                rational_parameter("drain_interval", "Drain interval", ParamUnit::ticks_per_unit,
                                   default_rules::window_per_limit(),
                                   "ticks between two released cost units")};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<LeakyBucket> read(limits);
        const std::int64_t queue = read.whole("queue_size");
        const Rational d = read.rational("drain_interval");
        return Config{queue, d.num(), d.den()};
    }
    static State initial(const Config&) { return State{}; }
    static ShaperLaw shaper_law(const Config& c) {
        return ShaperLaw{Rational(c.interval, c.scale), c.queue_size};
    }

    /// Units accepted but not yet started at `now`: the tail of the last busy run.
    static std::int64_t queued_at(const Config& c, const State& s, Tick now) {
        const std::int64_t now_scaled = now * c.scale;
        if (!s.started || s.last_unit <= now_scaled)
            return 0;
        return (s.last_unit - now_scaled + c.interval - 1) / c.interval;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost, bool) {
        // queued + cost <= Q, with queued = ceil((last - now) / D), is last - now <= (Q - cost) *
        // D.
        const std::int64_t now_scaled = now * c.scale;
        if (cost > c.queue_size ||
            (s.started && s.last_unit - now_scaled > (c.queue_size - cost) * c.interval)) {
            return false;
        }
        s.first_unit = s.started ? std::max(now_scaled, s.last_unit + c.interval) : now_scaled;
        s.last_unit = s.first_unit + (cost - 1) * c.interval;
        s.started = true;
        return true;
    }

    /// Queues `cost` units behind the others even past the queue's size (a fleet's store
    /// merging charges).
    static void charge(const Config& c, State& s, Tick now, std::int64_t cost) {
        const std::int64_t now_scaled = now * c.scale;
        s.first_unit = s.started ? std::max(now_scaled, s.last_unit + c.interval) : now_scaled;
        s.last_unit = s.first_unit + (cost - 1) * c.interval;
        s.started = true;
    }

    static detail::UnitSegment released_units(const Config& c, const State& s, std::int64_t cost) {
        return detail::UnitSegment{s.first_unit, cost, c.interval, c.scale};
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.queue_size)
            return std::nullopt;
        // Wait until at most Q - cost units are still queued.
        return Rational(s.last_unit - now * c.scale - (c.queue_size - cost) * c.interval, c.scale);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t queued = queued_at(c, s, now);
        const Rational interval(c.interval, c.scale);
        LimiterState state{{{"queued", Rational(queued)},
                            {"queue_size", Rational(c.queue_size)},
                            {"drain_interval", interval}},
                           "queue " + std::to_string(queued) + "/" + std::to_string(c.queue_size)};
        if (queued > 0) {
            const Rational next(s.last_unit - (queued - 1) * c.interval, c.scale);
            state.fields.push_back({"next_release", next});
            state.summary += ", next release at " + next.to_short();
        } else {
            state.summary += ", drains 1 per " + ticks_text(interval.to_short());
        }
        return state;
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t queued = queued_at(c, s, now);
        return "queue " + std::to_string(queued) + " + cost " + std::to_string(cost) + " = " +
               std::to_string(queued + cost) + (queued + cost <= c.queue_size ? " <= " : " > ") +
               std::to_string(c.queue_size);
    }
};

}  // namespace

void register_leaky_bucket(Registry& registry) {
    registry.add(detail::make_info<LeakyBucket>(
        "Leaky bucket",
        "Queues requests and lets one cost unit through every D ticks: smooth output, paid for "
        "in delay; rejects only when the queue of Q units is full.",
        50));
}

}  // namespace ratelab
