#pragma once
// What every fuzz target shares: an invariant check that stops the run with a readable message.
// libFuzzer treats the abort as a crash and saves the input that caused it.

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ratelab::fuzz {

[[noreturn]] inline void invariant_broken(const char* condition, const char* file, int line,
                                          const std::string& detail) {
    std::fprintf(stderr, "\n==ratelab== invariant broken at %s:%d\n  %s\n  %s\n", file, line,
                 condition, detail.c_str());
    std::abort();
}

}  // namespace ratelab::fuzz

/// Aborts unless `condition` holds; `detail` is streamed (`"tick " << t`) only on failure.
#define FUZZ_CHECK(condition, detail)                                                              \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::ostringstream fuzz_detail_;                                                       \
            fuzz_detail_ << detail; /* NOLINT */                                                   \
            ::ratelab::fuzz::invariant_broken(#condition, __FILE__, __LINE__, fuzz_detail_.str()); \
        }                                                                                          \
    } while (false)
