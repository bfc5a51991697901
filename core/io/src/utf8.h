#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ratelab::io::detail {

/// The length of the well-formed UTF-8 sequence starting at `text[pos]` (1 to 4), or 0 if the
/// bytes there are not well-formed (overlong forms, surrogates and values past U+10FFFF count
/// as ill-formed).
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos);
bool is_valid_utf8(std::string_view text);
/// "UTF-16 (little-endian)" and the like when `text` starts as UTF-16 or UTF-32 text does: with
/// its byte order mark, or with the NUL bytes its first ASCII characters have (RFC 4627, 3).
std::optional<std::string_view> wide_unicode_encoding(std::string_view text);

}  // namespace ratelab::io::detail
