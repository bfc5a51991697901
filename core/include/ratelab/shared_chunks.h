#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ratelab::detail {

/// How many of the chunks in `mine` are also in `theirs` (the same objects, not equal ones):
/// what two columns built one from the other share.
template <class Pointer>
std::size_t count_shared(const std::vector<Pointer>& mine, const std::vector<Pointer>& theirs) {
    std::vector<const void*> sorted;
    sorted.reserve(theirs.size());
    for (const auto& chunk : theirs)
        sorted.push_back(chunk.get());
    std::sort(sorted.begin(), sorted.end());
    return static_cast<std::size_t>(std::count_if(mine.begin(), mine.end(), [&](const auto& chunk) {
        return std::binary_search(sorted.begin(), sorted.end(),
                                  static_cast<const void*>(chunk.get()));
    }));
}

}  // namespace ratelab::detail
