#include "ratelab/key_index.h"

#include <algorithm>
#include <mutex>
#include <numeric>

#include "share_out.h"

namespace ratelab {

namespace {

/// Columns of positions smaller than this (256 KB) are not kept.
constexpr std::size_t kWorthKeeping = std::size_t{1} << 16;
/// A stretch holds at least this many requests, so that a trace of fewer is one stretch.
constexpr std::size_t kLeastStretch = std::size_t{1} << 12;
/// And a trace is held in at most this many.
constexpr std::size_t kMostStretches = 64;
/// A stretch one edit after another grew to this many times its size is indexed again in two.
constexpr std::size_t kMostGrowth = 2;
/// A stretch's edit is shared out over threads from this many positions on; below, a thread
/// costs more than it saves.
constexpr std::size_t kWorthThreads = std::size_t{1} << 20;

/// The column of positions of the stretch that went last, kept for the next one. An edit of a
/// trace of many keys builds the new index while the one before is alive, and that one goes
/// soon after; without this each edit has the kernel map and zero 4 bytes per request of the
/// stretch afresh (on 10M requests in one stretch, about a seventh of the edit's time), which
/// the index then writes over.
struct Spare {
    std::mutex mutex;
    detail::PositionColumn positions;
};

Spare& spare() {
    static auto* const kept = new Spare;  // never destroyed: an index may outlive statics
    return *kept;
}

/// About how many requests each stretch of a trace of `requests` requests over `keys` keys
/// holds. Each stretch holds a start per key, and reading a key's positions reads a piece of
/// each stretch: there are as many as keep a key's piece four positions long on average, and so
/// the starts within a quarter of the positions. Fewer, longer stretches make an edit copy more
/// (a stretch of 1.7M requests rather than 0.4M on 10M over 100,000 keys) and were measured no
/// quicker to read: `bench_gui 1 keyed-drags` and `keyed-edits`, see docs/performance.md.
std::size_t chosen_stretch(std::size_t requests, std::size_t keys) {
    constexpr std::size_t kPiece = 4;
    const std::size_t count = std::clamp<std::size_t>(
        requests / (kPiece * std::max<std::size_t>(keys, 1)), 1, kMostStretches);
    return std::max(kLeastStretch, (requests + count - 1) / count);
}

}  // namespace

// ---- KeyPositions ----

KeyPositions::iterator::iterator(const KeyIndex* index, KeyId key, std::size_t stretch)
    : index_(index), key_(key), stretch_(stretch) {
    const std::span<const std::uint32_t> theirs = index_->stretches_[stretch_]->of(key_);
    at_ = theirs.data();
    end_ = theirs.data() + theirs.size();
    base_ = static_cast<std::uint32_t>(index_->bases_[stretch_]);
    if (at_ == end_)
        next_stretch();
}

void KeyPositions::iterator::next_stretch() {
    while (++stretch_ < index_->stretches_.size()) {
        const std::span<const std::uint32_t> theirs = index_->stretches_[stretch_]->of(key_);
        if (!theirs.empty()) {
            at_ = theirs.data();
            end_ = theirs.data() + theirs.size();
            base_ = static_cast<std::uint32_t>(index_->bases_[stretch_]);
            return;
        }
    }
    at_ = end_ = nullptr;  // the end
}

KeyPositions::iterator KeyPositions::begin() const {
    return {index_, key_, 0};
}

std::size_t KeyPositions::size() const {
    std::size_t count = 0;
    for (const KeyIndex::Shared& stretch : index_->stretches_)
        count += stretch->starts[key_ + 1] - stretch->starts[key_];
    return count;
}

std::size_t KeyPositions::count_before(std::size_t end) const {
    std::size_t count = 0;
    for (std::size_t s = 0; s < index_->stretches_.size(); ++s) {
        const std::size_t base = index_->bases_[s];
        if (base >= end)
            break;
        const std::span<const std::uint32_t> theirs = index_->stretches_[s]->of(key_);
        if (index_->bases_[s + 1] <= end) {
            count += theirs.size();
            continue;
        }
        count += static_cast<std::size_t>(
            std::lower_bound(theirs.begin(), theirs.end(), end - base) - theirs.begin());
        break;
    }
    return count;
}

void KeyPositions::append(std::size_t from, std::size_t to, std::vector<std::uint32_t>& out) const {
    for (std::size_t s = 0; s < index_->stretches_.size() && from < to; ++s) {
        const std::span<const std::uint32_t> theirs = index_->stretches_[s]->of(key_);
        const std::size_t count = theirs.size();
        if (from < count) {
            const auto base = static_cast<std::uint32_t>(index_->bases_[s]);
            const std::size_t stop = std::min(to, count);
            // Sized first, then written: a loop the compiler turns into vector adds.
            const std::size_t at = out.size();
            out.resize(at + stop - from);
            std::uint32_t* to_write = out.data() + at;
            const std::uint32_t* read = theirs.data() + from;
            for (std::size_t i = 0; i < stop - from; ++i)
                to_write[i] = base + read[i];
            from = stop;
        }
        if (to <= count)
            break;
        // Counted from the next stretch's first.
        from -= count;
        to -= count;
    }
}

// ---- KeyIndex ----

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

KeyIndex::Stretch::~Stretch() {
    if (positions.capacity() < kWorthKeeping)
        return;
    Spare& kept = spare();
    const std::lock_guard lock(kept.mutex);
    kept.positions.swap(positions);  // the one kept before goes with this stretch
}

KeyIndex::KeyIndex(const Trace& trace, const KeyIndex* same_keys, std::size_t stretch)
    : keys_(trace.keys.size()),
      stretch_(stretch != 0 ? stretch : chosen_stretch(trace.requests.size(), keys_)) {
    order_names(trace, same_keys);
    place_all(trace, 1);
}

KeyIndex::KeyIndex(const Trace& trace, const KeyIndex& before, const Trace& before_trace,
                   std::size_t first, std::size_t tail, unsigned threads)
    : keys_(trace.keys.size()), stretch_(before.stretch_) {
    order_names(trace, &before);
    const std::size_t size = trace.requests.size();
    const std::size_t old_size = before_trace.requests.size();
    // Past an eighth of the trace changed, placing every request is about as quick.
    constexpr std::size_t kMostShare = 8;
    if (!before.fits(before_trace) || keys_ != before.keys_ ||
        first + tail > std::min(size, old_size) ||
        (size - tail - first + old_size - tail - first) * kMostShare > size) {
        place_all(trace, threads);
        return;
    }
    const std::size_t old_end = old_size - tail;
    const std::size_t new_end = size - tail;
    const std::vector<std::size_t>& old_bases = before.bases_;
    // The stretches of `before` the change lies in: from the one that holds its first request
    // (the last stretch when that is past the end, an addition there) to the one that holds its
    // last.
    const auto holding = [&](std::size_t at) {
        const auto after = std::upper_bound(old_bases.begin(), old_bases.end() - 1, at);
        return static_cast<std::size_t>(after - old_bases.begin()) - 1;
    };
    const std::size_t from = holding(std::min(first, old_size == 0 ? 0 : old_size - 1));
    const std::size_t to = old_end > first ? holding(old_end - 1) : from;
    const std::size_t begin = old_bases[from];
    const std::size_t old_stop = old_bases[to + 1];
    const std::size_t stop = old_stop - old_end + new_end;
    const auto keep = [&](Shared stretch, std::size_t base) {
        if (stretch->positions.empty())
            return;  // a stretch the edit emptied
        stretches_.push_back(std::move(stretch));
        bases_.push_back(base);
    };
    for (std::size_t s = 0; s < from; ++s)
        keep(before.stretches_[s], old_bases[s]);
    if (from == to && stop - begin <= kMostGrowth * stretch_) {
        keep(edit(trace, begin, *before.stretches_[from], before_trace, begin, first - begin,
                  old_end - begin, new_end - begin, threads),
             begin);
    } else {
        // Several stretches, or one grown too long: indexed again in stretches of about the
        // usual size.
        const std::size_t count = std::max<std::size_t>(1, (stop - begin) / stretch_);
        std::vector<Shared> placed(count);
        detail::share_out(count, std::min<unsigned>(threads, static_cast<unsigned>(count)),
                          [&](std::size_t s) {
                              placed[s] = place(trace, begin + (stop - begin) * s / count,
                                                begin + (stop - begin) * (s + 1) / count);
                          });
        for (std::size_t s = 0; s < count; ++s)
            keep(std::move(placed[s]), begin + (stop - begin) * s / count);
    }
    for (std::size_t s = to + 1; s < before.stretches_.size(); ++s)
        keep(before.stretches_[s], old_bases[s] - old_stop + stop);
    if (stretches_.empty()) {
        stretches_.push_back(place(trace, size, size));
        bases_.push_back(size);
    }
    bases_.push_back(size);
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

void KeyIndex::place_all(const Trace& trace, unsigned threads) {
    const std::size_t size = trace.requests.size();
    const std::size_t count = std::max<std::size_t>(1, (size + stretch_ - 1) / stretch_);
    stretches_.assign(count, nullptr);
    bases_.resize(count + 1);
    for (std::size_t s = 0; s <= count; ++s)
        bases_[s] = size * s / count;
    detail::share_out(
        count, std::min<unsigned>(std::max(threads, 1u), static_cast<unsigned>(count)),
        [&](std::size_t s) { stretches_[s] = place(trace, bases_[s], bases_[s + 1]); });
}

KeyIndex::Shared KeyIndex::place(const Trace& trace, std::size_t begin, std::size_t end) const {
    auto stretch = std::make_shared<Stretch>();
    std::vector<std::uint32_t>& starts = stretch->starts;
    starts.assign(keys_ + 1, 0);
    stretch->positions = take_positions(end - begin);
    // Each key's count goes one place on, so that the running sum leaves in starts[k] the
    // requests of the keys before k: where key k's begin.
    for (std::size_t i = begin; i < end;) {
        const std::span<const Request> piece = trace.requests.contiguous(i, end);
        for (const Request& r : piece)
            ++starts[r.key + 1];
        i += piece.size();
    }
    for (std::size_t k = 1; k < starts.size(); ++k)
        starts[k] += starts[k - 1];
    std::vector<std::uint32_t> next(starts.begin(), starts.end() - 1);
    auto local = std::uint32_t{0};
    for (std::size_t i = begin; i < end;) {
        const std::span<const Request> piece = trace.requests.contiguous(i, end);
        for (const Request& r : piece)
            stretch->positions[next[r.key]++] = local++;
        i += piece.size();
    }
    return stretch;
}

KeyIndex::Shared KeyIndex::edit(const Trace& trace, std::size_t base, const Stretch& old,
                                const Trace& before_trace, std::size_t old_base, std::size_t first,
                                std::size_t old_end, std::size_t new_end, unsigned threads) const {
    const std::size_t size = old.positions.size() - old_end + new_end;
    auto stretch = std::make_shared<Stretch>();
    std::vector<std::uint32_t>& starts = stretch->starts;
    starts.assign(keys_ + 1, 0);
    stretch->positions = take_positions(size);
    // The changed requests, by key: the new ones in order of their place.
    std::vector<std::int64_t> change(keys_, 0);
    std::vector<std::pair<KeyId, std::uint32_t>> added;
    for (std::size_t i = first; i < old_end; ++i)
        --change[before_trace.requests[old_base + i].key];
    for (std::size_t i = first; i < new_end; ++i) {
        ++change[trace.requests[base + i].key];
        added.emplace_back(trace.requests[base + i].key, static_cast<std::uint32_t>(i));
    }
    std::sort(added.begin(), added.end());
    for (std::size_t k = 0; k < keys_; ++k) {
        const std::int64_t count =
            static_cast<std::int64_t>(old.starts[k + 1] - old.starts[k]) + change[k];
        starts[k + 1] = starts[k] + static_cast<std::uint32_t>(count);
    }
    // Each key's positions before the change as they were, its new ones, then its positions
    // after the change moved by the change in length: in pieces of keys with about as many
    // positions each, side by side when the stretch is long.
    const auto moved = static_cast<std::uint32_t>(new_end - old_end);  // modulo 2^32
    const std::size_t pieces = threads > 1 && size >= kWorthThreads ? 4 * std::size_t{threads} : 1;
    const auto piece_start = [&](std::size_t piece) {
        if (piece >= pieces)
            return keys_;
        const auto target = static_cast<std::uint32_t>(size * piece / pieces);
        return static_cast<std::size_t>(std::lower_bound(starts.begin(), starts.end() - 1, target) -
                                        starts.begin());
    };
    detail::share_out(pieces, pieces > 1 ? threads : 1, [&](std::size_t piece) {
        const std::size_t begin = piece_start(piece);
        const std::size_t end = piece_start(piece + 1);
        auto next_added =
            std::lower_bound(added.begin(), added.end(),
                             std::pair<KeyId, std::uint32_t>{static_cast<KeyId>(begin), 0});
        for (std::size_t k = begin; k < end; ++k) {
            const std::span<const std::uint32_t> was = old.of(static_cast<KeyId>(k));
            std::uint32_t* out = stretch->positions.data() + starts[k];
            const auto* split = std::lower_bound(was.data(), was.data() + was.size(),
                                                 static_cast<std::uint32_t>(first));
            out = std::copy(was.data(), split, out);
            for (; next_added != added.end() && next_added->first == k; ++next_added)
                *out++ = next_added->second;
            const auto* rest = std::lower_bound(split, was.data() + was.size(),
                                                static_cast<std::uint32_t>(old_end));
            out = std::transform(rest, was.data() + was.size(), out,
                                 [moved](std::uint32_t at) { return at + moved; });
        }
    });
    return stretch;
}

std::size_t KeyIndex::memory_bytes() const {
    std::size_t bytes =
        by_name_->capacity() * sizeof(KeyId) + bases_.capacity() * sizeof(std::size_t);
    for (const Shared& stretch : stretches_)
        bytes +=
            (stretch->starts.capacity() + stretch->positions.capacity()) * sizeof(std::uint32_t);
    return bytes;
}

std::size_t KeyIndex::shared_with(const KeyIndex& other) const {
    return static_cast<std::size_t>(
        std::count_if(stretches_.begin(), stretches_.end(), [&other](const Shared& mine) {
            return std::find(other.stretches_.begin(), other.stretches_.end(), mine) !=
                   other.stretches_.end();
        }));
}

bool operator==(const KeyIndex& a, const KeyIndex& b) {
    if (a.keys_ != b.keys_ || a.bases_.back() != b.bases_.back() || *a.by_name_ != *b.by_name_)
        return false;
    for (KeyId key = 0; key < a.keys_; ++key) {
        const KeyPositions mine = a.of(key);
        const KeyPositions theirs = b.of(key);
        if (!std::equal(mine.begin(), mine.end(), theirs.begin(), theirs.end()))
            return false;
    }
    return true;
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
