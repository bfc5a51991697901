#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace ratelab::detail {

/// A FIFO queue on one growable array: no allocation once it has reached its working size,
/// unlike std::deque, which allocates and frees blocks as it slides.
///
/// Its first kInline elements (0 or a power of two) live inside the queue itself: a queue that
/// stays that short never allocates, and is read from the cache line that holds its owner. A
/// million keys' short logs then cost one cache miss per request rather than two, and no
/// allocation per key.
template <class T, std::uint32_t kInline = 0>
class RingBuffer {
    static_assert(std::is_trivially_copyable_v<T>, "elements are copied as bytes");
    static_assert((kInline & (kInline - 1)) == 0, "kInline is 0 or a power of two");

public:
    RingBuffer() = default;
    RingBuffer(const RingBuffer& other) { copy_from(other); }
    RingBuffer(RingBuffer&& other) noexcept { take_from(other); }
    RingBuffer& operator=(const RingBuffer& other) {
        if (this != &other) {
            release();
            copy_from(other);
        }
        return *this;
    }
    RingBuffer& operator=(RingBuffer&& other) noexcept {
        if (this != &other) {
            release();
            take_from(other);
        }
        return *this;
    }
    ~RingBuffer() { release(); }

    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    T& front() { return slots()[head_]; }
    const T& front() const { return slots()[head_]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }
    /// i-th element from the front.
    T& operator[](std::size_t i) { return slots()[(head_ + i) & (capacity_ - 1)]; }
    const T& operator[](std::size_t i) const { return slots()[(head_ + i) & (capacity_ - 1)]; }

    /// A hint to bring the front element into the cache before it is needed (inline elements
    /// come with the queue).
    void prefetch_front() const {
        if (on_heap())
            __builtin_prefetch(&storage_.heap[head_]);
    }

    void push_back(const T& value) {
        if (size_ == capacity_)
            grow();
        slots()[(head_ + size_) & (capacity_ - 1)] = value;
        ++size_;
    }
    void pop_front() {
        head_ = (head_ + 1) & (capacity_ - 1);
        --size_;
    }
    void clear() {
        head_ = 0;
        size_ = 0;
    }
    /// The same elements in the same order.
    friend bool operator==(const RingBuffer& a, const RingBuffer& b) {
        if (a.size_ != b.size_)
            return false;
        for (std::size_t i = 0; i < a.size_; ++i) {
            if (!(a[i] == b[i]))
                return false;
        }
        return true;
    }

private:
    static constexpr std::uint32_t kMaxCapacity = std::uint32_t{1} << 31;

    // Without inline room the elements are always on the heap (none allocated yet: null), and
    // finding them takes no test.
    bool on_heap() const { return kInline == 0 || capacity_ > kInline; }
    T* slots() { return on_heap() ? storage_.heap : storage_.local; }
    const T* slots() const { return on_heap() ? storage_.heap : storage_.local; }

    [[gnu::noinline, gnu::cold]] void grow() {
        if (capacity_ == kMaxCapacity)
            throw std::length_error("a queue outgrew 2^31 elements");
        const std::uint32_t bigger = capacity_ == 0 ? 4 : capacity_ * 2;
        T* moved = new T[bigger];
        for (std::uint32_t i = 0; i < size_; ++i)
            moved[i] = (*this)[i];
        release();
        storage_.heap = moved;
        capacity_ = bigger;
        head_ = 0;
    }
    void release() {
        if (on_heap()) {
            delete[] storage_.heap;
            storage_.heap = nullptr;
        }
        capacity_ = kInline;
    }
    /// Copies `other`'s elements, front first, into this released queue.
    void copy_from(const RingBuffer& other) {
        if (other.size_ > kInline) {
            capacity_ = std::max<std::uint32_t>(4, std::bit_ceil(other.size_));
            storage_.heap = new T[capacity_];
        }
        for (std::uint32_t i = 0; i < other.size_; ++i)
            slots()[i] = other[i];
        head_ = 0;
        size_ = other.size_;
    }
    /// Takes `other`'s elements, leaving it empty; this queue is released.
    void take_from(RingBuffer& other) {
        storage_ = other.storage_;
        capacity_ = other.capacity_;
        head_ = other.head_;
        size_ = other.size_;
        other.storage_.heap = nullptr;
        other.capacity_ = kInline;
        other.head_ = 0;
        other.size_ = 0;
    }

    union Storage {
        Storage() : heap(nullptr) {}
        T local[kInline == 0 ? 1 : kInline];
        T* heap;
    } storage_;
    // 32 bits: a queue is one key's log or one window's units, far below 2^31 elements, and
    // three small fields keep a queue with two 16-byte elements and its owner in 64 bytes.
    std::uint32_t capacity_ = kInline;  // a power of two, or 0
    std::uint32_t head_ = 0;
    std::uint32_t size_ = 0;
};

}  // namespace ratelab::detail
