#pragma once
// The decisions of one run, kept in chunks that runs share.
//
// A run over ten million requests keeps ten million outcomes and durations. An edit changes a few
// thousand of them, so the run after an edit shares every chunk it did not change with the run
// before it (which undo keeps alive): an edit copies a few chunks, not the columns.
//
// Compact: an outcome is a byte, and a duration (a rejection's retry-after, a shaper's delay) is a
// 32-bit multiple of a chunk-wide unit 1/den. A chunk whose durations are all zero (every request
// accepted by an algorithm that does not delay) keeps no durations at all; the rare duration that
// does not fit is kept exactly on the side.

#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ratelab/rational.h"

namespace ratelab {

class DecisionColumns {
public:
    enum Outcome : std::uint8_t { kRejected = 0, kAccepted = 1, kRejectedNever = 2 };
    /// Decisions per chunk as a run writes them. After edits a chunk may hold from half of
    /// this to twice as many; only the last may hold fewer.
    static constexpr std::size_t kChunk = 4096;

    class Builder;
    /// One chunk as a reader sees it: decisions [start, start + size).
    struct ChunkView {
        std::size_t start;
        std::size_t size;
        std::size_t accepted;     ///< how many of them were accepted
        const Outcome* outcomes;  ///< `size` outcomes
    };

    /// Decisions written together: the layout behind ChunkView, for the builder. Immutable once
    /// sealed, and then shared by every run that took it over.
    struct Chunk {
        std::vector<Outcome> outcomes;
        /// Each duration times `den`; empty when every duration is 0. kExact marks one kept in
        /// `exact` instead, because it is not a multiple of 1/den or does not fit.
        std::vector<std::int32_t> scaled;
        std::int64_t den = 1;
        std::vector<std::pair<std::uint32_t, Rational>> exact;  ///< by offset
        std::size_t accepted = 0;                               ///< counted when sealed
        /// Accepted decisions before each kCountBlock of the chunk, counted when sealed.
        std::vector<std::uint16_t> accepted_by_block;
    };
    static constexpr std::size_t kCountBlock = 64;
    static constexpr std::int32_t kExact = INT32_MIN;

    std::size_t size() const { return starts_.empty() ? 0 : starts_.back(); }
    bool empty() const { return size() == 0; }

    Outcome outcome(std::size_t index) const {
        const std::size_t c = chunk_of(index);
        return chunk_outcome(c, index - starts_[c]);
    }
    bool accepted(std::size_t index) const { return outcome(index) == kAccepted; }
    /// Asks the processor to fetch decision `index` (< size()) ahead of reading it: for loops that
    /// read decisions far apart, which otherwise wait on one cache miss after another.
    // Inlined always: GCC otherwise finds the function has no effect and drops its calls.
    [[gnu::always_inline]] void prefetch(std::size_t index) const {
        const std::size_t c = chunk_of(index);
        const Chunk& chunk = *chunks_[c];
        const std::size_t offset = index - starts_[c];
        __builtin_prefetch(chunk.outcomes.data() + offset);
        if (!chunk.scaled.empty())
            __builtin_prefetch(chunk.scaled.data() + offset);
    }
    /// The duration kept with decision `index`: a rejection's retry-after, a shaper's delay
    /// from the request's tick to its release; 0 for every other decision.
    Rational duration(std::size_t index) const;

    std::size_t chunk_count() const { return chunks_.size(); }
    /// The chunk that holds decision `index` (< size()).
    std::size_t chunk_of(std::size_t index) const {
        std::size_t c = directory_[index / kBlock];
        if (index >= starts_[c + 1])
            ++c;
        return c;
    }
    ChunkView chunk(std::size_t c) const;
    /// Accepted decisions among [0, index): two lookups and a count of at most kCountBlock.
    std::size_t accepted_before(std::size_t index) const;
    /// Accepted decisions among [begin, end).
    std::size_t accepted_between(std::size_t begin, std::size_t end) const {
        return end <= begin ? 0 : accepted_before(end) - accepted_before(begin);
    }

    /// Bytes this run's columns hold, counting each chunk (shared with other runs or not).
    std::size_t memory_bytes() const;
    /// Chunks this run holds in common with `other`: the sharing an edit achieved.
    std::size_t chunks_shared_with(const DecisionColumns& other) const;

    /// Equal when every outcome and duration is, however the decisions are chunked.
    friend bool operator==(const DecisionColumns& a, const DecisionColumns& b);

private:
    /// The directory has one entry per kBlock decisions: the chunk holding its first decision.
    /// Every chunk but the last holds at least kBlock, so index i lies in that chunk or the next.
    static constexpr std::size_t kBlock = kChunk / 2;

    Outcome chunk_outcome(std::size_t c, std::size_t offset) const {
        return chunks_[c]->outcomes[offset];
    }

    std::vector<std::shared_ptr<const Chunk>> chunks_;
    std::vector<std::size_t> starts_;  ///< chunks_.size() + 1 entries: where each chunk starts
    std::vector<std::size_t> accepted_starts_;  ///< accepted decisions before each chunk
    std::vector<std::uint32_t> directory_;
};

/// Writes a run's decisions in order: new ones, and stretches taken over from another run, whose
/// whole chunks are shared rather than copied.
class DecisionColumns::Builder {
public:
    Builder();
    ~Builder();
    Builder(Builder&&) noexcept;
    Builder& operator=(Builder&&) noexcept;

    std::size_t size() const { return size_; }
    /// Decisions the chunk being written takes before a new one starts; at least 1.
    std::size_t room();
    /// Appends `count` (<= room()) decisions, every outcome to be written through the returned
    /// pointer and every nonzero duration with set_duration(); all start rejected with 0.
    Outcome* extend(std::size_t count);
    /// The duration of decision `index`, one of those extend() last appended.
    void set_duration(std::size_t index, const Rational& duration) {
        const std::size_t offset = index - (size_ - open_->outcomes.size());
        // The run loop's cases, inline: a duration on the chunk's grid, or a whole number of
        // ticks (which lowest terms take off the grid), that fits.
        if (!open_->scaled.empty()) {
            std::int64_t scaled = duration.num();
            if ((duration.den() == open_->den ||
                 (duration.den() == 1 && !__builtin_mul_overflow(scaled, open_->den, &scaled))) &&
                scaled > kExact && scaled <= INT32_MAX) {
                open_->scaled[offset] = static_cast<std::int32_t>(scaled);
                return;
            }
        }
        set_duration_slow(offset, duration);
    }
    /// Appends one decision.
    void push(Outcome outcome, const Rational& duration);
    /// Appends decisions [first, last) of `from`: its chunks that lie wholly inside are shared.
    void append(const DecisionColumns& from, std::size_t first, std::size_t last);
    /// The columns written; the builder is empty afterwards.
    DecisionColumns finish();

private:
    void set_duration_slow(std::size_t offset, const Rational& duration);
    void seal();
    /// Copies decisions [first, last) of `from`, sealing the chunk written whenever it reaches
    /// `limit` decisions.
    void copy(const Chunk& from, std::size_t first, std::size_t last, std::size_t limit);
    void copy_part(const Chunk& from, std::size_t first, std::size_t last);

    std::vector<std::shared_ptr<const Chunk>> chunks_;
    std::unique_ptr<Chunk> open_;  ///< the chunk being written, or null
    std::size_t size_ = 0;
};

}  // namespace ratelab
