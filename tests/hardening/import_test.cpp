// The importers with options and input at their extremes (found by fuzz_import_csv/_log).
#include <limits>
#include <sstream>

#include "catch.h"
#include "ratelab/io/importers.h"

using namespace ratelab::io;

TEST_CASE("hardening/import: a start time far in the past is refused, not overflowed") {
    // The tick of each request is (time - start) / tick; with the earliest possible start that
    // subtraction overflowed 64 bits.
    for (const char* text : {"1700000000\n", "1\n"}) {
        INFO(text);
        ImportOptions options;
        options.origin_ms = std::numeric_limits<std::int64_t>::min();
        options.tick_ms = 1;
        std::istringstream in(text);
        try {
            import_traffic(in, options);
            FAIL("imported");
        } catch (const ImportError& error) {
            CHECK(std::string(error.what()).find("spans more than") != std::string::npos);
        }
    }
    ImportOptions options;
    options.origin_ms = -1'000'000;  // 1,000 s before the epoch: fine with a long enough tick
    std::istringstream in("0\n1\n");
    const ImportResult result = import_traffic(in, options);
    REQUIRE(result.document.trace.requests.size() == 2);
    CHECK(result.document.trace.requests[0].tick == 1000);
    CHECK(result.document.trace.requests[1].tick == 1001);
}
