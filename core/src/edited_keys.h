#pragma once
// Which keys an edit changed. Each key is decided on its own, from its own requests in order:
// a key whose requests are the same ones before and after an edit keeps its decisions and its
// figures, even when they now sit at other places in the trace (a request of another key moved
// past them).

#include <cstddef>
#include <vector>

#include "ratelab/model.h"

namespace ratelab::detail {

/// The keys whose requests differ (in number, or one of them in tick, cost or duration, in
/// order) between [first, old_end) of `before` and [first, new_end) of `after`, an edit of it
/// that replaced the one by the other and left the rest as it was; non-zero by key id. Both
/// traces have the same key table.
std::vector<char> keys_changed_by(const Trace& after, const Trace& before, std::size_t first,
                                  std::size_t new_end, std::size_t old_end);

}  // namespace ratelab::detail
