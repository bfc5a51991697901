#pragma once

#include <cstddef>
#include <vector>

namespace ratelab::detail {

/// A FIFO queue on one growable array: no allocation once it has reached its working size,
/// unlike std::deque, which allocates and frees blocks as it slides.
template <class T>
class RingBuffer {
public:
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    T& front() { return slots_[head_]; }
    const T& front() const { return slots_[head_]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }
    /// i-th element from the front.
    T& operator[](std::size_t i) { return slots_[(head_ + i) & (slots_.size() - 1)]; }
    const T& operator[](std::size_t i) const { return slots_[(head_ + i) & (slots_.size() - 1)]; }

    /// A hint to bring the front element into the cache before it is needed.
    void prefetch_front() const {
        if (!slots_.empty())
            __builtin_prefetch(&slots_[head_]);
    }

    void push_back(const T& value) {
        if (size_ == slots_.size())
            grow();
        slots_[(head_ + size_) & (slots_.size() - 1)] = value;
        ++size_;
    }
    void pop_front() {
        head_ = (head_ + 1) & (slots_.size() - 1);
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
    [[gnu::noinline, gnu::cold]] void grow() {
        std::vector<T> bigger(slots_.empty() ? 4 : slots_.size() * 2);
        for (std::size_t i = 0; i < size_; ++i)
            bigger[i] = (*this)[i];
        slots_.swap(bigger);
        head_ = 0;
    }

    std::vector<T> slots_;  // size is 0 or a power of two
    std::size_t head_ = 0;
    std::size_t size_ = 0;
};

}  // namespace ratelab::detail
