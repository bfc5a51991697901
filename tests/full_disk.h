#pragma once
// A disk that fills up after `bytes` bytes of any one file, for the rest of a test: the file
// size limit makes write() fail with EFBIG exactly where a full disk fails with ENOSPC, on any
// file system and without privileges. Each ctest entry is a process of its own, so the limit
// ends with the test at the latest.

#include <csignal>

#include <sys/resource.h>

namespace ratelab::test {

class FullDiskAfter {
public:
    explicit FullDiskAfter(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &saved_);
        // Past the limit the kernel also sends SIGXFSZ, which would end the test.
        saved_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{bytes, saved_.rlim_max};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    FullDiskAfter(const FullDiskAfter&) = delete;
    FullDiskAfter& operator=(const FullDiskAfter&) = delete;
    ~FullDiskAfter() {
        ::setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, saved_handler_);
    }

private:
    rlimit saved_{};
    void (*saved_handler_)(int) = nullptr;
};

}  // namespace ratelab::test
