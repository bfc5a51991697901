#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace ratelab {

/// Simulated time: a whole number of ticks, >= 0.
using Tick = std::int64_t;
/// Index into Trace::keys.
using KeyId = std::uint32_t;

/// One request of a trace. Requests on the same tick are processed in trace order.
struct Request {
    Tick tick = 0;
    std::uint32_t cost = 1;  ///< >= 1
    KeyId key = 0;           ///< Trace::keys[key] is the caller's key; 0 is the default key ""

    friend bool operator==(const Request&, const Request&) = default;
};

/// The requests of a trace, read as a vector is (by index in constant time, in order through
/// iterators) but held in chunks that copies share. A copy costs a pointer per chunk, and a
/// column built from stretches of another (an edited trace) shares every chunk it takes whole:
/// an edit of ten million requests copies the few thousand around it, and the trace before the
/// edit, kept for undo or by a run still reading it, keeps the rest alive.
///
/// Every chunk but the last holds at least kLeast requests, so that finding a request's chunk
/// is one look in a table and at most one step.
class RequestColumn {
public:
    static constexpr std::size_t kChunk = 4096;       ///< requests a chunk is filled to
    static constexpr std::size_t kLeast = 1024;       ///< fewest in a chunk but the last
    static constexpr std::size_t kMost = 2 * kChunk;  ///< most in a chunk

    class const_iterator;
    using value_type = Request;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = const Request&;
    using const_reference = const Request&;
    using iterator = const_iterator;

    RequestColumn() = default;
    RequestColumn(const RequestColumn&) = default;
    RequestColumn& operator=(const RequestColumn&) = default;
    /// Moves leave `other` empty.
    RequestColumn(RequestColumn&& other) noexcept { swap(other); }
    RequestColumn& operator=(RequestColumn&& other) noexcept {
        RequestColumn taken;
        taken.swap(other);
        swap(taken);
        return *this;
    }
    void swap(RequestColumn& other) noexcept {
        chunks_.swap(other.chunks_);
        data_.swap(other.data_);
        starts_.swap(other.starts_);
        lookup_.swap(other.lookup_);
        std::swap(size_, other.size_);
    }
    RequestColumn(std::initializer_list<Request> requests);
    explicit RequestColumn(std::span<const Request> requests);
    RequestColumn(const std::vector<Request>& requests)  // NOLINT: a copy, as from a vector
        : RequestColumn(std::span<const Request>(requests)) {}

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Request& operator[](std::size_t index) const {
        const std::size_t c = chunk_of(index);
        return data_[c][index - starts_[c]];
    }
    /// Request `index`; std::out_of_range past the end.
    const Request& at(std::size_t index) const;
    /// Request `index`, to change: its chunk is copied first if another column shares it.
    Request& operator[](std::size_t index);
    Request& front() { return (*this)[0]; }
    Request& back() { return (*this)[size_ - 1]; }
    const Request& front() const { return data_.front()[0]; }
    const Request& back() const { return data_.back()[size_ - starts_[starts_.size() - 2] - 1]; }
    const_iterator begin() const;
    const_iterator end() const;

    /// The requests from `index` on that lie next to each other in memory, up to `end`.
    std::span<const Request> contiguous(std::size_t index, std::size_t end) const;
    /// The requests before `end` that lie next to each other in memory, from `begin` on.
    std::span<const Request> contiguous_before(std::size_t end, std::size_t begin) const;

    /// How many requests at the start of this column are as in `other`; chunks the two share
    /// in the same place are not read.
    std::size_t common_prefix(const RequestColumn& other) const;
    /// How many requests at the end of this column are as at the end of `other`, up to `most`.
    std::size_t common_suffix(const RequestColumn& other, std::size_t most) const;

    void push_back(const Request& request) {
        // Most additions go into a last chunk of this column's own with room to spare, at a
        // request that needs no entry in the lookup table.
        if (!chunks_.empty() && (size_ & kLookupMask) != 0) {
            Chunk& tail = *chunks_.back();
            if (tail.size() < kChunk && tail.size() < tail.capacity() &&
                chunks_.back().use_count() == 1) {
                tail.push_back(request);
                ++starts_.back();
                ++size_;
                return;
            }
        }
        push_back_slowly(request);
    }
    /// Adds requests [begin, end) of `from` at the end; the chunks it holds whole are shared.
    void append(const RequestColumn& from, std::size_t begin, std::size_t end);
    void clear() { *this = RequestColumn(); }
    /// Keeps the first `count` requests, or adds default ones up to `count`.
    void resize(std::size_t count);
    /// As a vector's; each copies the chunk it changes and shares the others.
    const_iterator insert(const_iterator at, const Request& request);
    const_iterator erase(const_iterator at);
    const_iterator erase(const_iterator first, const_iterator last);
    template <class Iterator>
    void assign(Iterator first, Iterator last) {
        clear();
        for (; first != last; ++first)
            push_back(*first);
    }
    /// Room in the chunk table for `requests` requests (their chunks are made as they fill).
    void reserve(std::size_t requests);

    /// How many chunks the column holds, and how many of them it shares with `other`.
    std::size_t chunks() const { return chunks_.size(); }
    std::size_t shared_chunks(const RequestColumn& other) const;
    /// Chunk `c` holds requests [chunk_start(c), chunk_start(c + 1)); c <= chunks().
    std::size_t chunk_start(std::size_t c) const { return c < starts_.size() ? starts_[c] : 0; }
    /// The chunk that holds request `index` (< size()).
    std::size_t chunk_holding(std::size_t index) const { return chunk_of(index); }
    /// Chunk `c`'s identity: two columns that share a chunk see the same one. A chunk two
    /// columns hold is copied before either changes it, so while a column that is not changed
    /// holds a chunk, whatever has that chunk's identity holds the same requests. (What is
    /// worked out from a chunk can be kept with its identity and the column that holds it.)
    const void* chunk_identity(std::size_t c) const { return chunks_[c].get(); }

    friend bool operator==(const RequestColumn& a, const RequestColumn& b);

private:
    using Chunk = std::vector<Request>;
    static constexpr unsigned kShift = 10;  // 1 << kShift == kLeast
    static constexpr std::size_t kLookupMask = (std::size_t{1} << kShift) - 1;
    static_assert((std::size_t{1} << kShift) <= kLeast);

    void push_back_slowly(const Request& request);

    std::size_t chunk_of(std::size_t index) const {
        std::size_t c = lookup_[index >> kShift];
        while (starts_[c + 1] <= index)
            ++c;
        return c;
    }
    /// The last chunk, made this column's own and with room for one more request: a new one
    /// when the last holds `fill` or more, or is shared and long enough to be followed.
    Chunk& own_tail(std::size_t fill);
    /// Adds `count` requests from `first` at the end, copied into chunks of up to `fill`.
    void copy_in(const Request* first, std::size_t count, std::size_t fill);
    /// Adds the chunk `chunk` of another column at the end, shared when it can be.
    void share(const std::shared_ptr<Chunk>& chunk);
    void add_chunk(std::shared_ptr<Chunk> chunk);
    /// Brings the lookup table up to the column's size.
    void extend_lookup();

    std::vector<std::shared_ptr<Chunk>> chunks_;
    std::vector<const Request*> data_;  ///< chunks_[c]->data()
    /// Chunk c holds [starts_[c], starts_[c + 1]); empty with no chunks.
    std::vector<std::size_t> starts_;
    std::vector<std::uint32_t> lookup_;  ///< lookup_[b]: the chunk holding request b << kShift
    std::size_t size_ = 0;
};

class RequestColumn::const_iterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;
    using value_type = Request;
    using difference_type = std::ptrdiff_t;
    using pointer = const Request*;
    using reference = const Request&;

    const_iterator() = default;
    const_iterator(const RequestColumn* column, std::size_t index)
        : column_(column), index_(index) {
        settle();
    }

    reference operator*() const { return *at_; }
    pointer operator->() const { return at_; }
    reference operator[](difference_type n) const {
        return (*column_)[index_ + static_cast<std::size_t>(n)];
    }
    const_iterator& operator++() {
        ++index_;
        if (++at_ == chunk_end_)
            settle();
        return *this;
    }
    const_iterator operator++(int) {
        const_iterator was = *this;
        ++*this;
        return was;
    }
    const_iterator& operator--() { return *this -= 1; }
    const_iterator operator--(int) {
        const_iterator was = *this;
        --*this;
        return was;
    }
    const_iterator& operator+=(difference_type n) {
        index_ += static_cast<std::size_t>(n);
        settle();
        return *this;
    }
    const_iterator& operator-=(difference_type n) { return *this += -n; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
        return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
        return a.index_ == b.index_;
    }
    friend std::strong_ordering operator<=>(const const_iterator& a, const const_iterator& b) {
        return a.index_ <=> b.index_;
    }

private:
    /// Points at request index_ (at nothing past the end) and the end of its chunk.
    void settle();

    const RequestColumn* column_ = nullptr;
    std::size_t index_ = 0;
    const Request* at_ = nullptr;
    const Request* chunk_end_ = nullptr;
};

inline RequestColumn::const_iterator RequestColumn::begin() const {
    return const_iterator(this, 0);
}
inline RequestColumn::const_iterator RequestColumn::end() const {
    return const_iterator(this, size());
}
inline RequestColumn::const_iterator RequestColumn::erase(const_iterator at) {
    return erase(at, at + 1);
}

}  // namespace ratelab
