// Fuzzes the traffic importers: the front of the input is the file, the last bytes choose the
// options. Built twice: fuzz_import_csv (CSV) and fuzz_import_log (Common and Combined access
// logs, with RATELAB_FUZZ_ACCESS_LOG). An import either fails with one ImportError or gives a
// trace that validates, starts at tick 0, accounts for every line, and saves and loads back.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz_support.h"
#include "ratelab/io/importers.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"

using namespace ratelab;
using namespace ratelab::io;

namespace {

#ifndef RATELAB_FUZZ_ACCESS_LOG
/// A column choice as a user might type it: empty (the default), a number, a name, or junk.
std::string consume_column(FuzzedDataProvider& data) {
    static const char* const kChoices[] = {"",
                                           "",
                                           "1",
                                           "2",
                                           "3",
                                           "0",
                                           "time",
                                           "key",
                                           "ts",
                                           "ip",
                                           "cost",
                                           "Weight",
                                           "date",
                                           " host",
                                           "99",
                                           "-1",
                                           "18446744073709551615"};
    const auto pick = data.ConsumeIntegralInRange<std::size_t>(0, std::size(kChoices));
    return pick < std::size(kChoices) ? kChoices[pick] : data.ConsumeRandomLengthString(8);
}
#endif

ImportOptions consume_options(FuzzedDataProvider& data) {
    ImportOptions options;
#ifdef RATELAB_FUZZ_ACCESS_LOG
    options.format = data.ConsumeBool() ? ImportFormat::kCombinedLog : ImportFormat::kCommonLog;
    static const char* const kFields[] = {"host",       "ident", "user",   "request",
                                          "method",     "path",  "status", "referer",
                                          "user_agent", "none",  "bytes"};
    options.log_key = kFields[data.ConsumeIntegralInRange<std::size_t>(0, std::size(kFields) - 1)];
#else
    options.format = ImportFormat::kCsv;
    if (data.ConsumeBool()) {
        static const char kDelimiters[] = {',', ';', '\t', '|', ' ', '"'};
        options.delimiter =
            kDelimiters[data.ConsumeIntegralInRange<std::size_t>(0, sizeof kDelimiters - 1)];
    }
    if (data.ConsumeBool())
        options.header = data.ConsumeBool();
    options.time_column = consume_column(data);
    options.key_column = consume_column(data);
    options.cost_column = consume_column(data);
    options.time_unit = static_cast<TimeUnit>(data.ConsumeIntegralInRange<int>(0, 3));
#endif
    switch (data.ConsumeIntegralInRange<int>(0, 3)) {
        case 0:
            options.tick_ms = 1;
            break;
        case 1:
            options.tick_ms = kMaxTickMs;
            break;
        case 2:  // out of range: must be refused
            options.tick_ms = data.ConsumeIntegral<std::int64_t>();
            break;
        default:
            options.tick_ms = data.ConsumeIntegralInRange<std::int64_t>(kMinTickMs, kMaxTickMs);
    }
    if (data.ConsumeIntegralInRange<int>(0, 3) == 0)
        options.origin_ms = data.ConsumeIntegral<std::int64_t>();
    options.skipped_to_keep = data.ConsumeIntegralInRange<std::size_t>(0, 6);
    return options;
}

void check_import(const ImportOptions& options, const ImportResult& result) {
    const Trace& trace = result.document.trace;
    FUZZ_CHECK(result.imported == trace.requests.size() && result.imported > 0, result.imported);
    FUZZ_CHECK(result.imported + result.skipped == result.lines,
               result.imported << " + " << result.skipped << " != " << result.lines);
    FUZZ_CHECK(result.first_skipped.size() ==
                   std::min<std::uint64_t>(result.skipped, options.skipped_to_keep),
               result.first_skipped.size());
    for (std::size_t i = 0; i < result.first_skipped.size(); ++i) {
        FUZZ_CHECK(result.first_skipped[i].line >= 1 && !result.first_skipped[i].reason.empty(), i);
        FUZZ_CHECK(i == 0 || result.first_skipped[i].line > result.first_skipped[i - 1].line, i);
    }
    FUZZ_CHECK(validate(trace).empty(), validate(trace).front());
    FUZZ_CHECK(validate(result.document.params).empty(), "parameters");
    if (!options.origin_ms) {
        FUZZ_CHECK(trace.requests.front().tick == 0, "the earliest request is not at tick 0");
    }
    // What an import gives can be saved, and loads back as the same document.
    try {
        const std::string text = serialize_trace(result.document);
        FUZZ_CHECK(parse_trace(text, "imported.json") == result.document, text);
    } catch (const TraceFileError& error) {
        FUZZ_CHECK(false, "an imported trace cannot be saved: " << error.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    FuzzedDataProvider data(bytes, size);
    // Options from the end, so that a seed file's text stays at the front unchanged.
    const std::size_t text_size = data.ConsumeIntegralInRange<std::size_t>(0, size);
    ImportOptions options = consume_options(data);
    const std::string text = data.ConsumeBytesAsString(text_size);
    std::uint64_t last_bytes = 0;
    bool progress_backwards = false;
    options.progress = [&](const ImportProgress& p) {
        progress_backwards = progress_backwards || p.bytes < last_bytes;
        last_bytes = p.bytes;
    };
    std::istringstream in(text);
    ImportResult result;
    try {
        result = import_traffic(in, options, text.size());
    } catch (const ImportError& error) {
        FUZZ_CHECK(*error.what() != '\0', "an ImportError without a message");
        return 0;
    }
    FUZZ_CHECK(!progress_backwards, "progress went backwards");
    check_import(options, result);
    return 0;
}
