#pragma once
// Sharing independent tasks out over threads: simulate()'s lanes and a sweep's runs.

#include <cstddef>
#include <functional>

namespace ratelab::detail {

/// Calls `work(i)` for every i in [0, count) over `threads` threads, each i once; rethrows the
/// error of the first task that failed after all have finished. Each task writes only its own
/// slot, so results do not depend on the thread count.
void share_out(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work);

/// How many threads `tasks` tasks over a trace of `requests` requests are worth: `asked`, or
/// one per core when it is 0, but one alone below 20,000 requests, where a thread costs more
/// than it saves, and never more than there are tasks.
unsigned threads_for(std::size_t requests, unsigned asked, std::size_t tasks);

}  // namespace ratelab::detail
