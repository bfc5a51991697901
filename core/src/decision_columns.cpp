#include "ratelab/decision_columns.h"

#include <algorithm>
#include <cassert>
#include <numeric>

#include "ratelab/shared_chunks.h"

namespace ratelab {

namespace {

using Chunk = DecisionColumns::Chunk;

bool fits_scaled(Int128 value) {
    return value > DecisionColumns::kExact && value <= INT32_MAX;
}

/// The duration at `offset` of a chunk.
Rational duration_in(const Chunk& chunk, std::size_t offset) {
    if (chunk.scaled.empty())
        return Rational();
    const std::int32_t scaled = chunk.scaled[offset];
    if (scaled != DecisionColumns::kExact)
        return chunk.den == 1 ? Rational(scaled) : Rational(scaled, chunk.den);
    const auto it =
        std::lower_bound(chunk.exact.begin(), chunk.exact.end(), static_cast<std::uint32_t>(offset),
                         [](const std::pair<std::uint32_t, Rational>& entry, std::uint32_t at) {
                             return entry.first < at;
                         });
    assert(it != chunk.exact.end() && it->first == offset);
    return it->second;
}

/// Keeps `duration` exactly beside the chunk's grid, at `offset`.
void keep_exact(Chunk& chunk, std::size_t offset, const Rational& duration) {
    chunk.scaled[offset] = DecisionColumns::kExact;
    const auto at = static_cast<std::uint32_t>(offset);
    const auto it = std::lower_bound(chunk.exact.begin(), chunk.exact.end(), at,
                                     [](const std::pair<std::uint32_t, Rational>& entry,
                                        std::uint32_t o) { return entry.first < o; });
    if (it != chunk.exact.end() && it->first == at)
        it->second = duration;
    else
        chunk.exact.insert(it, {at, duration});
}

/// Moves the chunk's grid to 1/den (a multiple of the old den); durations that no longer fit
/// are kept exactly.
void regrid(Chunk& chunk, std::int64_t den) {
    const std::int64_t factor = den / chunk.den;
    for (std::size_t k = 0; k < chunk.scaled.size(); ++k) {
        const std::int32_t scaled = chunk.scaled[k];
        if (scaled == 0 || scaled == DecisionColumns::kExact)
            continue;
        const Int128 moved = static_cast<Int128>(scaled) * factor;
        if (fits_scaled(moved)) {
            chunk.scaled[k] = static_cast<std::int32_t>(moved);
        } else {
            const Rational exact = Rational(scaled, chunk.den);
            keep_exact(chunk, k, exact);
        }
    }
    chunk.den = den;
}

}  // namespace

Rational DecisionColumns::duration(std::size_t index) const {
    const std::size_t c = chunk_of(index);
    return duration_in(*chunks_[c], index - starts_[c]);
}

DecisionColumns::ChunkView DecisionColumns::chunk(std::size_t c) const {
    const Chunk& chunk = *chunks_[c];
    return ChunkView{starts_[c], chunk.outcomes.size(), chunk.accepted, chunk.outcomes.data()};
}

std::size_t DecisionColumns::accepted_before(std::size_t index) const {
    if (index >= size())
        return accepted_starts_.empty() ? 0 : accepted_starts_.back();
    const std::size_t c = chunk_of(index);
    const Chunk& chunk = *chunks_[c];
    const std::size_t offset = index - starts_[c];
    const std::size_t block = offset / kCountBlock;
    const Outcome* outcomes = chunk.outcomes.data();
    std::size_t accepted = accepted_starts_[c] + chunk.accepted_by_block[block];
    for (std::size_t k = block * kCountBlock; k < offset; ++k)
        accepted += outcomes[k] == kAccepted ? 1 : 0;
    return accepted;
}

std::size_t DecisionColumns::memory_bytes() const {
    std::size_t bytes = chunks_.capacity() * sizeof(chunks_[0]) +
                        starts_.capacity() * sizeof(std::size_t) +
                        accepted_starts_.capacity() * sizeof(std::size_t) +
                        directory_.capacity() * sizeof(std::uint32_t);
    for (const auto& chunk : chunks_)
        bytes += sizeof(Chunk) + chunk->outcomes.capacity() +
                 chunk->accepted_by_block.capacity() * sizeof(std::uint16_t) +
                 chunk->scaled.capacity() * sizeof(std::int32_t) +
                 chunk->exact.capacity() * sizeof(chunk->exact[0]);
    return bytes;
}

std::size_t DecisionColumns::chunks_shared_with(const DecisionColumns& other) const {
    return detail::count_shared(chunks_, other.chunks_);
}

bool operator==(const DecisionColumns& a, const DecisionColumns& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size();) {
        const std::size_t ca = a.chunk_of(i);
        const std::size_t cb = b.chunk_of(i);
        const Chunk& x = *a.chunks_[ca];
        const Chunk& y = *b.chunks_[cb];
        const std::size_t xo = i - a.starts_[ca];
        const std::size_t yo = i - b.starts_[cb];
        const std::size_t n = std::min(x.outcomes.size() - xo, y.outcomes.size() - yo);
        if (&x != &y || xo != yo) {
            for (std::size_t k = 0; k < n; ++k) {
                if (x.outcomes[xo + k] != y.outcomes[yo + k] ||
                    duration_in(x, xo + k) != duration_in(y, yo + k))
                    return false;
            }
        }
        i += n;
    }
    return true;
}

DecisionColumns::Builder::Builder() = default;
DecisionColumns::Builder::~Builder() = default;
DecisionColumns::Builder::Builder(Builder&&) noexcept = default;
DecisionColumns::Builder& DecisionColumns::Builder::operator=(Builder&&) noexcept = default;

std::size_t DecisionColumns::Builder::room() {
    if (open_ && open_->outcomes.size() >= kChunk)
        seal();
    if (!open_) {
        open_ = std::make_unique<Chunk>();
        open_->outcomes.reserve(kChunk);
    }
    return kChunk - open_->outcomes.size();
}

DecisionColumns::Outcome* DecisionColumns::Builder::extend(std::size_t count) {
    assert(open_ && count <= kChunk - std::min(kChunk, open_->outcomes.size()));
    const std::size_t at = open_->outcomes.size();
    open_->outcomes.resize(at + count, kRejected);
    if (!open_->scaled.empty())
        open_->scaled.resize(at + count, 0);
    size_ += count;
    return open_->outcomes.data() + at;
}

void DecisionColumns::Builder::set_duration_slow(std::size_t offset, const Rational& duration) {
    Chunk& chunk = *open_;
    if (duration == Rational()) {
        if (!chunk.scaled.empty() && chunk.scaled[offset] != 0) {
            if (chunk.scaled[offset] == kExact)
                std::erase_if(chunk.exact,
                              [&](const auto& entry) { return entry.first == offset; });
            chunk.scaled[offset] = 0;
        }
        return;
    }
    if (chunk.scaled.empty()) {
        chunk.scaled.reserve(chunk.outcomes.capacity());
        chunk.scaled.assign(chunk.outcomes.size(), 0);
        chunk.den = duration.den();
    } else if (chunk.den % duration.den() != 0) {
        // A finer grid holds both, while its unit stays a 64-bit number.
        const std::int64_t g = std::gcd(chunk.den, duration.den());
        const Int128 den = static_cast<Int128>(chunk.den / g) * duration.den();
        if (den <= INT64_MAX / 2)
            regrid(chunk, static_cast<std::int64_t>(den));
    }
    if (chunk.den % duration.den() == 0) {
        const Int128 scaled = static_cast<Int128>(duration.num()) * (chunk.den / duration.den());
        if (fits_scaled(scaled)) {
            if (chunk.scaled[offset] == kExact)
                std::erase_if(chunk.exact,
                              [&](const auto& entry) { return entry.first == offset; });
            chunk.scaled[offset] = static_cast<std::int32_t>(scaled);
            return;
        }
    }
    keep_exact(chunk, offset, duration);
}

void DecisionColumns::Builder::push(Outcome outcome, const Rational& duration) {
    room();
    *extend(1) = outcome;
    if (duration != Rational())
        set_duration(size_ - 1, duration);
}

void DecisionColumns::Builder::copy(const Chunk& from, std::size_t first, std::size_t last,
                                    std::size_t limit) {
    while (first < last) {
        if (open_ && open_->outcomes.size() >= limit)
            seal();
        if (!open_) {
            open_ = std::make_unique<Chunk>();
            open_->outcomes.reserve(kChunk);
        }
        const std::size_t take = std::min(last - first, limit - open_->outcomes.size());
        copy_part(from, first, first + take);
        first += take;
    }
}

void DecisionColumns::Builder::copy_part(const Chunk& from, std::size_t first, std::size_t last) {
    Chunk& to = *open_;
    const std::size_t at = to.outcomes.size();
    to.outcomes.insert(to.outcomes.end(),
                       from.outcomes.begin() + static_cast<std::ptrdiff_t>(first),
                       from.outcomes.begin() + static_cast<std::ptrdiff_t>(last));
    size_ += last - first;
    if (from.scaled.empty()) {
        if (!to.scaled.empty())
            to.scaled.resize(to.outcomes.size(), 0);
        return;
    }
    if (to.scaled.empty()) {
        to.scaled.assign(at, 0);
        to.den = from.den;
    }
    if (to.den == from.den) {
        // The same grid: the scaled durations carry over as they are.
        to.scaled.insert(to.scaled.end(), from.scaled.begin() + static_cast<std::ptrdiff_t>(first),
                         from.scaled.begin() + static_cast<std::ptrdiff_t>(last));
        for (const auto& [offset, exact] : from.exact) {
            if (offset >= first && offset < last)
                to.exact.emplace_back(static_cast<std::uint32_t>(at + offset - first), exact);
        }
        return;
    }
    to.scaled.resize(to.outcomes.size(), 0);
    for (std::size_t k = first; k < last; ++k) {
        if (from.scaled[k] != 0)
            set_duration_slow(at + k - first, duration_in(from, k));
    }
}

void DecisionColumns::Builder::append(const DecisionColumns& from, std::size_t first,
                                      std::size_t last) {
    if (first >= last)
        return;
    for (std::size_t c = from.chunk_of(first); c < from.chunks_.size(); ++c) {
        const std::size_t start = from.starts_[c];
        const std::size_t end = from.starts_[c + 1];
        if (start >= last)
            break;
        const std::size_t a = std::max(first, start);
        const std::size_t b = std::min(last, end);
        const std::size_t open = open_ ? open_->outcomes.size() : 0;
        if (a == start && b == end && end - start >= kBlock) {
            if (open == 0 || open >= kBlock) {
                // Shared, not copied: chunks are immutable once sealed.
                seal();
                chunks_.push_back(from.chunks_[c]);
                size_ += end - start;
            } else {
                // Joined to the short chunk before it, which would otherwise stay short: into
                // one chunk of at most 2 kChunk, else two of which the second is over kBlock.
                const Chunk& chunk = *from.chunks_[c];
                const std::size_t size = end - start;
                const std::size_t split = open + size <= 2 * kChunk ? size : kChunk - open;
                copy(chunk, 0, split, 2 * kChunk);
                seal();
                copy(chunk, split, size, 2 * kChunk);
                seal();
            }
            continue;
        }
        copy(*from.chunks_[c], a - start, b - start, kChunk);
    }
}

void DecisionColumns::Builder::seal() {
    if (!open_ || open_->outcomes.empty())
        return;
    Chunk& chunk = *open_;
    const std::size_t size = chunk.outcomes.size();
    chunk.accepted_by_block.reserve(size / kCountBlock + 1);
    std::size_t accepted = 0;
    for (std::size_t start = 0; start < size; start += kCountBlock) {
        chunk.accepted_by_block.push_back(static_cast<std::uint16_t>(accepted));
        const std::size_t stop = std::min(size, start + kCountBlock);
        for (std::size_t k = start; k < stop; ++k)
            accepted += chunk.outcomes[k] == kAccepted ? 1 : 0;
    }
    chunk.accepted = accepted;
    chunks_.push_back(std::shared_ptr<const Chunk>(std::move(open_)));
    open_.reset();
}

DecisionColumns DecisionColumns::Builder::finish() {
    seal();
    DecisionColumns out;
    out.chunks_ = std::move(chunks_);
    chunks_.clear();
    out.starts_.reserve(out.chunks_.size() + 1);
    out.accepted_starts_.reserve(out.chunks_.size() + 1);
    std::size_t start = 0;
    std::size_t accepted = 0;
    for (const auto& chunk : out.chunks_) {
        out.starts_.push_back(start);
        out.accepted_starts_.push_back(accepted);
        start += chunk->outcomes.size();
        accepted += chunk->accepted;
    }
    out.starts_.push_back(start);
    out.accepted_starts_.push_back(accepted);
    out.directory_.reserve(start / kBlock + 1);
    std::uint32_t c = 0;
    for (std::size_t block = 0; block * kBlock < start; ++block) {
        while (out.starts_[c + 1] <= block * kBlock)
            ++c;
        out.directory_.push_back(c);
    }
    size_ = 0;
    return out;
}

}  // namespace ratelab
