#include "ratelab/key_index.h"

#include <algorithm>
#include <numeric>

namespace ratelab {

KeyIndex::KeyIndex(const Trace& trace, const KeyIndex* same_keys)
    : starts_(trace.keys.size() + 1, 0), positions_(trace.requests.size()) {
    if (same_keys != nullptr && same_keys->by_name_->size() == trace.keys.size()) {
        by_name_ = same_keys->by_name_;
    } else {
        auto names = std::make_shared<std::vector<KeyId>>(trace.keys.size());
        std::iota(names->begin(), names->end(), KeyId{0});
        std::sort(names->begin(), names->end(),
                  [&trace](KeyId a, KeyId b) { return trace.key_name(a) < trace.key_name(b); });
        by_name_ = std::move(names);
    }
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
    std::vector<std::uint32_t> out;
    for (const KeyId key : keys) {
        const std::span<const std::uint32_t> theirs = of(key);
        const auto middle = static_cast<std::ptrdiff_t>(out.size());
        out.insert(out.end(), theirs.begin(), theirs.end());
        std::inplace_merge(out.begin(), out.begin() + middle, out.end());
    }
    return out;
}

}  // namespace ratelab
