// Reading and writing trace files on disk: every way a file can be unusable gets its own rule,
// and saving never leaves a half-written file behind.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <unistd.h>

#include "ratelab/io/file_output.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::io {

namespace fs = std::filesystem;

namespace {

TraceFileError too_large(const std::string& name, const std::string& size) {
    return TraceFileError(name, "", "file-too-large",
                          "the file has " + size + " bytes; a trace file may have at most " +
                              std::to_string(kMaxTraceFileBytes) + " (512 MiB)");
}

/// Reads a stream of unknown length, stopping as soon as it passes the size limit.
std::string read_stream(const fs::path& file, const std::string& name) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw TraceFileError(name, "", "file-unreadable", std::strerror(errno));
    }
    std::string text;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxTraceFileBytes) {
            throw too_large(name, "more than " + std::to_string(kMaxTraceFileBytes));
        }
        // A trace is a JSON object: once the first byte that is not blank (or a byte order mark)
        // is something else, the rest cannot change the error, so an endless device such as
        // /dev/zero or /dev/urandom fails at once instead of after 512 MiB.
        const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
        if (first != std::string::npos && text[first] != '{') {
            break;
        }
    }
    if (in.bad()) {
        throw TraceFileError(name, "", "file-unreadable", "the file could not be read completely");
    }
    return text;
}

}  // namespace

TraceDocument load_trace(const fs::path& file) {
    const std::string name = file.string();
    std::error_code error;
    const fs::file_status status = fs::status(file, error);
    if (status.type() == fs::file_type::not_found) {
        throw TraceFileError(name, "", "file-missing", "no such file");
    }
    if (error) {
        throw TraceFileError(name, "", "file-unreadable", error.message());
    }
    if (fs::is_directory(status)) {
        throw TraceFileError(name, "", "file-is-directory",
                             "this is a directory, not a trace file");
    }
    if (!fs::is_regular_file(status)) {
        return parse_trace(read_stream(file, name), name);  // a pipe or a device
    }
    // Checked before reading a single byte, so an enormous file fails at once.
    const std::uintmax_t size = fs::file_size(file, error);
    if (error) {
        throw TraceFileError(name, "", "file-unreadable", error.message());
    }
    if (size > kMaxTraceFileBytes) {
        throw too_large(name, std::to_string(size));
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw TraceFileError(name, "", "file-unreadable", std::strerror(errno));
    }
    std::string text(size, '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uintmax_t>(in.gcount()) != size || in.bad()) {
        throw TraceFileError(name, "", "file-unreadable", "the file could not be read completely");
    }
    return parse_trace(text, name);
}

void save_trace(const TraceDocument& doc, const fs::path& file) {
    const std::string name = file.string();
    std::string text;
    try {
        text = serialize_trace(doc);
    } catch (const TraceFileError& error) {  // the document itself cannot be written
        throw TraceFileError(name, error.location(), error.rule(), error.detail());
    }
    try {
        write_file(file, text);
    } catch (const FileWriteError& error) {
        throw TraceFileError(name, "", "write-failed", error.reason());
    }
}

}  // namespace ratelab::io
