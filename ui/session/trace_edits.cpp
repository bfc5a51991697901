#include "session/trace_edits.h"

#include <algorithm>
#include <limits>

#include "ratelab/limits.h"

namespace ratelab::ui {

namespace {

bool tickLess(const Request& request, Tick tick) {
    return request.tick < tick;
}
bool tickGreater(Tick tick, const Request& request) {
    return tick < request.tick;
}

/// A trace with the keys of `trace` and no requests, to hold an edit of it of about `size`.
Trace emptied(const Trace& trace, std::size_t size) {
    Trace into;
    into.keys = trace.keys;
    into.requests.reserve(size);
    if (!trace.durations.empty())
        into.durations.reserve(size);
    return into;
}

}  // namespace

std::size_t insertionIndex(const Trace& trace, Tick tick) {
    const auto& r = trace.requests;
    return static_cast<std::size_t>(std::upper_bound(r.begin(), r.end(), tick, tickGreater) -
                                    r.begin());
}

TickRange requestsOnTick(const Trace& trace, Tick tick) {
    const auto& r = trace.requests;
    const auto first = std::lower_bound(r.begin(), r.end(), tick, tickLess);
    const auto last = std::upper_bound(first, r.end(), tick, tickGreater);
    return {static_cast<std::size_t>(first - r.begin()),
            static_cast<std::size_t>(last - r.begin())};
}

std::size_t countUpTo(const Trace& trace, Tick tick) {
    return insertionIndex(trace, tick);
}

Trace withInserted(const Trace& trace, std::size_t index, const Request& request) {
    // Built from the stretches on either side: the chunks they hold whole are shared.
    Trace result = emptied(trace, trace.requests.size() + 1);
    result.append_range(trace, 0, index);
    result.append(request, 0);
    result.append_range(trace, index, trace.requests.size());
    return result;
}

Removal withRemoved(const Trace& trace, const IndexList& indices) {
    Removal removal;
    removal.trace = emptied(trace, trace.requests.size() - indices.size());
    removal.removed.requests.reserve(indices.size());
    std::size_t kept_from = 0;  // the first request of the stretch kept whole
    for (const std::size_t index : indices) {
        removal.trace.append_range(trace, kept_from, index);
        removal.removed.append_from(trace, index);
        kept_from = index + 1;
    }
    removal.trace.append_range(trace, kept_from, trace.requests.size());
    return removal;
}

Trace withRestored(const Trace& trace, const IndexList& indices, const Trace& removed) {
    Trace result = emptied(trace, trace.requests.size() + removed.requests.size());
    std::size_t kept = 0;  // requests of `trace` taken so far
    for (std::size_t next = 0; next < indices.size(); ++next) {
        // Before the restored request at indices[next]: that many requests of `trace` in all.
        const std::size_t upto = indices[next] - next;
        result.append_range(trace, kept, upto);
        kept = upto;
        result.append_from(removed, next);
    }
    result.append_range(trace, kept, trace.requests.size());
    return result;
}

std::optional<TraceChange> changeOf(const IndexList& before, std::size_t old_size,
                                    const IndexList& after, std::size_t new_size) {
    if (before.empty() && after.empty())
        return std::nullopt;
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    const std::size_t first =
        std::min(before.empty() ? kNone : before.front(), after.empty() ? kNone : after.front());
    const std::size_t tail = std::min(before.empty() ? kNone : old_size - 1 - before.back(),
                                      after.empty() ? kNone : new_size - 1 - after.back());
    return TraceChange{first, tail};
}

Tick clampMoveDelta(const Trace& trace, const IndexList& indices, Tick delta) {
    if (indices.empty()) {
        return 0;
    }
    // Indices are sorted and the trace is in tick order, so the ends hold the extreme ticks.
    const Tick lowest = trace.requests[indices.front()].tick;
    const Tick highest = trace.requests[indices.back()].tick;
    return std::clamp(delta, -lowest, bounds::kMaxTick - highest);
}

Move withMoved(const Trace& trace, const IndexList& indices, Tick delta) {
    // The requests that stay, in stretches between the moved ones, merged with the moved ones
    // (in tick order already) in one pass: each moved request goes after those already on its
    // new tick.
    Move move;
    move.trace = emptied(trace, trace.requests.size());
    move.indices.reserve(indices.size());
    std::size_t stay = 0;     // the next request that may stay, unless it is moved
    std::size_t skipped = 0;  // moved requests passed over by `stay`
    // Copies the staying requests from `stay` up to those on a tick after `tick`.
    const auto keepUpTo = [&](Tick tick) {
        while (stay < trace.requests.size()) {
            if (skipped < indices.size() && indices[skipped] == stay) {
                ++skipped;
                ++stay;
                continue;
            }
            const std::size_t stop =
                skipped < indices.size() ? indices[skipped] : trace.requests.size();
            // Requests [stay, stop) all stay: copy those on ticks up to `tick` in one go.
            const auto first = trace.requests.begin() + static_cast<std::ptrdiff_t>(stay);
            const auto last =
                std::upper_bound(first, trace.requests.begin() + static_cast<std::ptrdiff_t>(stop),
                                 tick, tickGreater);
            const auto upto = static_cast<std::size_t>(last - trace.requests.begin());
            move.trace.append_range(trace, stay, upto);
            stay = upto;
            if (upto < stop)
                return;
        }
    };
    for (const std::size_t index : indices) {
        Request request = trace.requests[index];
        request.tick += delta;
        keepUpTo(request.tick);
        move.indices.push_back(move.trace.requests.size());
        move.trace.append(request, trace.duration(index));
    }
    keepUpTo(std::numeric_limits<Tick>::max());
    return move;
}

Trace withCosts(const Trace& trace, const IndexList& indices,
                const std::vector<std::uint32_t>& costs) {
    Trace result = trace;  // shares every chunk of requests until one is changed
    for (std::size_t i = 0; i < indices.size(); ++i) {
        result.requests[indices[i]].cost = costs[i];
    }
    return result;
}

Trace withDurations(const Trace& trace, const IndexList& indices,
                    const std::vector<Tick>& durations) {
    Trace result = trace;  // shares every chunk of requests until one is changed
    for (std::size_t i = 0; i < indices.size(); ++i) {
        result.set_duration(indices[i], durations[i]);
    }
    // No request sets one any more: the trace drops the column, as a loaded one would have none.
    if (std::all_of(result.durations.begin(), result.durations.end(),
                    [](Tick d) { return d == 0; })) {
        result.durations.clear();
    }
    return result;
}

std::vector<Tick> durationsAt(const Trace& trace, const IndexList& indices) {
    std::vector<Tick> durations;
    durations.reserve(indices.size());
    for (const std::size_t index : indices) {
        durations.push_back(trace.duration(index));
    }
    return durations;
}

std::vector<std::uint32_t> costsAt(const Trace& trace, const IndexList& indices) {
    std::vector<std::uint32_t> costs;
    costs.reserve(indices.size());
    for (const std::size_t index : indices) {
        costs.push_back(trace.requests[index].cost);
    }
    return costs;
}

Trace withKey(const Trace& trace, const IndexList& indices, std::string_view key) {
    Trace result = trace;  // shares every chunk of requests until one is changed
    KeyId id = 0;
    if (const auto found = trace.find_key(key)) {
        id = *found;
    } else {
        id = static_cast<KeyId>(result.keys.size());
        result.keys.emplace_back(key);
    }
    for (const std::size_t index : indices) {
        result.requests[index].key = id;
    }
    return result;
}

Trace withKeyIds(const Trace& trace, const IndexList& indices, const std::vector<KeyId>& keys,
                 const std::vector<std::string>& table) {
    Trace result = trace;  // shares every chunk of requests until one is changed
    result.keys = table;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        result.requests[indices[i]].key = keys[i];
    }
    return result;
}

std::vector<KeyId> keysAt(const Trace& trace, const IndexList& indices) {
    std::vector<KeyId> keys;
    keys.reserve(indices.size());
    for (const std::size_t index : indices) {
        keys.push_back(trace.requests[index].key);
    }
    return keys;
}

IndexList normalized(IndexList indices, std::size_t size) {
    std::erase_if(indices, [size](std::size_t index) { return index >= size; });
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    return indices;
}

}  // namespace ratelab::ui
