#pragma once

#include <cstddef>

namespace ratelab::detail {

/// Asks the operating system to back the 2 MB-aligned part of [data, data + bytes) with huge
/// pages. For a large array read at random, such as a million keys' limiter states, each access
/// would otherwise also miss the processor's table of page translations: with 4 KB pages the
/// array spans tens of thousands of them. A hint only: where the system has no such thing, or
/// declines, nothing changes. Arrays under 4 MB are left alone.
void advise_huge_pages(void* data, std::size_t bytes);

}  // namespace ratelab::detail
