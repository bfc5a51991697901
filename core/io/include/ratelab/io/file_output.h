#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ratelab::io {

/// A file that could not be written: which file, and the system's reason.
class FileWriteError : public std::runtime_error {
public:
    FileWriteError(std::string file, std::string reason);
    const std::string& file() const { return file_; }
    /// The reason alone, such as "No space left on device".
    const std::string& reason() const { return reason_; }

private:
    std::string file_;
    std::string reason_;
};

/// Writes `bytes` to `path` so that the file either holds all of them or is left as it was.
///
/// - A regular file, or a new one, is written to a temporary file beside it, flushed to disk,
///   and renamed over it; a replaced file keeps its permission bits and, where the process may
///   set them, its owner and group. A file that is not writable is refused, not replaced.
/// - A regular file with more than one hard link is written in place, so that every name still
///   sees the new content: the space is reserved first, so a full disk fails before the old
///   content is touched.
/// - A symbolic link is followed: its target is written as above and the link stays a link.
/// - Anything else that is not a directory (a device such as /dev/null or /dev/stdout, a FIFO)
///   is written through directly: it is never replaced by a regular file.
///
/// Every short write, a failed flush to disk and a failed close are errors. Throws
/// FileWriteError; on failure no temporary file is left behind.
void write_file(const std::filesystem::path& path, std::string_view bytes);

/// Writes what `content` puts into the stream it is given.
using Content = std::function<void(std::ostream&)>;
/// write_file() for content made while it is written, such as a report of hundreds of
/// megabytes: it streams to the file through a small buffer, with the same guarantees. An
/// exception from `content` leaves no temporary file and the target as it was.
void write_file(const std::filesystem::path& path, const Content& content);

}  // namespace ratelab::io
