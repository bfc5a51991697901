#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
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

/// Running totals of a result, kept every kBlock requests: with them, the requests, cost and
/// accepted decisions of any index range cost two lookups and a short scan, so that a zoomed-out
/// timeline sums each pixel column without visiting every request (10 million requests pan and
/// zoom as fast as ten thousand). Built once per result; no Qt.
class ColumnCounts {
public:
    static constexpr std::size_t kBlock = 64;  // requests

    /// With `previous`, built for the result `result` was resimulated from (its edited_from),
    /// only the totals past the edit are worked out again, and those after it from the
    /// previous ones: a few reads per block rather than a pass over every request.
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
    /// (A template, so that the binary searches call it inline: it runs for every column of
    /// every paint.)
    template <typename XOf>
    static std::vector<std::size_t> columnBounds(const Trace& trace, std::size_t first,
                                                 std::size_t last, double column_width,
                                                 double width, const XOf& x_of) {
        const auto columns = static_cast<std::size_t>(width / column_width) + 1;
        std::vector<std::size_t> bounds;
        bounds.reserve(columns + 1);
        const auto begin = trace.requests.begin();
        auto from = begin + static_cast<std::ptrdiff_t>(first);
        const auto to = begin + static_cast<std::ptrdiff_t>(last);
        for (std::size_t c = 0; c <= columns; ++c) {
            const double left = c == columns ? width : static_cast<double>(c) * column_width;
            from = std::partition_point(from, to,
                                        [&](const Request& r) { return x_of(r.tick) < left; });
            bounds.push_back(static_cast<std::size_t>(from - begin));
        }
        return bounds;
    }

    /// Total cost of requests [0, index).
    std::uint64_t costBefore(std::size_t index) const;

private:
    /// Fills the totals of blocks (from, to] by summing their requests; block `from`'s must
    /// be there already.
    void sumBlocks(std::size_t from, std::size_t to);
    /// Whether `previous` describes the trace `result_` was resimulated from, and then the
    /// totals taken over from it.
    bool takeOver(const ColumnCounts& previous);

    std::shared_ptr<const SimulationResult> result_;
    std::vector<std::uint64_t> cost_before_block_;
};

/// Everything a zoomed-out paint shows per summary column: the cost arriving in it and each
/// lane's tally.
struct ColumnSummary {
    std::vector<std::uint64_t> cost;            ///< per column
    std::vector<std::vector<LaneTally>> lanes;  ///< per run, then per column
};

/// Sums the columns [bounds[c], bounds[c + 1]) of `result`, requests from `decided` on counting
/// as not decided. With `counts` (built from `result`) each column costs two lookups; without,
/// the requests are counted one by one, which is cheaper than building ColumnCounts when few
/// are visible (after every edit of a trace that fits the screen).
ColumnSummary summarizeColumns(const SimulationResult& result,
                               const std::vector<std::size_t>& bounds, std::size_t decided,
                               const ColumnCounts* counts);

}  // namespace ratelab::ui
