#include "timeline/column_counts.h"

#include <algorithm>

namespace ratelab::ui {

ColumnCounts::ColumnCounts(std::shared_ptr<const SimulationResult> result,
                           const ColumnCounts* previous)
    : result_(std::move(result)) {
    // The runs' decision columns count their accepted decisions themselves, chunk by chunk:
    // what is kept here is the running total of the requests' cost every kBlock requests.
    cost_before_block_.resize(result_->trace->requests.size() / kBlock + 1);
    if (previous != nullptr && takeOver(*previous))
        return;
    cost_before_block_[0] = 0;
    sumBlocks(0, cost_before_block_.size() - 1);
}

void ColumnCounts::sumBlocks(std::size_t from, std::size_t to) {
    // Block by block: the inner loops have no boundary test, so the compiler can vectorise
    // them.
    const auto& requests = result_->trace->requests;
    std::uint64_t cost = cost_before_block_[from];
    for (std::size_t block = from; block < to; ++block) {
        const std::size_t start = block * kBlock;
        for (std::size_t i = start; i < start + kBlock; ++i)
            cost += requests[i].cost;
        cost_before_block_[block + 1] = cost;
    }
}

bool ColumnCounts::takeOver(const ColumnCounts& previous) {
    const SimulationResult& result = *result_;
    if (!previous.result_ || result.edited_from.lock() != previous.result_->trace)
        return false;
    const auto& requests = result.trace->requests;
    const auto& old_requests = previous.result_->trace->requests;
    const std::size_t size = requests.size();
    const std::size_t old_size = old_requests.size();
    const std::size_t first = result.edit.first;
    const std::size_t tail = result.edit.tail;
    if (first + tail > std::min(size, old_size))
        return false;
    const std::size_t blocks = cost_before_block_.size();

    // Before the edit: the same totals. Block b starts at request b * kBlock; its total
    // counts the requests before it, all unchanged while b * kBlock <= first.
    const std::size_t kept = std::min(first / kBlock + 1, blocks);
    std::copy_n(previous.cost_before_block_.begin(), kept, cost_before_block_.begin());

    // The changed requests, summed, up to the first block that starts in the unchanged tail
    // (at least block 1: block 0's total, nothing, is right whatever the edit).
    const std::size_t tail_start = size - tail;
    const std::size_t old_tail_start = old_size - tail;
    const std::size_t first_tail_block =
        std::min(std::max<std::size_t>((tail_start + kBlock - 1) / kBlock, 1), blocks);
    if (kept < first_tail_block)
        sumBlocks(kept - 1, first_tail_block - 1);
    if (first_tail_block >= blocks)
        return true;

    // The tail: request x here is request x - size + old_size there, so a total here is the
    // one there plus what the edit added before the tail. The total there at an index that
    // is not on a block boundary is a boundary's and the few requests between.
    const auto old_cost_before = [&](std::size_t index) -> std::uint64_t {
        const std::size_t block = index / kBlock;
        const std::size_t offset = index % kBlock;
        if (offset == 0)
            return previous.cost_before_block_[block];
        if (offset <= kBlock / 2 || (block + 1) * kBlock > old_size) {
            std::uint64_t sum = previous.cost_before_block_[block];
            for (std::size_t i = block * kBlock; i < index; ++i)
                sum += old_requests[i].cost;
            return sum;
        }
        std::uint64_t sum = previous.cost_before_block_[block + 1];
        for (std::size_t i = index; i < (block + 1) * kBlock; ++i)
            sum -= old_requests[i].cost;
        return sum;
    };
    std::uint64_t new_before_tail = cost_before_block_[first_tail_block - 1];
    for (std::size_t i = (first_tail_block - 1) * kBlock; i < tail_start; ++i)
        new_before_tail += requests[i].cost;
    const std::uint64_t old_before_tail = old_cost_before(old_tail_start);
    for (std::size_t block = first_tail_block; block < blocks; ++block) {
        const std::size_t old_index = block * kBlock - tail_start + old_tail_start;
        cost_before_block_[block] = old_cost_before(old_index) - old_before_tail + new_before_tail;
    }
    return true;
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
