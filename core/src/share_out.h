#pragma once
// Sharing independent tasks out over threads: simulate()'s lanes and a sweep's runs.

#include <cstddef>
#include <functional>

namespace ratelab::detail {

/// Calls `work(i)` for every i in [0, count) over `threads` threads, each i once; rethrows the
/// error of the first task that failed after all have finished. Each task writes only its own
/// slot, so results do not depend on the thread count.
void share_out(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work);

}  // namespace ratelab::detail
