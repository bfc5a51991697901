#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ratelab/io/importers.h"

namespace ratelab::io::detail {

/// One request read from one line. `key` points into the parser and is valid until the next
/// call.
struct ImportRecord {
    std::int64_t time_ms = 0;
    std::uint32_t cost = 1;
    std::string_view key;
};

/// Reads the lines of one input format.
class LineParser {
public:
    virtual ~LineParser() = default;
    /// Sees the first line before anything else; true if it is a header and not data.
    /// Throws ImportError when the options cannot work with this input.
    virtual bool take_first_line(std::string_view line) = 0;
    /// Fills `record` from `line`, or returns why the line is skipped. A line can also leave
    /// its record open (a CSV field in quotes goes on over the line end): then parse() returns
    /// nothing, pending() is true, and the next line goes on with the same record.
    virtual std::optional<std::string> parse(std::string_view line, ImportRecord& record) = 0;
    virtual bool pending() const { return false; }
    /// Whether a record can go on over line ends at all (CSV's quoted fields).
    virtual bool quotes_span_lines() const { return false; }
    /// Stops keeping the open record's text (it is too long to be used): the lines that follow
    /// are still read as part of it, until it ends, so that none of them is taken for a record.
    virtual void discard_pending() {}
    /// How it reads the lines, once it has seen the first (and the first record).
    virtual ImportLayout layout() const = 0;
};

std::unique_ptr<LineParser> make_csv_parser(const ImportOptions& options);
std::unique_ptr<LineParser> make_access_log_parser(const ImportOptions& options);

/// Why `key` cannot be a trace key (too long, not UTF-8), or nothing if it can.
std::optional<std::string> key_problem(std::string_view key);

}  // namespace ratelab::io::detail
