#pragma once

#include <cstdint>
#include <istream>
#include <string>

namespace ratelab::io::detail {

/// Splits a stream into lines, ended by LF, CR LF or a lone CR, with bounded memory: a line
/// longer than kMaxImportLineBytes is passed over, not held, and the input as a whole may not
/// go on past a given size.
class LineReader {
public:
    LineReader(std::istream& in, std::uint64_t max_bytes) : in_(in), max_bytes_(max_bytes) {}

    /// The next line, without its end, into `line`; false at the end of the input. A line past
    /// the bound comes back empty, with too_long() set. Throws ImportError when the input goes
    /// on past its bound or cannot be read.
    bool next(std::string& line);
    bool too_long() const { return too_long_; }
    /// Whether the line passed over held a '"', which may open or close a quoted CSV field.
    bool too_long_line_had_quote() const { return too_long_quote_; }
    std::uint64_t line_number() const { return line_number_; }  ///< of the line last read
    std::uint64_t bytes() const { return bytes_; }              ///< read so far, line ends too

private:
    bool fill();

    std::istream& in_;
    std::uint64_t max_bytes_;
    char buffer_[1 << 16];
    std::size_t pos_ = 0;
    std::size_t end_ = 0;
    bool after_cr_ = false;  ///< the last line ended with CR: a LF right after is part of its end
    bool too_long_ = false;
    bool too_long_quote_ = false;
    std::uint64_t line_number_ = 0;
    std::uint64_t bytes_ = 0;
};

}  // namespace ratelab::io::detail
