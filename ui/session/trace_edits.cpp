#include "session/trace_edits.h"

#include <algorithm>

#include "ratelab/limits.h"

namespace ratelab::ui {

namespace {

bool tickLess(const Request& request, Tick tick) {
    return request.tick < tick;
}
bool tickGreater(Tick tick, const Request& request) {
    return tick < request.tick;
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
    Trace result = trace;
    result.requests.insert(result.requests.begin() + static_cast<std::ptrdiff_t>(index), request);
    if (!result.durations.empty())
        result.durations.insert(result.durations.begin() + static_cast<std::ptrdiff_t>(index), 0);
    return result;
}

Removal withRemoved(const Trace& trace, const IndexList& indices) {
    Removal removal;
    removal.trace.keys = trace.keys;
    removal.trace.requests.reserve(trace.requests.size() - indices.size());
    removal.removed.requests.reserve(indices.size());
    std::size_t next = 0;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (next < indices.size() && indices[next] == i) {
            removal.removed.append_from(trace, i);
            ++next;
        } else {
            removal.trace.append_from(trace, i);
        }
    }
    return removal;
}

Trace withRestored(const Trace& trace, const IndexList& indices, const Trace& removed) {
    Trace result;
    result.keys = trace.keys;
    const std::size_t total = trace.requests.size() + removed.requests.size();
    result.requests.reserve(total);
    std::size_t next = 0;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < total; ++i) {
        if (next < indices.size() && indices[next] == i) {
            result.append_from(removed, next++);
        } else {
            result.append_from(trace, kept++);
        }
    }
    return result;
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
    Removal removal = withRemoved(trace, indices);
    for (Request& request : removal.removed.requests) {
        request.tick += delta;
    }
    // Merge the moved requests (already in tick order) back in, after equal ticks.
    Move move;
    move.trace.keys = trace.keys;
    move.trace.requests.reserve(trace.requests.size());
    move.indices.reserve(indices.size());
    const Trace& rest = removal.trace;
    std::size_t r = 0;
    for (std::size_t m = 0; m < removal.removed.requests.size(); ++m) {
        while (r < rest.requests.size() &&
               rest.requests[r].tick <= removal.removed.requests[m].tick) {
            move.trace.append_from(rest, r++);
        }
        move.indices.push_back(move.trace.requests.size());
        move.trace.append_from(removal.removed, m);
    }
    while (r < rest.requests.size())
        move.trace.append_from(rest, r++);
    return move;
}

Trace withCosts(const Trace& trace, const IndexList& indices,
                const std::vector<std::uint32_t>& costs) {
    Trace result = trace;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        result.requests[indices[i]].cost = costs[i];
    }
    return result;
}

Trace withDurations(const Trace& trace, const IndexList& indices,
                    const std::vector<Tick>& durations) {
    Trace result = trace;
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
    Trace result = trace;
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
    Trace result = trace;
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
