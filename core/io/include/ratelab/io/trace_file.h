#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ratelab/model.h"

namespace ratelab::io {

/// The largest trace file the loader opens. Checked before reading anything, so a huge file
/// fails at once instead of being pulled into memory.
inline constexpr std::uintmax_t kMaxTraceFileBytes = 512ULL * 1024 * 1024;
/// Values a file may hold besides its requests (names, tiers, unknown fields), and how deeply
/// they may nest, so that a small file cannot make the loader take gigabytes of memory.
inline constexpr std::size_t kMaxOtherValues = 1'000'000;
inline constexpr std::size_t kMaxNesting = 64;
/// Above this many requests, save_trace writes the compact columnar form instead of one object
/// per request.
inline constexpr std::size_t kCompactThreshold = 10'000;
/// Bounds of `tick_ms`: from one millisecond to one day per tick.
inline constexpr std::int64_t kMinTickMs = 1;
inline constexpr std::int64_t kMaxTickMs = 86'400'000;
/// The format version this build reads and writes.
/// 2 adds "lanes"; 3 a request's own "duration" (and the column "durations").
inline constexpr int kTraceFormatVersion = 3;

/// A trace file in memory: the trace, the parameters it was written for, and its annotations.
struct TraceDocument {
    std::string name;
    std::string description;  ///< what to look for; shown in the app
    std::int64_t tick_ms = 1000;
    std::optional<Tick> duration;  ///< ticks the timeline shows; see effective_duration()
    Params params;
    Trace trace;
    /// Notes pinned to ticks, in tick order (notes on one tick in file order).
    std::vector<TraceNote> notes;
    /// Top-level fields this version does not know, kept verbatim and in order so that saving
    /// writes them back (a newer tool's annotations survive a round trip through this one).
    nlohmann::ordered_json unknown_fields = nlohmann::ordered_json::object();
    /// Notes about the load that are not errors (for example the unknown fields above).
    /// Never written to a file.
    std::vector<std::string> warnings;

    friend bool operator==(const TraceDocument&, const TraceDocument&) = default;
};

/// A trace file that cannot be loaded, with where and which rule it broke.
class TraceFileError : public std::runtime_error {
public:
    TraceFileError(std::string file, std::string location, std::string rule, std::string detail);

    const std::string& file() const { return file_; }
    /// A JSON path such as `$.requests[3].tick`, `line:column` for syntax errors, or empty when
    /// the problem is the file as a whole.
    const std::string& location() const { return location_; }
    /// A stable identifier of the rule broken, such as `tick-order` (listed in traces/README.md).
    const std::string& rule() const { return rule_; }
    /// The human sentence, without file and location.
    const std::string& detail() const { return detail_; }

private:
    std::string file_;
    std::string location_;
    std::string rule_;
    std::string detail_;
};

/// Reads and validates a trace file. Throws TraceFileError; never returns a partial document.
TraceDocument load_trace(const std::filesystem::path& file);
/// Parses and validates trace JSON text; `source_name` names it in errors.
TraceDocument parse_trace(std::string_view json_text, const std::string& source_name);
/// The canonical text of `doc`: stable key order, one request per line in the object form, and
/// the compact columnar form above kCompactThreshold requests. Ends with a newline. Throws
/// TraceFileError (rule `invalid-utf8`, no file name) if a name, key or text is not UTF-8.
std::string serialize_trace(const TraceDocument& doc);
/// Writes serialize_trace(doc) to a temporary file beside `file` and renames it over `file`, so
/// a reader never sees a half-written trace. Throws TraceFileError (rule `write-failed`, or
/// `invalid-utf8` before anything is written).
void save_trace(const TraceDocument& doc, const std::filesystem::path& file);
/// The ticks the timeline shows: `duration` if set, else the last request's tick plus W. (The
/// app's timeline also runs on to one tick past the leaky bucket's last release, which only a
/// simulation knows.)
Tick effective_duration(const TraceDocument& doc);

}  // namespace ratelab::io
