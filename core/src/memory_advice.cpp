#include "memory_advice.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ratelab::detail {

namespace {

#if defined(__linux__)
constexpr std::size_t kWorthAsking = std::size_t{4} << 20;  // bytes

/// madvise(`advice`) over the whole `unit`s inside [data, data + bytes), for ranges of at least
/// kWorthAsking. A hint: if the kernel declines or does not know it, the pages stay as they are.
void advise_inside(void* data, std::size_t bytes, std::uintptr_t unit, int advice) {
    if (bytes < kWorthAsking)
        return;
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (start + unit - 1) & ~(unit - 1);
    const std::uintptr_t end = (start + bytes) & ~(unit - 1);
    if (end > begin)
        madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}
#endif

}  // namespace

void advise_huge_pages([[maybe_unused]] void* data, [[maybe_unused]] std::size_t bytes) {
#if defined(MADV_HUGEPAGE)
    advise_inside(data, bytes, std::uintptr_t{2} << 20, MADV_HUGEPAGE);
#endif
}

void map_for_writing([[maybe_unused]] void* data, [[maybe_unused]] std::size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
    // Whole pages only: the partial ones at the ends are mapped when first written.
    advise_inside(data, bytes, static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)),
                  MADV_POPULATE_WRITE);
#endif
}

}  // namespace ratelab::detail
