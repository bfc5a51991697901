#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "ratelab/simulation.h"

namespace ratelab::ui {

/// What falls into one pixel column of a zoomed-out timeline.
struct ColumnTally {
    std::uint32_t requests = 0;
    std::uint64_t cost = 0;
};

/// A lane's column: its decided requests split by outcome, and those the clock has not reached.
struct LaneTally {
    std::uint32_t accepted = 0;
    std::uint32_t rejected = 0;
    std::uint32_t pending = 0;
};

/// Running totals of a result's cost, kept every kBlock requests: with them, the requests, cost
/// and accepted decisions of any index range cost two lookups and a short scan, so that a
/// zoomed-out timeline sums each pixel column without visiting every request (10 million requests
/// pan and zoom as fast as ten thousand). No Qt.
///
/// The totals are kept chunk by chunk of the trace's requests (RequestColumn), each chunk's
/// from its own first request, and shared between counts whose traces share the chunk: after
/// an edit only the chunks the edit copied are summed again, and after a change of the
/// parameters (the same trace) none.
class ColumnCounts {
public:
    static constexpr std::size_t kBlock = 64;  // requests

    /// With `previous` (the counts of any result, typically the one `result` was resimulated
    /// from), the totals of each chunk the two traces share are taken over, and so are the
    /// bounds viewColumns() found last.
    explicit ColumnCounts(std::shared_ptr<const SimulationResult> result,
                          const ColumnCounts* previous = nullptr);

    const std::shared_ptr<const SimulationResult>& result() const { return result_; }

    /// Total cost of requests [begin, end).
    std::uint64_t cost(std::size_t begin, std::size_t end) const;
    /// Requests in [begin, end) that run `run` accepted.
    std::uint32_t accepted(std::size_t run, std::size_t begin, std::size_t end) const;
    /// The lane tally of [begin, end) when requests from `decided` on are not yet decided.
    LaneTally lane(std::size_t run, std::size_t begin, std::size_t end, std::size_t decided) const;

    /// Where each column starts: `bounds[c]` is the first request in [first, last) whose x is at
    /// least c * column_width, and the final entry is the first at or right of `width`. Requests
    /// left of x = 0 belong to no column. `x_of(tick)` gives a tick's x and must not decrease.
    /// `hint`, when given, holds a guess at each bound: one is taken where it parts the
    /// requests left of its column from those in it (two reads), and searched for where not.
    /// (A template, so that the binary searches call it inline: it runs for every column of
    /// every paint.)
    template <typename XOf>
    static std::vector<std::size_t> columnBounds(const Trace& trace, std::size_t first,
                                                 std::size_t last, double column_width,
                                                 double width, const XOf& x_of,
                                                 const std::vector<std::size_t>& hint = {}) {
        const auto columns = static_cast<std::size_t>(width / column_width) + 1;
        std::vector<std::size_t> bounds;
        bounds.reserve(columns + 1);
        const auto& requests = trace.requests;
        const auto begin = requests.begin();
        auto from = begin + static_cast<std::ptrdiff_t>(first);
        const auto to = begin + static_cast<std::ptrdiff_t>(last);
        for (std::size_t c = 0; c <= columns; ++c) {
            const double left = c == columns ? width : static_cast<double>(c) * column_width;
            const auto before = [&](const Request& r) { return x_of(r.tick) < left; };
            if (c < hint.size()) {
                // The requests are in order of x: the bound is the one place in [from, to)
                // with every request before it left of the column and none from it on.
                const std::size_t guess = hint[c];
                const auto low = static_cast<std::size_t>(from - begin);
                if (guess >= low && guess <= last &&
                    (guess == low || before(requests[guess - 1])) &&
                    (guess == last || !before(requests[guess]))) {
                    from = begin + static_cast<std::ptrdiff_t>(guess);
                    bounds.push_back(guess);
                    continue;
                }
            }
            from = std::partition_point(from, to, before);
            bounds.push_back(static_cast<std::size_t>(from - begin));
        }
        return bounds;
    }

    /// What places the requests in columns: the axis (its first time and scale), the width and
    /// the columns'.
    struct View {
        double first_time = 0.0;
        double pixels_per_tick = 0.0;
        double width = 0.0;
        double column_width = 0.0;
        friend bool operator==(const View&, const View&) = default;
    };
    /// columnBounds() of this result's trace in `view`, with `x_of` its x of a tick. The bounds
    /// last found in the same view, on this result or on the one these counts were built from
    /// (moved past an edit), are the hint: after an edit or a change of the parameters, most
    /// columns are found with two reads rather than a binary search over millions.
    template <typename XOf>
    std::vector<std::size_t> viewColumns(const View& view, std::size_t first, std::size_t last,
                                         const XOf& x_of) const {
        std::vector<std::size_t> hint;
        {
            const std::lock_guard lock(found_mutex_);
            if (found_ && found_->view == view)
                hint = found_->bounds;
        }
        std::vector<std::size_t> bounds =
            columnBounds(*result_->trace, first, last, view.column_width, view.width, x_of, hint);
        const std::lock_guard lock(found_mutex_);
        found_ = Found{view, bounds};
        return bounds;
    }

    /// Total cost of requests [0, index).
    std::uint64_t costBefore(std::size_t index) const;
    /// How many chunks of totals this shares with `other`.
    std::size_t sharedChunks(const ColumnCounts& other) const;

private:
    /// One chunk's totals: entry b is the cost of its requests before its request b * kBlock,
    /// and the last the cost of all of them.
    using ChunkTotals = std::vector<std::uint64_t>;

    /// Takes over what `previous` found last, its indices moved to this result's trace.
    void takeFound(const ColumnCounts& previous);

    std::shared_ptr<const SimulationResult> result_;
    /// Per chunk of the trace's requests, its totals, and what identifies the chunk.
    std::vector<std::shared_ptr<const ChunkTotals>> chunk_totals_;
    std::vector<const void*> chunk_ids_;
    /// The cost of the requests before each chunk, and of all of them.
    std::vector<std::uint64_t> cost_before_chunk_;

    /// The bounds viewColumns() found last, and in which view.
    struct Found {
        View view;
        std::vector<std::size_t> bounds;
    };
    mutable std::mutex found_mutex_;
    mutable std::optional<Found> found_;
};

/// Everything a zoomed-out paint shows per summary column: the cost arriving in it and each
/// lane's tally.
struct ColumnSummary {
    std::vector<std::uint64_t> cost;            ///< per column
    std::vector<std::vector<LaneTally>> lanes;  ///< per run, then per column
};

/// Sums the columns [bounds[c], bounds[c + 1]) of `result`, requests from `decided` on counting
/// as not decided. With `counts` (built from `result`) each bound costs a lookup; without,
/// the requests are counted one by one, which is cheaper than building ColumnCounts when few
/// are visible (after every edit of a trace that fits the screen).
ColumnSummary summarizeColumns(const SimulationResult& result,
                               const std::vector<std::size_t>& bounds, std::size_t decided,
                               const ColumnCounts* counts);

}  // namespace ratelab::ui
