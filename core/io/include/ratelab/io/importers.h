#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ratelab/io/trace_file.h"

namespace ratelab::io {

/// The longest line an import reads, without its line end; a CSV record whose quoted fields go
/// on over line ends counts as one line. A longer line is skipped (its number is reported)
/// without being held in memory, so that memory stays bounded whatever the input.
inline constexpr std::size_t kMaxImportLineBytes = 1 << 20;  // 1 MiB
/// The most an import reads, so that an endless input (a device, a pipe that never closes)
/// stops. 64 GiB leaves room for the most requests a trace holds at over 1 KiB per line.
inline constexpr std::uint64_t kMaxImportBytes = 64ULL << 30;

/// A problem with the import as a whole (a file that cannot be read, a column that does not
/// exist, no usable line at all). Problems with single lines are skipped and reported instead.
class ImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ImportFormat {
    kCsv,          ///< delimited text with a timestamp column
    kCommonLog,    ///< NCSA Common Log Format (Apache and nginx default access logs)
    kCombinedLog,  ///< Common Log Format plus referer and user agent
};

enum class TimeUnit {
    kAuto,          ///< numbers >= 10^11 are milliseconds, other numbers seconds, else ISO 8601
    kSeconds,       ///< epoch seconds, fractions allowed
    kMilliseconds,  ///< epoch milliseconds
    kIso8601,       ///< 2024-03-01T12:00:00.250Z, with an optional offset (no offset means UTC)
};

struct ImportProgress {
    std::uint64_t lines = 0;
    std::uint64_t bytes = 0;
    std::uint64_t total_bytes = 0;  ///< 0 when unknown
};

struct ImportOptions {
    ImportFormat format = ImportFormat::kCsv;
    /// How long one tick is; real times become ticks floor((time - origin) / tick_ms).
    std::int64_t tick_ms = 1000;
    /// The real time (ms since the epoch) of tick 0; by default the earliest request's.
    std::optional<std::int64_t> origin_ms;

    // CSV only.
    /// Default: of , ; tab and |, one that splits line 1 into fields among which is a time or a
    /// column name below, else the most frequent (commas between digits do not count).
    std::optional<char> delimiter;
    std::optional<bool> header;  ///< default: line 1 is a header if its time does not parse
    /// Columns by header name (any case) or 1-based number. Defaults: a time column named
    /// timestamp, time, ts, date or datetime (else column 1); a key column named key, client,
    /// client_ip, ip, user or host; a cost column named cost or weight (else cost 1).
    std::string time_column;
    std::string key_column;
    std::string cost_column;
    TimeUnit time_unit = TimeUnit::kAuto;

    // Access logs only: which field is the key. One of host (the client address, default),
    // ident, user, request, method, path, status, referer, user_agent, or none.
    std::string log_key = "host";

    std::size_t skipped_to_keep = 5;  ///< how many skipped lines to describe; all are counted
    /// Past this many bytes the import fails; lowered only by tests.
    std::uint64_t max_input_bytes = kMaxImportBytes;
    /// Called every few thousand lines and once at the end.
    std::function<void(const ImportProgress&)> progress;
};

struct SkippedLine {
    std::uint64_t line = 0;  ///< 1-based
    std::string reason;
};

/// How an import read its input, given or detected: what a preview shows.
struct ImportLayout {
    // CSV only.
    char delimiter = ',';
    bool header = false;      ///< whether line 1 named the columns
    std::string time_column;  ///< "timestamp", or "column 1" without a header
    std::string key_column;   ///< empty: no key column (every request has the default key)
    std::string cost_column;  ///< empty: no cost column (cost 1)
    /// How the first time read was written: "epoch seconds", "epoch milliseconds" or
    /// "ISO 8601"; empty before one was read.
    std::string time_format;
    // Access logs only: the field each request's key comes from ("none": no key).
    std::string log_key;
};

struct ImportResult {
    TraceDocument document;
    std::uint64_t lines = 0;  ///< data lines read (a header is not counted)
    std::uint64_t imported = 0;
    std::uint64_t skipped = 0;
    std::vector<SkippedLine> first_skipped;  ///< the first ImportOptions::skipped_to_keep
    std::int64_t origin_ms = 0;              ///< the real time of tick 0
    ImportLayout layout;
    /// False when only the head of the input was read (import_file_head()).
    bool complete = true;
};

/// Reads traffic line by line (never the whole input at once) and turns it into a trace.
/// Requests are sorted by time, stably, since logs are written slightly out of order.
/// `total_bytes` is only for progress reports. Throws ImportError.
ImportResult import_traffic(std::istream& in, const ImportOptions& options,
                            std::uint64_t total_bytes = 0);
ImportResult import_file(const std::filesystem::path& file, const ImportOptions& options);
/// import_file() of the first `max_bytes` of `file` only (whole lines): a quick preview of what
/// the whole import gives, with `complete` false when there was more.
ImportResult import_file_head(const std::filesystem::path& file, const ImportOptions& options,
                              std::size_t max_bytes);

/// "csv", "clf", "combined" -> the format; nothing otherwise.
std::optional<ImportFormat> parse_import_format(std::string_view name);
/// Milliseconds since the epoch of `text` read as `unit` (as the CSV time column is read);
/// nothing if it is not such a time.
std::optional<std::int64_t> parse_time(std::string_view text, TimeUnit unit = TimeUnit::kAuto);
/// "auto", "s", "ms", "iso" -> the unit; nothing otherwise.
std::optional<TimeUnit> parse_time_unit(std::string_view name);

}  // namespace ratelab::io
