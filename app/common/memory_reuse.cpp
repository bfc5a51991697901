#include "memory_reuse.h"

#include <cstdlib>  // defines __GLIBC__ under glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ratelab::app {

bool keepFreedMemoryForReuse() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    constexpr int kMmapThreshold = 32 << 20;   // the largest glibc accepts on 64 bits
    constexpr int kTrimThreshold = 256 << 20;  // freed heap kept before any is returned
    // Setting either also stops glibc from moving the thresholds itself.
    return mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 &&
           mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
#else
    return false;
#endif
}

}  // namespace ratelab::app
