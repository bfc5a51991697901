// The desktop app keeps freed memory for reuse (app/common): an edit's new decision columns then
// take the pages of the ones it replaced instead of faulting in fresh ones.
#include <sys/resource.h>

#include <cstddef>
#include <memory>

#include "catch.h"
#include "memory_reuse.h"
#include "ratelab/rational.h"

namespace {

// Unused under the sanitizer, which takes no glibc settings (below).
[[maybe_unused]] long minor_page_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

}  // namespace

TEST_CASE("freed decision columns are reused without new pages") {
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizer's allocator takes no glibc settings, and the app then runs without them.
    CHECK_FALSE(ratelab::app::keepFreedMemoryForReuse());
#else
    REQUIRE(ratelab::app::keepFreedMemoryForReuse());
    // A block the size of a 100k trace's decision times, freed and allocated again, as every
    // edit does: the second one must reuse the first one's pages.
    constexpr std::size_t kBytes = 100'000 * sizeof(ratelab::Rational);
    const auto touch = [] {
        auto block = std::make_unique<char[]>(kBytes);  // zeroed: every page touched
        return static_cast<int>(block[kBytes / 2]);
    };
    CHECK(touch() == 0);
    const long before = minor_page_faults();
    CHECK(touch() == 0);
    const long faults = minor_page_faults() - before;
    const long pages = static_cast<long>(kBytes / 4096);
    INFO(faults << " page faults for " << pages << " pages");
    CHECK(faults < pages / 10);
#endif
}
