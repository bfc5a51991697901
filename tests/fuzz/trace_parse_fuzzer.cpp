// Fuzzes the trace loader with arbitrary bytes (seeds cover both the object and the columnar
// form). Any input is either refused with one clean TraceFileError, or accepted as a document
// that validation accepts, that the simulator runs without complaint, and whose canonical text
// loads back to the same document and the same bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_params.h"
#include "fuzz_support.h"
#include "ratelab/io/trace_file.h"
#include "simulation_invariants.h"

using ratelab::io::TraceDocument;
using ratelab::io::TraceFileError;

namespace {

/// True if `text` is valid UTF-8 (nlohmann refuses to write anything else).
bool is_utf8(const std::string& text) {
    try {
        (void)nlohmann::json(text).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

void check_error(const TraceFileError& error) {
    const std::string message = error.what();
    FUZZ_CHECK(!error.rule().empty() && !error.detail().empty(), message);
    FUZZ_CHECK(error.file() == "fuzz.json", message);
    FUZZ_CHECK(message.find('\n') == std::string::npos, message);
    FUZZ_CHECK(is_utf8(message), "the message is not printable UTF-8");
    // Only problems with the file as a whole have no location.
    FUZZ_CHECK(!error.location().empty() || error.rule() == "file-empty" ||
                   error.rule() == "out-of-memory",
               message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(bytes), size);
    TraceDocument doc;
    try {
        doc = ratelab::io::parse_trace(text, "fuzz.json");
    } catch (const TraceFileError& error) {
        check_error(error);
        return 0;
    }
    FUZZ_CHECK(ratelab::validate(doc.params).empty(), "loaded parameters fail validation");
    FUZZ_CHECK(ratelab::validate(doc.trace).empty(), "loaded trace fails validation");
    FUZZ_CHECK(ratelab::io::effective_duration(doc) >= 1, "duration");

    std::string canonical;
    TraceDocument again;
    try {
        canonical = ratelab::io::serialize_trace(doc);
        again = ratelab::io::parse_trace(canonical, "canonical.json");
    } catch (const std::exception& e) {
        FUZZ_CHECK(false, "a loaded document did not save and load back: " << e.what());
    }
    FUZZ_CHECK(again == doc, "the canonical text loads as a different document:\n" << canonical);
    FUZZ_CHECK(ratelab::io::serialize_trace(again) == canonical, "saving is not stable");

    ratelab::fuzz::InvariantOptions options;
    options.thorough_up_to = 32;
    options.unit_brute_force_up_to = 1000;
    if (doc.trace.requests.size() <= 64 &&
        ratelab::fuzz::total_cost(doc.trace) <= ratelab::fuzz::kMaxFuzzTotalCost) {
        ratelab::fuzz::check_simulation(
            std::make_shared<const ratelab::Trace>(std::move(doc.trace)), doc.params, options);
    }
    return 0;
}
