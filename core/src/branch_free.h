#pragma once

#include <cstdint>

namespace ratelab::detail {

/// `value` when `condition` holds, else 0, computed without a branch. For outcomes that are as
/// likely as not, such as accepts and rejections under load, where a mispredicted branch would
/// cost more than the whole decision.
inline std::int64_t only_if(bool condition, std::int64_t value) {
    return value & -static_cast<std::int64_t>(condition);
}

}  // namespace ratelab::detail
