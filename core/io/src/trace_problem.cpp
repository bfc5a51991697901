#include "trace_problem.h"

#include <cstdio>

#include "ratelab/io/terminal_text.h"
#include "utf8.h"

namespace ratelab::io::detail {

namespace {

bool is_identifier(std::string_view name) {
    if (name.empty()) {
        return false;
    }
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) {
            return false;
        }
    }
    return true;
}

}  // namespace

namespace {

/// Appends `text` with control characters and ill-formed bytes escaped; with `quoting`, a
/// backslash and a double quote are escaped too.
void append_escaped(std::string& out, std::string_view text, bool quoting) {
    out.reserve(out.size() + text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const char c = text[pos];
        const auto byte = static_cast<unsigned char>(c);
        char buffer[8];
        if (quoting && (c == '\\' || c == '"')) {
            out += '\\';
            out += c;
            ++pos;
        } else if (byte >= 0x20 && byte < 0x7f) {
            out += c;
            ++pos;
        } else if (byte == 0xC2 && pos + 1 < text.size() &&
                   static_cast<unsigned char>(text[pos + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[pos + 1]) <= 0x9F) {
            // A C1 control such as U+009B, which many terminals take as the start of a command.
            std::snprintf(buffer, sizeof buffer, "\\u%04X",
                          static_cast<unsigned>(static_cast<unsigned char>(text[pos + 1])));
            out += buffer;
            pos += 2;
        } else if (const std::size_t length = byte >= 0x80 ? utf8_sequence_length(text, pos) : 0) {
            out.append(text.substr(pos, length));  // well-formed non-ASCII text stays readable
            pos += length;
        } else {
            std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(byte));
            out += buffer;
            ++pos;
        }
    }
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    append_escaped(out, text, true);
    return out;
}

}  // namespace ratelab::io::detail

namespace ratelab::io {

std::string terminal_safe(std::string_view text) {
    std::string out;
    detail::append_escaped(out, text, false);
    return out;
}

}  // namespace ratelab::io

namespace ratelab::io::detail {

std::string quote_text(std::string_view text) {
    return '"' + printable(text) + '"';
}

std::string member_path(std::string_view base, std::string_view name) {
    std::string path(base);
    if (is_identifier(name)) {
        path += '.';
        path += name;
    } else {
        path += '[';
        path += quote_text(name);
        path += ']';
    }
    return path;
}

std::string index_path(std::string_view base, std::size_t index) {
    return std::string(base) + '[' + std::to_string(index) + ']';
}

}  // namespace ratelab::io::detail
