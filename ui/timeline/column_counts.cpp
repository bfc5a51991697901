#include "timeline/column_counts.h"

#include <algorithm>
#include <span>

#include "ratelab/shared_chunks.h"

namespace ratelab::ui {

namespace {

/// Chunk `c` of `requests`: the cost of its requests before each of its blocks, and of all.
std::shared_ptr<const std::vector<std::uint64_t>> sumChunk(const RequestColumn& requests,
                                                           std::size_t c) {
    const std::size_t start = requests.chunk_start(c);
    const std::span<const Request> held = requests.contiguous(start, requests.chunk_start(c + 1));
    auto totals = std::make_shared<std::vector<std::uint64_t>>();
    totals->reserve(held.size() / ColumnCounts::kBlock + 2);
    std::uint64_t cost = 0;
    // Block by block: the inner loop has no boundary test, so the compiler can vectorise it.
    const std::size_t whole = held.size() / ColumnCounts::kBlock * ColumnCounts::kBlock;
    for (std::size_t block = 0; block < whole; block += ColumnCounts::kBlock) {
        totals->push_back(cost);
        for (std::size_t i = block; i < block + ColumnCounts::kBlock; ++i)
            cost += held[i].cost;
    }
    if (whole < held.size()) {
        totals->push_back(cost);
        for (std::size_t i = whole; i < held.size(); ++i)
            cost += held[i].cost;
    }
    totals->push_back(cost);  // the whole chunk's
    return totals;
}

}  // namespace

ColumnCounts::ColumnCounts(std::shared_ptr<const SimulationResult> result,
                           const ColumnCounts* previous)
    : result_(std::move(result)) {
    const RequestColumn& requests = result_->trace->requests;
    const std::size_t chunks = requests.chunks();
    chunk_totals_.reserve(chunks);
    chunk_ids_.reserve(chunks);
    cost_before_chunk_.reserve(chunks + 1);
    cost_before_chunk_.push_back(0);
    // An edit leaves the chunks before it where they were, and those after it as far from the
    // end as they were: each is looked for in those two places. (A chunk found there holds
    // the same requests: `previous` keeps its trace, which holds the chunk, unchanged.)
    const std::size_t old_chunks = previous != nullptr ? previous->chunk_ids_.size() : 0;
    const auto taken_over = [&](std::size_t c,
                                const void* id) -> std::shared_ptr<const ChunkTotals> {
        if (c < old_chunks && previous->chunk_ids_[c] == id)
            return previous->chunk_totals_[c];
        const std::size_t from_end = chunks - c;
        if (from_end <= old_chunks && previous->chunk_ids_[old_chunks - from_end] == id)
            return previous->chunk_totals_[old_chunks - from_end];
        return nullptr;
    };
    for (std::size_t c = 0; c < chunks; ++c) {
        const void* id = requests.chunk_identity(c);
        std::shared_ptr<const ChunkTotals> totals = taken_over(c, id);
        if (!totals)
            totals = sumChunk(requests, c);
        cost_before_chunk_.push_back(cost_before_chunk_.back() + totals->back());
        chunk_totals_.push_back(std::move(totals));
        chunk_ids_.push_back(id);
    }
    if (previous != nullptr)
        takeFound(*previous);
}

void ColumnCounts::takeFound(const ColumnCounts& previous) {
    std::optional<Found> found;
    {
        const std::lock_guard lock(previous.found_mutex_);
        found = previous.found_;
    }
    if (!found || !previous.result_)
        return;
    const Trace& trace = *result_->trace;
    const Trace& old_trace = *previous.result_->trace;
    if (&old_trace != &trace) {
        // An edit: requests before it keep their indices, those after it move with the
        // change in length, and a bound within the changed stretch is only a guess.
        if (result_->edited_from.lock().get() != &old_trace)
            return;
        const std::size_t size = trace.requests.size();
        const std::size_t old_size = old_trace.requests.size();
        const std::size_t first = result_->edit.first;
        const std::size_t tail = result_->edit.tail;
        if (first + tail > std::min(size, old_size))
            return;
        for (std::size_t& bound : found->bounds) {
            bound = bound < first              ? bound
                    : bound >= old_size - tail ? bound - old_size + size
                                               : first;
        }
    }
    const std::lock_guard lock(found_mutex_);
    found_ = std::move(found);
}

std::uint64_t ColumnCounts::costBefore(std::size_t index) const {
    const auto& requests = result_->trace->requests;
    if (index >= requests.size())
        return cost_before_chunk_.back();
    const std::size_t c = requests.chunk_holding(index);
    const std::size_t start = requests.chunk_start(c);
    const std::size_t block = (index - start) / kBlock;
    std::uint64_t cost = cost_before_chunk_[c] + (*chunk_totals_[c])[block];
    for (const Request& r : requests.contiguous(start + block * kBlock, index))
        cost += r.cost;
    return cost;
}

std::size_t ColumnCounts::sharedChunks(const ColumnCounts& other) const {
    return detail::count_shared(chunk_totals_, other.chunk_totals_);
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
    summary.lanes.resize(result.runs.size());
    if (bounds.empty())
        return summary;
    // Each bound's running totals are looked up once, and a column's are the difference of its
    // two bounds' (a lookup misses the cache more often than not: on a zoomed-out 10M trace,
    // looking up each bound twice cost about half a millisecond a paint). The cost is summed
    // from the first bound when there are no counts.
    const std::size_t columns = bounds.size() - 1;
    const auto& requests = result.trace->requests;
    std::vector<std::uint64_t> cost_before(bounds.size());
    for (std::size_t b = 0; b < bounds.size(); ++b) {
        if (counts != nullptr) {
            cost_before[b] = counts->costBefore(bounds[b]);
            continue;
        }
        cost_before[b] = b == 0 ? 0 : cost_before[b - 1];
        for (std::size_t i = b == 0 ? bounds[0] : bounds[b - 1]; i < bounds[b]; ++i)
            cost_before[b] += requests[i].cost;
    }
    summary.cost.resize(columns);
    for (std::size_t c = 0; c < columns; ++c)
        summary.cost[c] = bounds[c + 1] <= bounds[c] ? 0 : cost_before[c + 1] - cost_before[c];
    std::vector<std::size_t> accepted(bounds.size());
    for (std::size_t run = 0; run < result.runs.size(); ++run) {
        std::vector<LaneTally>& lane = summary.lanes[run];
        lane.resize(columns);
        if (!result.runs[run].has_decisions())
            continue;
        const DecisionColumns& decisions = result.runs[run].decisions;
        for (std::size_t b = 0; b < bounds.size(); ++b)
            accepted[b] = decisions.accepted_before(bounds[b]);
        const std::size_t accepted_by_decided = decisions.accepted_before(decided);
        for (std::size_t c = 0; c < columns; ++c) {
            if (bounds[c + 1] <= bounds[c])
                continue;
            const std::size_t revealed = std::clamp(decided, bounds[c], bounds[c + 1]);
            const std::size_t accepted_by = revealed == bounds[c + 1] ? accepted[c + 1]
                                            : revealed == bounds[c]   ? accepted[c]
                                                                      : accepted_by_decided;
            lane[c].accepted = static_cast<std::uint32_t>(accepted_by - accepted[c]);
            lane[c].rejected = static_cast<std::uint32_t>(revealed - bounds[c]) - lane[c].accepted;
            lane[c].pending = static_cast<std::uint32_t>(bounds[c + 1] - revealed);
        }
    }
    return summary;
}

}  // namespace ratelab::ui
