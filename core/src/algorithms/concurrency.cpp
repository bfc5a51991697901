// concurrency: limits the cost units in flight per key rather than the rate. A request holds its
// units from its tick for `duration` ticks; it is accepted iff the units still in flight plus
// its cost fit in max_in_flight. "Ten requests a second that each take thirty seconds are three
// hundred in flight": a rate limit of ten a second lets all of them through.
//
// A request may set its own duration (the trace's "duration" field); the others hold for the
// lane's `duration` parameter. The units in flight are kept in order of the tick they end: with
// one duration for all, that is the order they were accepted, and each holding joins at the back.
#include <algorithm>
#include <deque>
#include <string>

#include "basic_algorithm.h"
#include "ratelab/limits.h"
#include "ratelab/tick_text.h"

namespace ratelab {
namespace {

struct Concurrency {
    static constexpr std::string_view kId = "concurrency";
    static constexpr bool kShapes = false;
    static StateSize state_size() {
        return {1, StateSize::Grows::per_request_in_window,
                "the end and cost of each request still in flight"};
    }

    struct Config {
        std::int64_t max_in_flight;
        Tick duration;
    };
    struct Holding {
        Tick end;  // the first tick at which its units are free again
        std::int64_t cost;
        friend bool operator==(const Holding&, const Holding&) = default;
    };
    struct State {
        std::deque<Holding> in_flight;  // in order of `end`
        std::int64_t units = 0;         // summed over in_flight
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        ParameterInfo duration = whole_parameter(
            "duration", "Duration", ParamUnit::ticks,
            DefaultRule{"W", [](const ParamContext& c) { return ParamValue(Rational(c.window)); }},
            "ticks each request holds its units");
        duration.max = Rational(bounds::kMaxWindow);
        return {whole_parameter("max_in_flight", "Max in flight", ParamUnit::cost_units,
                                default_rules::limit(), "cost units a key may have in flight"),
                std::move(duration)};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<Concurrency> read(limits);
        return Config{read.whole("max_in_flight"), read.whole("duration")};
    }
    static State initial(const Config&) { return State{}; }

    /// The units still in flight at `now`, the finished ones left out.
    static std::int64_t held(const State& s, Tick now) {
        std::int64_t units = s.units;
        for (const Holding& h : s.in_flight) {
            if (h.end > now)
                break;
            units -= h.cost;
        }
        return units;
    }

    static bool decide(const Config& c, State& s, Tick now, std::int64_t cost,
                       bool rejections_count) {
        return decide_holding(c, s, now, cost, 0, rejections_count);
    }

    /// `duration`: the request's own (> 0), or 0 for the lane's.
    static bool decide_holding(const Config& c, State& s, Tick now, std::int64_t cost,
                               Tick duration, bool) {
        while (!s.in_flight.empty() && s.in_flight.front().end <= now) {
            s.units -= s.in_flight.front().cost;
            s.in_flight.pop_front();
        }
        if (s.units + cost > c.max_in_flight)
            return false;
        const Tick end = now + (duration > 0 ? duration : c.duration);
        if (s.in_flight.empty() || s.in_flight.back().end <= end) {
            s.in_flight.push_back(Holding{end, cost});
        } else {
            const auto at = std::upper_bound(s.in_flight.begin(), s.in_flight.end(), end,
                                             [](Tick e, const Holding& h) { return e < h.end; });
            s.in_flight.insert(at, Holding{end, cost});
        }
        s.units += cost;
        return true;
    }

    static std::optional<Rational> retry_after(const Config& c, const State& s, Tick now,
                                               std::int64_t cost) {
        if (cost > c.max_in_flight)
            return std::nullopt;
        // The first finish after which enough units are free.
        std::int64_t units = s.units;
        for (const Holding& h : s.in_flight) {
            units -= h.cost;
            if (h.end > now && units + cost <= c.max_in_flight)
                return Rational(h.end - now);
        }
        return Rational(0);
    }

    static LimiterState describe(const Config& c, const State& s, Tick now) {
        const std::int64_t units = held(s, now);
        // When the first units in flight are free again: the requests may hold for durations
        // of their own, so that is not always the oldest's tick plus the lane's duration.
        std::string next_free;
        for (const Holding& h : s.in_flight) {
            if (h.end > now) {
                next_free = ", next free at t = " + std::to_string(h.end);
                break;
            }
        }
        return LimiterState{{{"in_flight", Rational(units)},
                             {"max_in_flight", Rational(c.max_in_flight)},
                             {"duration", Rational(c.duration)}},
                            "in flight " + std::to_string(units) + " / " +
                                std::to_string(c.max_in_flight) + next_free + ", each for " +
                                ticks_text(c.duration) + " unless it sets its own"};
    }

    static std::string check(const Config& c, const State& s, Tick now, std::int64_t cost) {
        const std::int64_t units = held(s, now);
        const bool fits = units + cost <= c.max_in_flight;
        return "in flight " + std::to_string(units) + " + cost " + std::to_string(cost) + " = " +
               std::to_string(units + cost) + (fits ? " <= " : " > ") +
               std::to_string(c.max_in_flight);
    }
};

}  // namespace

void register_concurrency(Registry& registry) {
    AlgorithmInfo info = detail::make_info<Concurrency>(
        "Concurrency",
        "Holds each request's cost for its duration; accepts while the units in flight plus the "
        "cost fit in max_in_flight: a limit on concurrency, not rate.",
        70);
    // Not a rate limiter: a lane one adds, never one of the default lanes.
    info.opt_in = true;
    registry.add(std::move(info));
}

}  // namespace ratelab
