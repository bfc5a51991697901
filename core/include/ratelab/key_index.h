#pragma once
// Where each key's requests lie in a trace. Runs over traces of many keys keep no checkpoints,
// so what concerns one key of many (its state at a tick, the why of one of its decisions, its
// decisions after an edit) would read every request of the trace from the first; with the
// index it reads that key's requests alone.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "ratelab/model.h"

namespace ratelab {

/// Runs over traces of more keys than this keep no checkpoints (every key's state at each one
/// would cost more memory than the decisions); simulate() indexes their keys when asked
/// (RunOptions::index_keys).
inline constexpr std::size_t kCheckpointedKeys = 4;

namespace detail {

/// An allocator that leaves what a container makes of it uninitialised: for a column that is
/// written whole right after, where zeroing it first would be a pass over memory for nothing.
template <class T>
struct Uninitialised : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = Uninitialised<U>;
    };
    Uninitialised() = default;
    template <class U>
    Uninitialised(const Uninitialised<U>& /*other*/) noexcept {}  // NOLINT: as std::allocator
    template <class U>
    void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(at)) U;
    }
    template <class U, class... Args>
    void construct(U* at, Args&&... args) {
        ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }
};

/// A column of request positions, written whole by whoever sizes it.
using PositionColumn = std::vector<std::uint32_t, Uninitialised<std::uint32_t>>;

}  // namespace detail

/// Where one key's requests lie, ascending: a view into its KeyIndex, valid while that lives.
class KeyPositions {
public:
    using iterator = const std::uint32_t*;
    explicit KeyPositions(std::span<const std::uint32_t> positions) : positions_(positions) {}

    iterator begin() const { return positions_.data(); }
    iterator end() const { return positions_.data() + positions_.size(); }
    std::size_t size() const { return positions_.size(); }
    bool empty() const { return positions_.empty(); }
    /// How many of them lie before request `end`.
    std::size_t count_before(std::size_t end) const {
        return static_cast<std::size_t>(std::lower_bound(begin(), this->end(), end) - begin());
    }
    /// Appends the `from`th to the `to`th (not included) to `out`.
    void append(std::size_t from, std::size_t to, std::vector<std::uint32_t>& out) const {
        out.insert(out.end(), begin() + from, begin() + to);
    }

private:
    std::span<const std::uint32_t> positions_;
};

class KeyIndex {
public:
    /// Indexes `trace`: one pass counts each key's requests, a second places them. 4 bytes per
    /// request and 8 per key. `same_keys`, when given, indexes a trace with the same key table:
    /// its order of the keys by name is shared rather than sorted again.
    explicit KeyIndex(const Trace& trace, const KeyIndex* same_keys = nullptr);
    /// Indexes `trace`, an edit of `before_trace` (indexed by `before`) with the same key table:
    /// its requests [first, size - tail) took the place of the old [first, old size - tail), the
    /// others are as they were. Each key's list is copied, its later positions moved by the
    /// change in length, and only the changed requests are placed anew: one sequential pass
    /// rather than a scattered one, shared out over `threads` threads by ranges of keys. Indexes
    /// from scratch when `before` is not an index of `before_trace`, or the key tables differ
    /// in size, or a large part changed.
    KeyIndex(const Trace& trace, const KeyIndex& before, const Trace& before_trace,
             std::size_t first, std::size_t tail, unsigned threads = 1);
    KeyIndex(const KeyIndex&) = delete;
    KeyIndex& operator=(const KeyIndex&) = delete;
    /// Leaves its column of positions, when large, for the next index to write over.
    ~KeyIndex();

    /// The indexes of `key`'s requests, ascending.
    KeyPositions of(KeyId key) const { return KeyPositions(span_of(key)); }
    /// Every key id of the trace, ordered by the key's name.
    std::span<const KeyId> by_name() const { return *by_name_; }
    /// The indexes of the requests of `keys` (each listed once), ascending.
    std::vector<std::uint32_t> of(std::span<const KeyId> keys) const;
    /// Whether it can be the index of `trace`: as many requests and keys. A guard, not a proof:
    /// a run holds the index of the trace it decided.
    bool fits(const Trace& trace) const {
        return positions_.size() == trace.requests.size() &&
               starts_.size() == trace.keys.size() + 1;
    }
    std::size_t memory_bytes() const {
        return (starts_.capacity() + positions_.capacity() + by_name_->capacity()) *
               sizeof(std::uint32_t);
    }

    friend bool operator==(const KeyIndex& a, const KeyIndex& b) {
        return a.starts_ == b.starts_ && a.positions_ == b.positions_ && *a.by_name_ == *b.by_name_;
    }

private:
    std::span<const std::uint32_t> span_of(KeyId key) const {
        return {positions_.data() + starts_[key], positions_.data() + starts_[key + 1]};
    }
    using Positions = detail::PositionColumn;

    /// A column of `size` positions, not yet written: the one the last index left when it is
    /// about that size.
    static Positions take_positions(std::size_t size);
    /// The order of the keys by name: `same_keys`'s when it has as many keys, else sorted.
    void order_names(const Trace& trace, const KeyIndex* same_keys);
    /// Indexes every request of `trace` (the constructor's two passes).
    void place_all(const Trace& trace);

    std::vector<std::uint32_t> starts_;  ///< one per key, and the end
    /// One per request, grouped by key; every one written by the constructor that sizes it.
    Positions positions_;
    std::shared_ptr<const std::vector<KeyId>> by_name_;
};

}  // namespace ratelab
