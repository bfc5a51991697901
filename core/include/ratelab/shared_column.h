#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ratelab {

/// Values read as a vector's are (by index, in order through iterators) but held in chunks of
/// kChunk that copies share. A copy costs a pointer per chunk; changing one value of a copy
/// (edit()) copies only that value's chunk, and only while another column still holds it. Meant
/// for figures kept per key: after an edit that touched a few keys, their figures are set in a
/// copy of the figures before it, and the two share every other chunk.
template <class T>
class SharedColumn {
public:
    static constexpr std::size_t kChunkBits = 10;
    static constexpr std::size_t kChunk = std::size_t{1} << kChunkBits;

    class const_iterator;
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = const T&;
    using const_reference = const T&;
    using iterator = const_iterator;

    SharedColumn() = default;
    /// Takes `values` over, kChunk at a time.
    explicit SharedColumn(std::vector<T> values) {
        if (values.size() <= kChunk) {
            size_ = values.size();
            if (size_ > 0)
                chunks_.push_back(std::make_shared<std::vector<T>>(std::move(values)));
            return;
        }
        chunks_.reserve((values.size() + kChunk - 1) / kChunk);
        for (std::size_t at = 0; at < values.size(); at += kChunk) {
            const std::size_t end = std::min(values.size(), at + kChunk);
            chunks_.push_back(std::make_shared<std::vector<T>>(
                std::make_move_iterator(values.begin() + static_cast<difference_type>(at)),
                std::make_move_iterator(values.begin() + static_cast<difference_type>(end))));
        }
        size_ = values.size();
    }

    /// `count` default values, to be set with edit().
    static SharedColumn filled(std::size_t count) {
        SharedColumn column;
        column.chunks_.reserve((count + kChunk - 1) / kChunk);
        for (std::size_t at = 0; at < count; at += kChunk)
            column.chunks_.push_back(
                std::make_shared<std::vector<T>>(std::min(kChunk, count - at)));
        column.size_ = count;
        return column;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const T& operator[](std::size_t i) const {
        return (*chunks_[i >> kChunkBits])[i & (kChunk - 1)];
    }
    const T& at(std::size_t i) const {
        if (i >= size_)
            throw std::out_of_range("SharedColumn::at");
        return (*this)[i];
    }
    const T& front() const { return (*this)[0]; }
    const T& back() const { return (*this)[size_ - 1]; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }

    /// Appends `value`; the last chunk is copied first when another column shares it.
    void push_back(T value) {
        if (size_ % kChunk == 0)
            chunks_.push_back(std::make_shared<std::vector<T>>());
        else
            own(chunks_.size() - 1);
        chunks_.back()->push_back(std::move(value));
        ++size_;
    }
    /// The value at `i`, to change: its chunk is copied first when another column shares it.
    T& edit(std::size_t i) { return (*own(i >> kChunkBits))[i & (kChunk - 1)]; }

    /// How many of this column's chunks `other` holds too (the same chunks, not equal ones).
    std::size_t shared_with(const SharedColumn& other) const {
        std::size_t shared = 0;
        for (std::size_t c = 0; c < chunks_.size() && c < other.chunks_.size(); ++c)
            shared += chunks_[c] == other.chunks_[c] ? 1 : 0;
        return shared;
    }

    friend bool operator==(const SharedColumn& a, const SharedColumn& b) {
        if (a.size_ != b.size_)
            return false;
        for (std::size_t c = 0; c < a.chunks_.size(); ++c) {
            if (a.chunks_[c] != b.chunks_[c] && *a.chunks_[c] != *b.chunks_[c])
                return false;
        }
        return true;
    }

private:
    /// Chunk `c`, copied first when it is shared. A chunk held by this column alone cannot be
    /// shared meanwhile by another thread: it would need this column to copy it from.
    std::vector<T>* own(std::size_t c) {
        std::shared_ptr<std::vector<T>>& chunk = chunks_[c];
        if (chunk.use_count() > 1)
            chunk = std::make_shared<std::vector<T>>(*chunk);
        return chunk.get();
    }

    std::vector<std::shared_ptr<std::vector<T>>> chunks_;  ///< each full but the last
    std::size_t size_ = 0;
};

template <class T>
class SharedColumn<T>::const_iterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    const_iterator(const SharedColumn* column, std::size_t at) : column_(column), at_(at) {}

    reference operator*() const { return (*column_)[at_]; }
    pointer operator->() const { return &(*column_)[at_]; }
    reference operator[](difference_type n) const { return *(*this + n); }
    const_iterator& operator++() {
        ++at_;
        return *this;
    }
    const_iterator operator++(int) {
        const_iterator was = *this;
        ++at_;
        return was;
    }
    const_iterator& operator--() {
        --at_;
        return *this;
    }
    const_iterator operator--(int) {
        const_iterator was = *this;
        --at_;
        return was;
    }
    const_iterator& operator+=(difference_type n) {
        at_ = static_cast<std::size_t>(static_cast<difference_type>(at_) + n);
        return *this;
    }
    const_iterator& operator-=(difference_type n) { return *this += -n; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
        return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
        return a.at_ == b.at_;
    }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) {
        return a.at_ <=> b.at_;
    }

private:
    const SharedColumn* column_ = nullptr;
    std::size_t at_ = 0;
};

}  // namespace ratelab
