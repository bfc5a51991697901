#include "ratelab/key_index.h"

#include <algorithm>
#include <mutex>
#include <numeric>

#include "share_out.h"

namespace ratelab {

namespace {

/// Columns of positions smaller than this (256 KB) are not kept.
constexpr std::size_t kWorthKeeping = std::size_t{1} << 16;

/// The column of positions of the index that went last, kept for the next one. An edit of a
/// trace of many keys builds the new index while the one before is alive, and that one goes
/// soon after; without this each edit has the kernel map and zero 4 bytes per request afresh
/// (on 10M requests, about a seventh of the edit's time), which the index then writes over.
struct Spare {
    std::mutex mutex;
    detail::PositionColumn positions;
};

Spare& spare() {
    static auto* const kept = new Spare;  // never destroyed: an index may outlive statics
    return *kept;
}

}  // namespace

KeyIndex::Positions KeyIndex::take_positions(std::size_t size) {
    Positions taken;
    if (size >= kWorthKeeping) {
        Spare& kept = spare();
        const std::lock_guard lock(kept.mutex);
        taken.swap(kept.positions);
    }
    // One much larger (of another trace) is let go rather than held on to.
    if (taken.capacity() < size || taken.capacity() - size > size / 4)
        Positions().swap(taken);
    taken.resize(size);
    return taken;
}

KeyIndex::~KeyIndex() {
    if (positions_.capacity() < kWorthKeeping)
        return;
    Spare& kept = spare();
    const std::lock_guard lock(kept.mutex);
    kept.positions.swap(positions_);  // the one kept before goes with this index
}

KeyIndex::KeyIndex(const Trace& trace, const KeyIndex* same_keys)
    : starts_(trace.keys.size() + 1, 0), positions_(take_positions(trace.requests.size())) {
    order_names(trace, same_keys);
    place_all(trace);
}

KeyIndex::KeyIndex(const Trace& trace, const KeyIndex& before, const Trace& before_trace,
                   std::size_t first, std::size_t tail, unsigned threads)
    : starts_(trace.keys.size() + 1, 0), positions_(take_positions(trace.requests.size())) {
    order_names(trace, &before);
    const std::size_t size = trace.requests.size();
    const std::size_t old_size = before_trace.requests.size();
    // Past an eighth of the trace changed, placing every request is about as quick.
    constexpr std::size_t kMostShare = 8;
    if (!before.fits(before_trace) || trace.keys.size() != before_trace.keys.size() ||
        first + tail > std::min(size, old_size) ||
        (size - tail - first + old_size - tail - first) * kMostShare > size) {
        place_all(trace);
        return;
    }
    const std::size_t old_end = old_size - tail;
    const std::size_t new_end = size - tail;
    // The changed requests, by key: the new ones in order of their place.
    std::vector<std::int64_t> change(trace.keys.size(), 0);
    std::vector<std::pair<KeyId, std::uint32_t>> added;
    for (std::size_t i = first; i < old_end; ++i)
        --change[before_trace.requests[i].key];
    for (std::size_t i = first; i < new_end; ++i) {
        ++change[trace.requests[i].key];
        added.emplace_back(trace.requests[i].key, static_cast<std::uint32_t>(i));
    }
    std::sort(added.begin(), added.end());
    for (std::size_t k = 0; k + 1 < starts_.size(); ++k) {
        const std::int64_t count =
            static_cast<std::int64_t>(before.starts_[k + 1] - before.starts_[k]) + change[k];
        starts_[k + 1] = starts_[k] + static_cast<std::uint32_t>(count);
    }
    // Each key's positions before the change as they were, its new ones, then its positions
    // after the change moved by the change in length: in pieces of keys with about as many
    // positions each, side by side.
    const auto moved = static_cast<std::uint32_t>(size - old_size);  // modulo 2^32
    const std::size_t key_count = trace.keys.size();
    const std::size_t pieces = threads > 1 ? 4 * std::size_t{threads} : 1;
    const auto piece_start = [&](std::size_t piece) {
        if (piece >= pieces)
            return key_count;
        const auto target = static_cast<std::uint32_t>(size * piece / pieces);
        return static_cast<std::size_t>(
            std::lower_bound(starts_.begin(), starts_.end() - 1, target) - starts_.begin());
    };
    detail::share_out(pieces, threads, [&](std::size_t piece) {
        const std::size_t begin = piece_start(piece);
        const std::size_t end = piece_start(piece + 1);
        auto next_added =
            std::lower_bound(added.begin(), added.end(),
                             std::pair<KeyId, std::uint32_t>{static_cast<KeyId>(begin), 0});
        for (std::size_t k = begin; k < end; ++k) {
            const std::span<const std::uint32_t> old = before.span_of(static_cast<KeyId>(k));
            std::uint32_t* out = positions_.data() + starts_[k];
            const auto* split = std::lower_bound(old.data(), old.data() + old.size(),
                                                 static_cast<std::uint32_t>(first));
            out = std::copy(old.data(), split, out);
            for (; next_added != added.end() && next_added->first == k; ++next_added)
                *out++ = next_added->second;
            const auto* rest = std::lower_bound(split, old.data() + old.size(),
                                                static_cast<std::uint32_t>(old_end));
            out = std::transform(rest, old.data() + old.size(), out,
                                 [moved](std::uint32_t at) { return at + moved; });
        }
    });
}

void KeyIndex::order_names(const Trace& trace, const KeyIndex* same_keys) {
    if (same_keys != nullptr && same_keys->by_name_->size() == trace.keys.size()) {
        by_name_ = same_keys->by_name_;
    } else {
        auto names = std::make_shared<std::vector<KeyId>>(trace.keys.size());
        std::iota(names->begin(), names->end(), KeyId{0});
        std::sort(names->begin(), names->end(),
                  [&trace](KeyId a, KeyId b) { return trace.key_name(a) < trace.key_name(b); });
        by_name_ = std::move(names);
    }
}

void KeyIndex::place_all(const Trace& trace) {
    // Each key's count goes one place on, so that the running sum leaves in starts_[k] the
    // requests of the keys before k: where key k's begin.
    for (std::size_t i = 0; i < trace.requests.size();) {
        const std::span<const Request> piece = trace.requests.contiguous(i, trace.requests.size());
        for (const Request& r : piece)
            ++starts_[r.key + 1];
        i += piece.size();
    }
    for (std::size_t k = 1; k < starts_.size(); ++k)
        starts_[k] += starts_[k - 1];
    std::vector<std::uint32_t> next(starts_.begin(), starts_.end() - 1);
    auto index = std::uint32_t{0};
    for (std::size_t i = 0; i < trace.requests.size();) {
        const std::span<const Request> piece = trace.requests.contiguous(i, trace.requests.size());
        for (const Request& r : piece)
            positions_[next[r.key]++] = index++;
        i += piece.size();
    }
}

std::vector<std::uint32_t> KeyIndex::of(std::span<const KeyId> keys) const {
    // Each key's list is in order: they are merged two at a time, in rounds, so that each
    // position is moved once a round, and there are log2(keys) rounds.
    std::vector<std::uint32_t> out;
    std::vector<std::size_t> runs{0};  // where each list begins in `out`, and the end
    for (const KeyId key : keys) {
        const KeyPositions theirs = of(key);
        theirs.append(0, theirs.size(), out);
        runs.push_back(out.size());
    }
    std::vector<std::uint32_t> merged(out.size());
    while (runs.size() > 2) {
        std::vector<std::size_t> next{0};
        for (std::size_t r = 0; r + 1 < runs.size(); r += 2) {
            const auto begin = static_cast<std::ptrdiff_t>(runs[r]);
            const auto middle = static_cast<std::ptrdiff_t>(runs[r + 1]);
            const auto end =
                static_cast<std::ptrdiff_t>(r + 2 < runs.size() ? runs[r + 2] : middle);
            std::merge(out.begin() + begin, out.begin() + middle, out.begin() + middle,
                       out.begin() + end, merged.begin() + begin);
            next.push_back(static_cast<std::size_t>(end));
        }
        out.swap(merged);
        runs = std::move(next);
    }
    return out;
}

}  // namespace ratelab
