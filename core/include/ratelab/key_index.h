#pragma once
// Where each key's requests lie in a trace. Runs over traces of many keys keep no checkpoints,
// so what concerns one key of many (its state at a tick, the why of one of its decisions, its
// decisions after an edit) would read every request of the trace from the first; with the
// index it reads that key's requests alone.

#include <cstddef>
#include <cstdint>
#include <iterator>
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

class KeyIndex;

/// Where one key's requests lie, ascending: a view into its KeyIndex, valid while that lives.
/// The index holds them stretch by stretch of the trace, so the view walks the stretches.
class KeyPositions {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = std::uint32_t;
        using difference_type = std::ptrdiff_t;
        using pointer = const std::uint32_t*;
        using reference = std::uint32_t;

        iterator() = default;
        std::uint32_t operator*() const { return base_ + *at_; }
        iterator& operator++() {
            if (++at_ == end_)
                next_stretch();
            return *this;
        }
        iterator operator++(int) {
            iterator was = *this;
            ++*this;
            return was;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

    private:
        friend class KeyPositions;
        iterator(const KeyIndex* index, KeyId key, std::size_t stretch);
        /// Moves to the first position of the next stretch that holds any (none: the end).
        void next_stretch();

        const KeyIndex* index_ = nullptr;
        KeyId key_ = 0;
        std::size_t stretch_ = 0;
        const std::uint32_t* at_ = nullptr;
        const std::uint32_t* end_ = nullptr;
        std::uint32_t base_ = 0;
    };

    KeyPositions(const KeyIndex& index, KeyId key) : index_(&index), key_(key) {}

    iterator begin() const;
    iterator end() const { return {}; }
    std::size_t size() const;
    bool empty() const { return size() == 0; }
    /// How many of them lie before request `end`.
    std::size_t count_before(std::size_t end) const;
    /// Appends the `from`th to the `to`th (not included) to `out`.
    void append(std::size_t from, std::size_t to, std::vector<std::uint32_t>& out) const;

private:
    const KeyIndex* index_;
    KeyId key_;
};

/// Each key's requests, held stretch by stretch of the trace: a stretch lists its own requests
/// key by key, each position counted from the stretch's first request. An edit indexes again
/// only the stretch it lies in (a few hundred thousand requests on a trace of ten million over
/// many keys) and shares the others with the index before; positions after the edit move with
/// their stretch's start, not one by one. There are as many stretches as keep their starts per
/// key within a quarter of the positions, and at most 64.
class KeyIndex {
public:
    /// Indexes `trace`: one pass counts each key's requests, a second places them. 4 bytes per
    /// request, and 4 per key in each stretch. `same_keys`, when given, indexes a trace with the
    /// same key table: its order of the keys by name is shared rather than sorted again.
    /// `stretch`: about how many requests each stretch holds (0: chosen from the trace).
    explicit KeyIndex(const Trace& trace, const KeyIndex* same_keys = nullptr,
                      std::size_t stretch = 0);
    /// Indexes `trace`, an edit of `before_trace` (indexed by `before`) with the same key table:
    /// its requests [first, size - tail) took the place of the old [first, old size - tail), the
    /// others are as they were. The stretches the change lies in are indexed again (within one
    /// stretch: each key's list copied, its later positions moved by the change in length, only
    /// the changed requests placed anew); the others are shared with `before`. Indexes from
    /// scratch, stretches shared out over `threads` threads, when `before` is not an index of
    /// `before_trace`, or the key tables differ in size, or a large part changed.
    KeyIndex(const Trace& trace, const KeyIndex& before, const Trace& before_trace,
             std::size_t first, std::size_t tail, unsigned threads = 1);
    KeyIndex(const KeyIndex&) = delete;
    KeyIndex& operator=(const KeyIndex&) = delete;

    /// The indexes of `key`'s requests, ascending.
    KeyPositions of(KeyId key) const { return {*this, key}; }
    /// Every key id of the trace, ordered by the key's name.
    std::span<const KeyId> by_name() const { return *by_name_; }
    /// The indexes of the requests of `keys` (each listed once), ascending.
    std::vector<std::uint32_t> of(std::span<const KeyId> keys) const;
    /// Whether it can be the index of `trace`: as many requests and keys. A guard, not a proof:
    /// a run holds the index of the trace it decided.
    bool fits(const Trace& trace) const {
        return bases_.back() == trace.requests.size() && keys_ == trace.keys.size();
    }
    /// How many stretches it holds them in.
    std::size_t stretches() const { return stretches_.size(); }
    /// What it holds, each stretch counted whole even when another index shares it.
    std::size_t memory_bytes() const;
    /// How many of its stretches `other` holds too (not copies: the same).
    std::size_t shared_with(const KeyIndex& other) const;

    /// Whether the two list the same positions for every key, in the same order of names.
    friend bool operator==(const KeyIndex& a, const KeyIndex& b);

private:
    friend class KeyPositions;
    friend class KeyPositions::iterator;
    using Positions = detail::PositionColumn;
    /// The index of requests [base, base + size) of the trace, each position from `base`.
    struct Stretch {
        std::vector<std::uint32_t> starts;  ///< one per key, and the end
        Positions positions;                ///< grouped by key
        /// Leaves its column of positions, when large, for the next stretch to write over.
        ~Stretch();
        std::span<const std::uint32_t> of(KeyId key) const {
            return {positions.data() + starts[key], positions.data() + starts[key + 1]};
        }
    };
    using Shared = std::shared_ptr<const Stretch>;

    /// A column of `size` positions, not yet written: the one the last stretch left when it is
    /// about that size.
    static Positions take_positions(std::size_t size);
    /// The order of the keys by name: `same_keys`'s when it has as many keys, else sorted.
    void order_names(const Trace& trace, const KeyIndex* same_keys);
    /// Indexes every request of `trace`, in stretches shared out over `threads` threads.
    void place_all(const Trace& trace, unsigned threads);
    /// The index of requests [begin, end) of `trace` (the constructor's two passes).
    Shared place(const Trace& trace, std::size_t begin, std::size_t end) const;
    /// `old`, the stretch that began at request `old_base` of `before_trace`, after the change
    /// within it: its requests [first, old_end) (counted from its start) are now `trace`'s
    /// [base + first, base + new_end), where `base` is where it begins in `trace`.
    Shared edit(const Trace& trace, std::size_t base, const Stretch& old, const Trace& before_trace,
                std::size_t old_base, std::size_t first, std::size_t old_end, std::size_t new_end,
                unsigned threads) const;

    std::size_t keys_ = 0;
    std::size_t stretch_ = 0;  ///< about how many requests a stretch holds
    std::vector<Shared> stretches_;
    std::vector<std::size_t> bases_;  ///< each stretch's first request, and the trace's size
    std::shared_ptr<const std::vector<KeyId>> by_name_;
};

}  // namespace ratelab
