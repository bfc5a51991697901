#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ratelab/model.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

/// Request indices, sorted ascending, without duplicates.
using IndexList = std::vector<std::size_t>;

// Pure edits of a trace. Each keeps requests in non-decreasing tick order and returns a new
// trace, so that undo commands can be written as exact inverses of each other. The new trace
// shares with `trace` every chunk of requests it does not change (RequestColumn), so an edit
// of a long trace copies little more than the requests around it.

/// Where a request added at `tick` goes: after every request already on that tick.
std::size_t insertionIndex(const Trace& trace, Tick tick);

/// The indices of the requests on `tick`, as [first, last).
struct TickRange {
    std::size_t first = 0;
    std::size_t last = 0;
};
TickRange requestsOnTick(const Trace& trace, Tick tick);
/// The number of requests with tick <= `tick`.
std::size_t countUpTo(const Trace& trace, Tick tick);

/// `trace` with `request` added at `index`; it sets no duration of its own.
Trace withInserted(const Trace& trace, std::size_t index, const Request& request);

struct Removal {
    Trace trace;
    /// The requests taken out, in index order, each with its duration; its keys are not used.
    Trace removed;
};
Removal withRemoved(const Trace& trace, const IndexList& indices);

/// The inverse of withRemoved: puts the requests of `removed` back so that they sit at `indices`
/// again, each with its duration.
Trace withRestored(const Trace& trace, const IndexList& indices, const Trace& removed);

/// What an edit changed, for resimulate(): it took out the requests at `before` (indices in
/// the old trace, of `old_size` requests) and put in those at `after` (indices in the new one,
/// of `new_size`), or changed requests in place (the same indices in both). Nothing when
/// both are empty.
std::optional<TraceChange> changeOf(const IndexList& before, std::size_t old_size,
                                    const IndexList& after, std::size_t new_size);
/// The change of an edit of the requests at `indices` in place, in a trace of `size` requests.
inline std::optional<TraceChange> changeInPlace(const IndexList& indices, std::size_t size) {
    return changeOf(indices, size, indices, size);
}

/// Keeps a move of `indices` by `delta` ticks inside [0, bounds::kMaxTick].
Tick clampMoveDelta(const Trace& trace, const IndexList& indices, Tick delta);

struct Move {
    Trace trace;
    IndexList indices;  ///< where the moved requests are now
};
/// Moves the requests at `indices` by `delta` ticks (already clamped). Moved requests keep their
/// relative order and go after the requests that were already on their new tick.
Move withMoved(const Trace& trace, const IndexList& indices, Tick delta);

/// Sets the cost of each request at `indices` to the matching entry of `costs`.
Trace withCosts(const Trace& trace, const IndexList& indices,
                const std::vector<std::uint32_t>& costs);
std::vector<std::uint32_t> costsAt(const Trace& trace, const IndexList& indices);

/// Sets the duration of each request at `indices` to the matching entry of `durations` (0: the
/// concurrency lane's own).
Trace withDurations(const Trace& trace, const IndexList& indices,
                    const std::vector<Tick>& durations);
std::vector<Tick> durationsAt(const Trace& trace, const IndexList& indices);

/// Gives each request at `indices` the key `key`, added to the key table when it is new.
Trace withKey(const Trace& trace, const IndexList& indices, std::string_view key);
/// Gives each request at `indices` the matching key id of `keys`, with `table` as the key table.
Trace withKeyIds(const Trace& trace, const IndexList& indices, const std::vector<KeyId>& keys,
                 const std::vector<std::string>& table);
std::vector<KeyId> keysAt(const Trace& trace, const IndexList& indices);

/// Drops indices that are out of range and sorts the rest.
IndexList normalized(IndexList indices, std::size_t size);

}  // namespace ratelab::ui
