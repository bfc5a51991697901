#include "ratelab/request_column.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ratelab/shared_chunks.h"

namespace ratelab {

RequestColumn::RequestColumn(std::initializer_list<Request> requests)
    : RequestColumn(std::span<const Request>(requests.begin(), requests.size())) {}

RequestColumn::RequestColumn(std::span<const Request> requests) {
    reserve(requests.size());
    for (std::size_t at = 0; at < requests.size(); at += kChunk) {
        const std::size_t count = std::min(kChunk, requests.size() - at);
        copy_in(requests.data() + at, count, kChunk);
    }
}

const Request& RequestColumn::at(std::size_t index) const {
    if (index >= size_)
        throw std::out_of_range("request " + std::to_string(index) + " of " +
                                std::to_string(size_));
    return (*this)[index];
}

Request& RequestColumn::operator[](std::size_t index) {
    const std::size_t c = chunk_of(index);
    if (chunks_[c].use_count() > 1) {
        chunks_[c] = std::make_shared<Chunk>(*chunks_[c]);
        data_[c] = chunks_[c]->data();
    }
    return (*chunks_[c])[index - starts_[c]];
}

std::span<const Request> RequestColumn::contiguous(std::size_t index, std::size_t end) const {
    end = std::min(end, size());
    if (index >= end)
        return {};
    const std::size_t c = chunk_of(index);
    return {data_[c] + (index - starts_[c]), std::min(end, starts_[c + 1]) - index};
}

std::span<const Request> RequestColumn::contiguous_before(std::size_t end,
                                                          std::size_t begin) const {
    end = std::min(end, size_);
    if (begin >= end)
        return {};
    const std::size_t c = chunk_of(end - 1);
    const std::size_t from = std::max(begin, starts_[c]);
    return {data_[c] + (from - starts_[c]), end - from};
}

std::size_t RequestColumn::common_prefix(const RequestColumn& other) const {
    const std::size_t common = std::min(size_, other.size_);
    std::size_t at = 0;
    while (at < common) {
        const std::span<const Request> mine = contiguous(at, common);
        const std::span<const Request> theirs = other.contiguous(at, at + mine.size());
        if (mine.data() != theirs.data()) {
            const auto differ = std::mismatch(theirs.begin(), theirs.end(), mine.begin()).first;
            if (differ != theirs.end())
                return at + static_cast<std::size_t>(differ - theirs.begin());
        }
        at += theirs.size();
    }
    return common;
}

std::size_t RequestColumn::common_suffix(const RequestColumn& other, std::size_t most) const {
    most = std::min({most, size_, other.size_});
    std::size_t tail = 0;  // requests matched from the ends
    while (tail < most) {
        const std::span<const Request> mine = contiguous_before(size_ - tail, size_ - most);
        const std::size_t length = std::min(mine.size(), most - tail);
        const std::span<const Request> theirs =
            other.contiguous_before(other.size_ - tail, other.size_ - tail - length);
        const std::size_t n = theirs.size();
        const Request* const mine_end = mine.data() + mine.size();
        if (mine_end != theirs.data() + n) {
            for (std::size_t k = 1; k <= n; ++k) {
                if (!(mine_end[-static_cast<std::ptrdiff_t>(k)] == theirs[n - k]))
                    return tail + k - 1;
            }
        }
        tail += n;
    }
    return most;
}

void RequestColumn::reserve(std::size_t requests) {
    const std::size_t chunks = requests / kChunk + 1;
    chunks_.reserve(chunks);
    data_.reserve(chunks);
    starts_.reserve(chunks + 1);
    lookup_.reserve((requests >> kShift) + 1);
}

void RequestColumn::add_chunk(std::shared_ptr<Chunk> chunk) {
    if (starts_.empty())
        starts_.push_back(0);
    data_.push_back(chunk->data());
    size_ += chunk->size();
    starts_.push_back(size_);
    chunks_.push_back(std::move(chunk));
}

RequestColumn::Chunk& RequestColumn::own_tail(std::size_t fill) {
    // A chunk shared with another column is copied only when it is too short to be followed.
    const bool shared = !chunks_.empty() && chunks_.back().use_count() > 1;
    if (chunks_.empty() || chunks_.back()->size() >= fill ||
        (shared && chunks_.back()->size() >= kLeast)) {
        auto chunk = std::make_shared<Chunk>();
        chunk->reserve(kChunk);
        add_chunk(std::move(chunk));
    } else if (shared) {
        auto chunk = std::make_shared<Chunk>();
        chunk->reserve(std::max(kChunk, chunks_.back()->size() + 1));
        chunk->assign(chunks_.back()->begin(), chunks_.back()->end());
        chunks_.back() = std::move(chunk);
        data_.back() = chunks_.back()->data();
    }
    return *chunks_.back();
}

void RequestColumn::push_back_slowly(const Request& request) {
    Chunk& tail = own_tail(kChunk);
    tail.push_back(request);
    data_.back() = tail.data();
    ++starts_.back();
    ++size_;
    extend_lookup();
}

void RequestColumn::copy_in(const Request* first, std::size_t count, std::size_t fill) {
    while (count > 0) {
        Chunk& tail = own_tail(fill);
        const std::size_t take = std::min(count, fill - tail.size());
        tail.insert(tail.end(), first, first + take);
        data_.back() = tail.data();
        starts_.back() += take;
        size_ += take;
        first += take;
        count -= take;
    }
    extend_lookup();
}

void RequestColumn::share(const std::shared_ptr<Chunk>& chunk) {
    const std::size_t tail = chunks_.empty() ? kLeast : chunks_.back()->size();
    if (tail >= kLeast) {
        add_chunk(chunk);
        extend_lookup();
        return;
    }
    // The last chunk is too short to be followed: fill it from `chunk`, and share nothing.
    // Split evenly when both do not fit in one, so that neither part is short: the next chunk
    // can then be shared.
    const std::size_t all = tail + chunk->size();
    const std::size_t first = all <= kMost ? chunk->size() : all / 2 - tail;
    Chunk& own = own_tail(kMost);
    own.insert(own.end(), chunk->begin(), chunk->begin() + static_cast<std::ptrdiff_t>(first));
    data_.back() = own.data();
    starts_.back() += first;
    size_ += first;
    if (first < chunk->size()) {
        auto rest = std::make_shared<Chunk>(chunk->begin() + static_cast<std::ptrdiff_t>(first),
                                            chunk->end());
        add_chunk(std::move(rest));
    }
    extend_lookup();
}

void RequestColumn::append(const RequestColumn& from, std::size_t begin, std::size_t end) {
    end = std::min(end, from.size());
    while (begin < end) {
        const std::size_t c = from.chunk_of(begin);
        const std::size_t first = from.starts_[c];
        const std::size_t last = from.starts_[c + 1];
        const std::size_t stop = std::min(last, end);
        if (begin == first && stop == last)
            share(from.chunks_[c]);
        else  // filled to kMost: a request added inside a full chunk leaves no short one
            copy_in(from.data_[c] + (begin - first), stop - begin, kMost);
        begin = stop;
    }
}

void RequestColumn::resize(std::size_t count) {
    if (count < size_) {
        RequestColumn head;
        head.append(*this, 0, count);
        swap(head);
    }
    while (size_ < count)
        push_back(Request{});
}

RequestColumn::const_iterator RequestColumn::insert(const_iterator at, const Request& request) {
    const auto index = static_cast<std::size_t>(at - begin());
    RequestColumn edited;
    edited.reserve(size_ + 1);
    edited.append(*this, 0, index);
    edited.copy_in(&request, 1, kMost);
    edited.append(*this, index, size_);
    swap(edited);
    return const_iterator(this, index);
}

RequestColumn::const_iterator RequestColumn::erase(const_iterator first, const_iterator last) {
    const auto from = static_cast<std::size_t>(first - begin());
    const auto to = static_cast<std::size_t>(last - begin());
    RequestColumn edited;
    edited.reserve(size_);
    edited.append(*this, 0, from);
    edited.append(*this, to, size_);
    swap(edited);
    return const_iterator(this, from);
}

void RequestColumn::extend_lookup() {
    std::size_t c = lookup_.empty() ? 0 : lookup_.back();
    for (std::size_t at = lookup_.size() << kShift; at < size(); at += std::size_t{1} << kShift) {
        while (starts_[c + 1] <= at)
            ++c;
        lookup_.push_back(static_cast<std::uint32_t>(c));
    }
}

std::size_t RequestColumn::shared_chunks(const RequestColumn& other) const {
    return detail::count_shared(chunks_, other.chunks_);
}

bool operator==(const RequestColumn& a, const RequestColumn& b) {
    if (a.size() != b.size())
        return false;
    // Stretch by stretch, each contiguous in both; a chunk both hold at the same place is equal.
    std::size_t at = 0;
    while (at < a.size()) {
        const std::span<const Request> x = a.contiguous(at, a.size());
        const std::span<const Request> y = b.contiguous(at, at + x.size());
        if (x.data() != y.data() && !std::equal(y.begin(), y.end(), x.begin()))
            return false;
        at += y.size();
    }
    return true;
}

void RequestColumn::const_iterator::settle() {
    if (index_ >= column_->size()) {
        at_ = chunk_end_ = nullptr;
        return;
    }
    const std::size_t c = column_->chunk_of(index_);
    at_ = column_->data_[c] + (index_ - column_->starts_[c]);
    chunk_end_ = column_->data_[c] + (column_->starts_[c + 1] - column_->starts_[c]);
}

}  // namespace ratelab
