#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ratelab::io::detail {

/// Numeric columns of the compact form, read ahead of the JSON parser.
struct PreparsedColumns {
    std::optional<std::vector<std::int64_t>> tick_deltas;
    std::optional<std::vector<std::uint32_t>> costs;
    std::optional<std::vector<std::uint32_t>> keys;
    /// Where the columns read are in the text: each one's contents, between its brackets.
    std::vector<std::pair<std::size_t, std::size_t>> ranges;

    bool any() const { return tick_deltas || costs || keys; }
};

/// Finds $.columns.tick_deltas, .costs and .keys in `text` and reads each one that holds only
/// plain whole numbers within bounds with a tight loop, about ten times faster than a general
/// JSON lexer. Anything unusual is left to the JSON parser, which then reports it exactly as it
/// would without this shortcut.
PreparsedColumns preparse_columns(std::string_view text);
/// `text` with the contents of the columns read taken out, each column left as an empty array
/// for the JSON parser to step over (rather than reading tens of MB of blanks a byte at a time).
std::string without_columns(std::string_view text, const PreparsedColumns& columns);
/// `text` with the contents of the columns read blanked instead, newlines kept: line:column
/// positions in it are those of `text`, for reporting where a problem is.
std::string blank_columns(std::string_view text, const PreparsedColumns& columns);

}  // namespace ratelab::io::detail
