// Reading and writing trace files on disk: every way a file can be unusable gets its own rule,
// and saving never leaves a half-written file behind.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include <malloc.h>
#include <unistd.h>

#include "input_file.h"
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

/// Reads a file, pipe or device whole, refusing it as soon as it passes the size limit.
/// `size` is what stat says it holds: a hint only, since /proc and sysfs say 0 or 4096 whatever
/// their files hold, and pipes say nothing.
std::string read_text(const fs::path& file, const std::string& name, std::uintmax_t size) {
    detail::InputFile input(file);
    if (!input.is_open()) {
        throw TraceFileError(name, "", "file-unreadable", std::strerror(errno));
    }
    std::string text;
    text.reserve(static_cast<std::size_t>(std::min<std::uintmax_t>(size, kMaxTraceFileBytes)));
    // The bytes before `blank_end` are blanks or a byte order mark. Only bytes past it are
    // scanned, so that a long run of leading blanks from a pipe is read in linear time.
    std::size_t blank_end = 0;
    bool started = false;
    char buffer[1 << 16];
    try {
        while (const std::size_t n = input.read_some(buffer, sizeof buffer)) {
            text.append(buffer, n);
            if (text.size() > kMaxTraceFileBytes) {
                throw too_large(name, "more than " + std::to_string(kMaxTraceFileBytes));
            }
            if (started) {
                continue;
            }
            // A trace is a JSON object: once the first byte that is not blank (or a byte order
            // mark) is something else, the rest cannot change the error, so an endless device
            // such as /dev/zero or /dev/urandom fails at once instead of after 512 MiB.
            blank_end =
                std::min(text.find_first_not_of(" \t\r\n\xEF\xBB\xBF", blank_end), text.size());
            if (blank_end < text.size()) {
                if (text[blank_end] != '{') {
                    break;
                }
                started = true;
            }
        }
    } catch (const std::system_error& error) {
        throw TraceFileError(name, "", "file-unreadable",
                             "the file could not be read completely: " + error.code().message());
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
    std::uintmax_t size = 0;  // pipes and devices have none
    if (fs::is_regular_file(status)) {
        // Checked before reading a single byte, so an enormous file fails at once.
        size = fs::file_size(file, error);
        if (error) {
            throw TraceFileError(name, "", "file-unreadable", error.message());
        }
        if (size > kMaxTraceFileBytes) {
            throw too_large(name, std::to_string(size));
        }
    }
    TraceDocument doc = [&] {
        const std::string text = read_text(file, name, size);
        if (text.empty() && status.type() == fs::file_type::fifo) {
            throw TraceFileError(name, "", "file-empty",
                                 "nothing came through this FIFO: no program was writing to it");
        }
        return parse_trace(text, name);
    }();
    // The file's text and its columns, hundreds of megabytes for a large trace, are freed by
    // now; glibc keeps freed memory below the top of its heap resident for later, which a
    // trace just loaded, already whole, will not ask for. Handed back, the app holds what the
    // trace itself needs.
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    return doc;
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
