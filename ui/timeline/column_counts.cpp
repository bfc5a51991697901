#include "timeline/column_counts.h"

#include <algorithm>

namespace ratelab::ui {

ColumnCounts::ColumnCounts(std::shared_ptr<const SimulationResult> result)
    : result_(std::move(result)) {
    // Running totals at every block boundary, block by block: the inner loops have no
    // boundary test, so the compiler can vectorise them (this runs after every edit).
    const auto& requests = result_->trace->requests;
    const std::size_t size = requests.size();
    const std::size_t blocks = size / kBlock + 1;
    cost_before_block_.reserve(blocks);
    std::uint64_t cost = 0;
    for (std::size_t start = 0; start <= size; start += kBlock) {
        cost_before_block_.push_back(cost);
        const std::size_t stop = std::min(size, start + kBlock);
        for (std::size_t i = start; i < stop; ++i)
            cost += requests[i].cost;
    }
    // The runs' decision columns count their accepted decisions themselves, chunk by chunk.
}

std::uint64_t ColumnCounts::costBefore(std::size_t index) const {
    const auto& requests = result_->trace->requests;
    const std::size_t block = index / kBlock;
    std::uint64_t cost = cost_before_block_[block];
    for (std::size_t i = block * kBlock; i < index; ++i)
        cost += requests[i].cost;
    return cost;
}

std::uint64_t ColumnCounts::cost(std::size_t begin, std::size_t end) const {
    return end <= begin ? 0 : costBefore(end) - costBefore(begin);
}

std::uint32_t ColumnCounts::accepted(std::size_t run, std::size_t begin, std::size_t end) const {
    const DecisionColumns& decisions = result_->runs[run].decisions;
    if (end <= begin || decisions.empty())
        return 0;
    return static_cast<std::uint32_t>(decisions.accepted_between(begin, end));
}

LaneTally ColumnCounts::lane(std::size_t run, std::size_t begin, std::size_t end,
                             std::size_t decided) const {
    LaneTally tally;
    if (end <= begin)
        return tally;
    const std::size_t revealed = std::clamp(decided, begin, end);
    tally.accepted = accepted(run, begin, revealed);
    tally.rejected = static_cast<std::uint32_t>(revealed - begin) - tally.accepted;
    tally.pending = static_cast<std::uint32_t>(end - revealed);
    return tally;
}

ColumnSummary summarizeColumns(const SimulationResult& result,
                               const std::vector<std::size_t>& bounds, std::size_t decided,
                               const ColumnCounts* counts) {
    ColumnSummary summary;
    const std::size_t columns = bounds.empty() ? 0 : bounds.size() - 1;
    const auto& requests = result.trace->requests;
    summary.cost.resize(columns);
    for (std::size_t c = 0; c < columns; ++c) {
        if (counts != nullptr) {
            summary.cost[c] = counts->cost(bounds[c], bounds[c + 1]);
            continue;
        }
        std::uint64_t cost = 0;
        for (std::size_t i = bounds[c]; i < bounds[c + 1]; ++i)
            cost += requests[i].cost;
        summary.cost[c] = cost;
    }
    summary.lanes.resize(result.runs.size());
    for (std::size_t run = 0; run < result.runs.size(); ++run) {
        std::vector<LaneTally>& lane = summary.lanes[run];
        lane.resize(columns);
        if (!result.runs[run].has_decisions())
            continue;
        const DecisionColumns& decisions = result.runs[run].decisions;
        for (std::size_t c = 0; c < columns; ++c) {
            if (counts != nullptr) {
                lane[c] = counts->lane(run, bounds[c], bounds[c + 1], decided);
                continue;
            }
            const std::size_t revealed = std::clamp(decided, bounds[c], bounds[c + 1]);
            const auto accepted =
                static_cast<std::uint32_t>(decisions.accepted_between(bounds[c], revealed));
            lane[c].accepted = accepted;
            lane[c].rejected = static_cast<std::uint32_t>(revealed - bounds[c]) - accepted;
            lane[c].pending = static_cast<std::uint32_t>(bounds[c + 1] - revealed);
        }
    }
    return summary;
}

}  // namespace ratelab::ui
