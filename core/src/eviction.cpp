// Idle keys dropped: the schedule of evictions, and each lane decided again through its
// limiters (limiter.h), forgetting keys as the schedule says.
#include "ratelab/eviction.h"

#include <charconv>
#include <limits>
#include <list>
#include <queue>
#include <unordered_map>

#include "ratelab/limiter.h"
#include "ratelab/limits.h"
#include "ratelab/simulation.h"

namespace ratelab {

namespace {

/// A whole number of at least 1 after "NAME=", or a message.
std::variant<std::int64_t, std::string> positive(std::string_view name, std::string_view text,
                                                 std::int64_t most) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > most) {
        return std::string(name) + " takes a whole number from 1 to " + std::to_string(most) +
               ", not \"" + std::string(text) + "\"";
    }
    return value;
}

/// Records that `held` keys are kept from `at` on: one entry per tick, the last word standing.
void note_held(EvictionSchedule& schedule, Tick at, std::int64_t held) {
    if (!schedule.held.empty() && schedule.held.back().first == at)
        schedule.held.back().second = held;
    else
        schedule.held.emplace_back(at, held);
    schedule.peak_held = std::max(schedule.peak_held, held);
}

EvictionSchedule idle_schedule(const Trace& trace, Tick idle) {
    EvictionSchedule out;
    std::vector<std::optional<Tick>> last(trace.keys.size());  // of the keys held
    // (tick the key falls idle, key): a key seen again since leaves a stale entry behind.
    using Due = std::pair<Tick, KeyId>;
    std::priority_queue<Due, std::vector<Due>, std::greater<>> due;
    std::int64_t held = 0;
    const auto drop_until = [&](Tick now, std::size_t before) {
        while (!due.empty() && due.top().first <= now) {
            const auto [at, key] = due.top();
            due.pop();
            if (!last[key] || *last[key] + idle != at)
                continue;  // seen again since, or dropped already
            last[key].reset();
            out.events.push_back(EvictionEvent{before, key, at});
            note_held(out, at, --held);
        }
    };
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& r = trace.requests[i];
        drop_until(r.tick, i);
        if (!last[r.key])
            note_held(out, r.tick, ++held);
        last[r.key] = r.tick;
        due.emplace(r.tick + idle, r.key);
    }
    drop_until(std::numeric_limits<Tick>::max(), trace.requests.size());  // ticks stay below 10^12
    return out;
}

EvictionSchedule lru_schedule(const Trace& trace, std::int64_t most) {
    EvictionSchedule out;
    std::list<KeyId> recency;  // most recently used first
    std::unordered_map<KeyId, std::list<KeyId>::iterator> where;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& r = trace.requests[i];
        if (const auto found = where.find(r.key); found != where.end()) {
            recency.splice(recency.begin(), recency, found->second);
            continue;
        }
        if (static_cast<std::int64_t>(recency.size()) == most) {
            out.events.push_back(EvictionEvent{i, recency.back(), r.tick});
            where.erase(recency.back());
            recency.pop_back();
        }
        recency.push_front(r.key);
        where.emplace(r.key, recency.begin());
        note_held(out, r.tick, static_cast<std::int64_t>(recency.size()));
    }
    return out;
}

/// The largest cost a request of `key` arriving at `at` would be accepted with (0 for none).
std::int64_t largest_passing(const Limiter& limiter, KeyId key, Tick at) {
    std::int64_t passes = 0;
    std::int64_t fails = bounds::kMaxCost + 1;
    while (fails - passes > 1) {
        const std::int64_t cost = passes + (fails - passes) / 2;
        (limiter.peek(key, at, cost).accepted ? passes : fails) = cost;
    }
    return passes;
}

/// Whether `key` in `limiter` still differs at `at` from a key never seen (`fresh`): a request
/// arriving then would be decided otherwise, at cost 1 (with another delay or retry time, say)
/// or at the largest cost either lets through. Compared by decisions, not by the states'
/// numbers, which can differ where nothing follows from it (GCRA's theoretical arrival time in
/// the past).
bool still_remembers(const Limiter& limiter, const Limiter& fresh, KeyId key, Tick at) {
    return limiter.peek(key, at, 1) != fresh.peek(key, at, 1) ||
           largest_passing(limiter, key, at) != largest_passing(fresh, key, at);
}

}  // namespace

std::variant<Eviction, std::string> parse_eviction(std::string_view text) {
    Eviction eviction;
    if (text == "keep")
        return eviction;
    const std::size_t equals = text.find('=');
    const std::string_view name = text.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : text.substr(equals + 1);
    if (name == "idle" || name == "lru") {
        const auto number = positive(
            name, value,
            name == "idle" ? bounds::kMaxTick : static_cast<std::int64_t>(bounds::kMaxKeys));
        if (const auto* error = std::get_if<std::string>(&number))
            return *error;
        if (name == "idle") {
            eviction.kind = Eviction::Kind::idle;
            eviction.idle_ticks = std::get<std::int64_t>(number);
        } else {
            eviction.kind = Eviction::Kind::lru;
            eviction.max_keys = std::get<std::int64_t>(number);
        }
        return eviction;
    }
    return "the eviction must be keep, idle=T (ticks) or lru=M (keys), not \"" + std::string(text) +
           "\"";
}

std::string to_string(const Eviction& eviction) {
    switch (eviction.kind) {
        case Eviction::Kind::keep_all:
            return "keep";
        case Eviction::Kind::idle:
            return "idle=" + std::to_string(eviction.idle_ticks);
        case Eviction::Kind::lru:
            return "lru=" + std::to_string(eviction.max_keys);
    }
    return {};
}

EvictionSchedule eviction_schedule(const Trace& trace, const Eviction& eviction) {
    switch (eviction.kind) {
        case Eviction::Kind::idle:
            return idle_schedule(trace, eviction.idle_ticks);
        case Eviction::Kind::lru:
            return lru_schedule(trace, eviction.max_keys);
        case Eviction::Kind::keep_all:
            break;
    }
    // Nothing dropped: room for every key, so the keys held are the keys seen so far.
    return lru_schedule(trace, static_cast<std::int64_t>(trace.keys.size()) + 1);
}

EvictionLane evict_lane(const SimulationResult& kept, std::size_t lane,
                        const EvictionSchedule& schedule) {
    const Trace& trace = *kept.trace;
    const AlgorithmRun& run = kept.runs.at(lane);
    if (run.decisions.size() != trace.requests.size())
        throw SimulationError("eviction compares with every decision: run without --summary");
    const std::vector<EvictionEvent>& events = schedule.events;
    EvictionLane figures;
    figures.label = run.label;
    const auto limiter = make_limiter(trace, kept.params, kept.lanes[lane]);
    const auto fresh = make_limiter(trace, kept.params, kept.lanes[lane]);
    std::size_t next = 0;
    const auto drop_before = [&](std::size_t index) {
        for (; next < events.size() && events[next].before <= index; ++next) {
            const EvictionEvent& event = events[next];
            ++figures.evictions;
            if (still_remembers(*limiter, *fresh, event.key, event.at)) {
                ++figures.early_evictions;
                if (!figures.first_early)
                    figures.first_early.emplace(trace.key_name(event.key), event.at);
            }
            limiter->forget(event.key);
        }
    };
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        drop_before(i);
        const Request& r = trace.requests[i];
        const Decision decided = limiter->decide(r.key, r.tick, r.cost, trace.duration(i));
        const Decision before = run.decision(trace, i);
        if (decided == before)
            continue;
        figures.changed.push_back(i);
        if (decided.accepted != before.accepted)
            ++(decided.accepted ? figures.extra_accepted : figures.extra_rejected);
        else
            ++figures.other_changes;
    }
    drop_before(trace.requests.size());
    return figures;
}

EvictionResult simulate_eviction(const SimulationResult& kept, const Eviction& eviction) {
    EvictionResult out;
    out.eviction = eviction;
    out.schedule = eviction_schedule(*kept.trace, eviction);
    for (std::size_t lane = 0; lane < kept.runs.size(); ++lane)
        out.lanes.push_back(evict_lane(kept, lane, out.schedule));
    return out;
}

}  // namespace ratelab
