// Not a test itself: restart_test.cpp runs it. Notes each start in the file named by its first
// argument, restarts as the apps do, and prints what the restarted process sees.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "huge_page_malloc.h"

int main(int argc, char* argv[]) {
    if (argc < 2)
        return 2;
    std::ofstream(argv[1], std::ios::app) << "started\n";
    ratelab::app::restartWithHugePageMalloc(argv);
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    std::printf("%s|%s\n", tunables != nullptr ? tunables : "(unset)",
                std::getenv("RATELAB_RESTARTED_FOR_HUGE_PAGES") != nullptr ? "marker" : "clean");
    return 0;
}
