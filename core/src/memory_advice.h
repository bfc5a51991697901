#pragma once

#include <cstddef>

namespace ratelab::detail {

/// Asks the operating system to back the 2 MB-aligned part of [data, data + bytes) with huge
/// pages. For a large array read at random, such as a million keys' limiter states, each access
/// would otherwise also miss the processor's table of page translations: with 4 KB pages the
/// array spans tens of thousands of them. A hint only: where the system has no such thing, or
/// declines, nothing changes. Arrays under 4 MB are left alone.
void advise_huge_pages(void* data, std::size_t bytes);

/// Asks the operating system to map every page of [data, data + bytes) now, ready for writing,
/// for memory that is about to be written from end to end, such as the decision columns of a
/// large run. Fresh memory is otherwise mapped one 4 KB page at a time, each on a page fault:
/// on a virtual machine that costs microseconds, and the 170 MB of columns of a 10M-request run
/// took 42,000 faults. One call maps them all without the round trips. A hint only: on kernels
/// before Linux 5.14, or elsewhere, nothing changes. Ranges under 4 MB are left alone.
void map_for_writing(void* data, std::size_t bytes);

}  // namespace ratelab::detail
