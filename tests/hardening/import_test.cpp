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

namespace {

/// An input that never ends: `line` over and over, made as it is read.
class EndlessInput : public std::streambuf {
public:
    explicit EndlessInput(std::string line) {
        while (block_.size() < (1u << 16)) {
            block_ += line;
        }
    }

protected:
    int_type underflow() override {
        setg(block_.data(), block_.data(), block_.data() + block_.size());
        return traits_type::to_int_type(block_[0]);
    }

private:
    std::string block_;
};

std::string import_error(std::istream& in, const ImportOptions& options = {}) {
    try {
        import_traffic(in, options);
    } catch (const ImportError& error) {
        return error.what();
    }
    return "imported";
}

}  // namespace

TEST_CASE("hardening/import: a line past the line-length bound is skipped, not held whole") {
    // /dev/zero is one endless line: it used to be read into memory until none was left.
    // A line one byte too long is skipped with its number; the bound itself is fine.
    const std::string fits = "1700000001," + std::string(kMaxImportLineBytes - 11, 'k');
    const std::string too_long = fits + "k";
    std::istringstream in("time,note\n1700000000,a\n" + too_long + "\n" + fits + "\r\n" + too_long +
                          "\r1700000002,b\n");
    const ImportResult result = import_traffic(in, {});
    CHECK(result.imported == 3);
    REQUIRE(result.skipped == 2);
    CHECK(result.first_skipped[0].line == 3);
    CHECK(result.first_skipped[0].reason == "the line is longer than 1048576 bytes (1 MiB)");
    CHECK(result.first_skipped[1].line == 5);
}

TEST_CASE("hardening/import: a quoted field past the line-length bound is skipped as one record") {
    // An open quote goes on over line ends, but is not held past the bound: the record is read
    // on to its closing quote and skipped as one, where it began. The lines inside the quotes
    // never become requests.
    std::string text = "time,key\n1700000000,\"open\n";
    while (text.size() < kMaxImportLineBytes + 100) {
        text += "1700000001,inside the quotes\n";
    }
    text += "\"\n1700000002,b\n";
    std::istringstream in(text);
    const ImportResult result = import_traffic(in, {});
    CHECK(result.imported == 1);
    REQUIRE(result.skipped == 1);
    CHECK(result.first_skipped[0].line == 2);
    CHECK(result.first_skipped[0].reason ==
          "the record is longer than 1048576 bytes (1 MiB); a quote opened in it may not be "
          "closed");
    CHECK(result.document.trace.requests[0].tick == 0);
}

TEST_CASE("hardening/import: an endless input stops at the input bound") {
    // Lines that are all skipped, or all imported, for ever; the bound is lowered for the test.
    ImportOptions options;
    options.max_input_bytes = 4u << 20;
    for (const char* line : {"not a time\n", "1700000000,k\n"}) {
        INFO(line);
        EndlessInput endless(line);
        std::istream in(&endless);
        const std::string error = import_error(in, options);
        CHECK(error == "the input is longer than 4194304 bytes, the most an import reads");
    }
}

TEST_CASE("hardening/import: an over-long CSV line with a quote in it stops the import") {
    // Passed over, its quotes are lost, and with them where its record ends: reading on could
    // make a request of the text in quotes ("mallory"), so the import stops instead.
    const std::string text = "time,key\n1700000000,a\n1700000001,\"" +
                             std::string(kMaxImportLineBytes, 'k') +
                             "\n1700000005,mallory\n\"\n1700000002,b\n";
    std::istringstream in(text);
    CHECK(import_error(in) ==
          "line 3 is longer than 1048576 bytes (1 MiB) and has quotes in it: where its record "
          "ends cannot be told");
    // An access log has no quotes over line ends: the line is skipped like any other.
    const std::string entry = "h - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 1\n";
    std::istringstream log(entry + "\"" + std::string(kMaxImportLineBytes, 'k') + "\n" + entry);
    ImportOptions options;
    options.format = ImportFormat::kCommonLog;
    const ImportResult result = import_traffic(log, options);
    CHECK(result.imported == 2);
    REQUIRE(result.skipped == 1);
    CHECK(result.first_skipped[0].line == 2);
}
