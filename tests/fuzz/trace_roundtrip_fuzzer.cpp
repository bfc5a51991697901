// Fuzzes trace saving: the bytes become a whole TraceDocument (names and keys of any bytes,
// tiers, overrides at the bounds, sometimes enough requests for the columnar form). Saving must
// either refuse it cleanly (text that is not UTF-8) or write text that loads back identically.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_params.h"
#include "fuzz_support.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"

using ratelab::io::TraceDocument;
using ratelab::io::TraceFileError;

namespace {

bool is_utf8(const std::string& text) {
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

/// Repeats the requests, later each time, until the trace needs the columnar form.
void stretch_past_compact_threshold(ratelab::Trace& trace) {
    if (trace.requests.empty() || trace.requests.back().tick > ratelab::bounds::kMaxTick / 2)
        return;
    const ratelab::RequestColumn pattern = trace.requests;
    const ratelab::Tick period = pattern.back().tick + 1;
    for (ratelab::Tick offset = period; trace.requests.size() <= ratelab::io::kCompactThreshold;
         offset += period) {
        if (pattern.back().tick + offset > ratelab::bounds::kMaxTick)
            return;
        for (ratelab::Request r : pattern) {
            r.tick += offset;
            trace.requests.push_back(r);
        }
    }
}

TraceDocument consume_document(FuzzedDataProvider& data, bool& all_utf8) {
    TraceDocument doc;
    doc.name = data.ConsumeRandomLengthString(64);
    doc.description = data.ConsumeRandomLengthString(256);
    doc.tick_ms =
        data.ConsumeIntegralInRange<std::int64_t>(ratelab::io::kMinTickMs, ratelab::io::kMaxTickMs);
    std::vector<std::string> names{""};
    const auto extra_keys = data.ConsumeIntegralInRange<int>(0, 4);
    for (int k = 0; k < extra_keys; ++k)
        names.push_back(data.ConsumeRandomLengthString(ratelab::bounds::kMaxKeyBytes));
    doc.params = ratelab::fuzz::consume_params(data, names);
    const bool stretch = data.ConsumeIntegralInRange<int>(0, 15) == 0;
    const bool with_duration = data.ConsumeBool();
    const auto unknown = data.ConsumeIntegralInRange<int>(0, 2);
    for (int u = 0; u < unknown; ++u) {
        const std::string name = "x-" + std::to_string(u);
        if (data.ConsumeBool()) {
            doc.unknown_fields[name] = data.ConsumeIntegral<std::int64_t>();
        } else {
            const std::string value = data.ConsumeRandomLengthString(32);
            all_utf8 = all_utf8 && is_utf8(value);
            doc.unknown_fields[name] = value;
        }
        doc.warnings.push_back("unknown field \"" + name +
                               "\" is not used by this version; it is kept and saved back as is");
    }
    // Every `every`-th request holds for a duration of its own (0: none), up to the bound.
    const auto every = data.ConsumeIntegralInRange<std::size_t>(0, 4);
    const auto longest = data.ConsumeIntegralInRange<ratelab::Tick>(0, ratelab::bounds::kMaxWindow);
    doc.trace = ratelab::fuzz::consume_trace(data, 200, doc.params.base.window, names);
    if (stretch)
        stretch_past_compact_threshold(doc.trace);
    for (std::size_t i = 0; every != 0 && i < doc.trace.requests.size(); i += every)
        doc.trace.set_duration(i, static_cast<ratelab::Tick>(i * 7919) % (longest + 1));
    if (with_duration) {
        const ratelab::Tick last = doc.trace.requests.empty() ? 0 : doc.trace.requests.back().tick;
        if (last < ratelab::bounds::kMaxTick)
            doc.duration = last + 1;
    }
    all_utf8 = all_utf8 && is_utf8(doc.name) && is_utf8(doc.description);
    for (const std::string& key : doc.trace.keys)
        all_utf8 = all_utf8 && is_utf8(key);
    for (const auto& [key, limits] : doc.params.keys)
        all_utf8 = all_utf8 && is_utf8(key);
    return doc;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    FuzzedDataProvider data(bytes, size);
    bool all_utf8 = true;
    const TraceDocument doc = consume_document(data, all_utf8);
    std::string text;
    try {
        text = ratelab::io::serialize_trace(doc);
    } catch (const TraceFileError& error) {
        FUZZ_CHECK(!all_utf8 && error.rule() == "invalid-utf8", error.what());
        return 0;
    } catch (const std::exception& e) {
        FUZZ_CHECK(false, "saving threw something other than TraceFileError: " << e.what());
    }
    FUZZ_CHECK(all_utf8, "text that is not UTF-8 was written");
    TraceDocument loaded;
    try {
        loaded = ratelab::io::parse_trace(text, "saved.json");
    } catch (const TraceFileError& error) {
        FUZZ_CHECK(false, "a saved document does not load: " << error.what() << "\n" << text);
    }
    FUZZ_CHECK(loaded == doc, "the document changed on the way through its file:\n" << text);
    FUZZ_CHECK(ratelab::io::serialize_trace(loaded) == text, "saving is not stable");
    return 0;
}
