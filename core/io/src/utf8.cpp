#include "utf8.h"

namespace ratelab::io::detail {

std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
    const std::size_t left = text.size() - pos;
    const unsigned lead = byte(0);
    if (lead < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned low = 0x80;
    unsigned high = 0xBF;  // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;   // no overlong forms
        high = lead == 0xED ? 0x9F : 0xBF;  // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF;  // nothing past U+10FFFF
    } else {
        return 0;
    }
    if (left < length || byte(1) < low || byte(1) > high) {
        return 0;
    }
    for (std::size_t i = 2; i < length; ++i) {
        if (byte(i) < 0x80 || byte(i) > 0xBF) {
            return 0;
        }
    }
    return length;
}

bool is_valid_utf8(std::string_view text) {
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t length = utf8_sequence_length(text, pos);
        if (length == 0) {
            return false;
        }
        pos += length;
    }
    return true;
}

std::optional<std::string_view> wide_unicode_encoding(std::string_view text) {
    using namespace std::string_view_literals;
    // The four-byte marks first: UTF-32's little-endian mark begins with UTF-16's.
    if (text.starts_with("\xFF\xFE\0\0"sv)) {
        return "UTF-32 (little-endian)";
    }
    if (text.starts_with("\0\0\xFE\xFF"sv)) {
        return "UTF-32 (big-endian)";
    }
    if (text.starts_with("\xFF\xFE"sv)) {
        return "UTF-16 (little-endian)";
    }
    if (text.starts_with("\xFE\xFF"sv)) {
        return "UTF-16 (big-endian)";
    }
    if (text.size() < 4) {
        return std::nullopt;
    }
    // Without a mark: where the NULs of the first two ASCII characters fall.
    const auto nul = [&](std::size_t i) { return text[i] == '\0'; };
    if (nul(0) && nul(1) && nul(2) && !nul(3)) {
        return "UTF-32 (big-endian)";
    }
    if (!nul(0) && nul(1) && nul(2) && nul(3)) {
        return "UTF-32 (little-endian)";
    }
    if (nul(0) && !nul(1) && nul(2) && !nul(3)) {
        return "UTF-16 (big-endian)";
    }
    if (!nul(0) && nul(1) && !nul(2) && nul(3)) {
        return "UTF-16 (little-endian)";
    }
    return std::nullopt;
}

}  // namespace ratelab::io::detail
