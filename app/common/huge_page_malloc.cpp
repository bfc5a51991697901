#include "huge_page_malloc.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__linux__)
#include <sys/auxv.h>
#endif

namespace ratelab::app {

namespace {

constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char* kSetting = "glibc.malloc.hugetlb";
constexpr const char* kRestarted = "RATELAB_RESTARTED_FOR_HUGE_PAGES";

bool contains(const char* text, const char* part) {
    return text != nullptr && std::strstr(text, part) != nullptr;
}

}  // namespace

void restartWithHugePageMalloc(char* argv[]) {
#if defined(__linux__) && defined(__GLIBC__)
    if (std::getenv(kRestarted) != nullptr) {
        unsetenv(kRestarted);  // the restart itself: not passed on to what it starts
        return;
    }
    const char* tunables = std::getenv(kTunables);
    const bool had_tunables = tunables != nullptr;
    const std::string original = had_tunables ? tunables : "";
    if (contains(tunables, kSetting) || contains(std::getenv("LD_PRELOAD"), "vgpreload") ||
        getauxval(AT_SECURE) != 0) {
        return;
    }
    std::string value = original.empty() ? "" : original + ":";
    value += kSetting;
    value += "=1";
    if (setenv(kTunables, value.c_str(), 1) != 0 || setenv(kRestarted, "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Still here: the restart failed. Run on as started, with the environment as it was.
    unsetenv(kRestarted);
    if (had_tunables)
        setenv(kTunables, original.c_str(), 1);
    else
        unsetenv(kTunables);
#else
    (void)argv;
#endif
}

bool namesFileOfAtLeast(char* argv[], std::uintmax_t bytes) {
    if (argv[0] == nullptr)
        return false;
    for (char** arg = argv + 1; *arg != nullptr; ++arg) {
        struct stat about {};
        if (stat(*arg, &about) == 0 && S_ISREG(about.st_mode) &&
            static_cast<std::uintmax_t>(about.st_size) >= bytes)
            return true;
    }
    return false;
}

}  // namespace ratelab::app
