#include "trace_problem.h"

#include <cstdio>

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

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const char c = text[pos];
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\' || c == '"') {
            out += '\\';
            out += c;
            ++pos;
        } else if (byte >= 0x20 && byte < 0x7f) {
            out += c;
            ++pos;
        } else if (const std::size_t length = byte >= 0x80 ? utf8_sequence_length(text, pos) : 0) {
            out.append(text.substr(pos, length));  // well-formed non-ASCII text stays readable
            pos += length;
        } else {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(byte));
            out += buffer;
            ++pos;
        }
    }
    return out;
}

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
