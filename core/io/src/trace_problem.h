#pragma once

#include <string>
#include <string_view>

namespace ratelab::io::detail {

/// One broken rule found while reading a trace, before the file name is attached.
/// Thrown inside the reader and turned into a TraceFileError at the public boundary.
struct TraceProblem {
    std::string location;
    std::string rule;
    std::string detail;
};

/// `base` extended by an object member: `$.keys.alice` or `$.keys["two words"]`.
std::string member_path(std::string_view base, std::string_view name);
/// `base` extended by an array index: `$.requests[3]`.
std::string index_path(std::string_view base, std::size_t index);
/// `text` quoted for an error message, with bytes that are not printable ASCII shown as \xNN so
/// that a message never carries invalid UTF-8 or control characters.
std::string quote_text(std::string_view text);
/// `text` with unprintable bytes shown as \xNN (no quotes).
std::string printable(std::string_view text);

}  // namespace ratelab::io::detail
