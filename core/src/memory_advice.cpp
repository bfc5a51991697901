#include "memory_advice.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ratelab::detail {

namespace {

constexpr std::size_t kWorthAsking = std::size_t{4} << 20;  // bytes

}  // namespace

void advise_huge_pages([[maybe_unused]] void* data, [[maybe_unused]] std::size_t bytes) {
#if defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    if (bytes < kWorthAsking)
        return;
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (start + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (start + bytes) & ~(kHugePage - 1);
    if (end > begin)  // a hint: if it is declined, the pages stay as they were
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

void map_for_writing([[maybe_unused]] void* data, [[maybe_unused]] std::size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
    if (bytes < kWorthAsking)
        return;
    // madvise takes whole pages: the partial ones at the ends are mapped when first written.
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (start + page - 1) & ~(page - 1);
    const std::uintptr_t end = (start + bytes) & ~(page - 1);
    if (end > begin)  // a hint: if the kernel does not know it, pages are mapped as they are used
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#endif
}

}  // namespace ratelab::detail
