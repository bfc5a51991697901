#pragma once
// Exports (figures, reports, tables) written as every save is: io::write_file() puts the bytes
// in a temporary file beside the target, checks every write and the flush, and only then renames
// it over the target; a link, a device or a FIFO is written through. A failure leaves an earlier
// export exactly as it was.

#include <QString>
#include <string_view>

#include "ratelab/io/file_output.h"

namespace ratelab::ui {

/// Writes `bytes` to `path`; the problem in words, or an empty string.
QString exportBytes(const QString& path, std::string_view bytes);
/// Writes what `content` streams to `path` (a report of any size, never whole in memory); the
/// problem in words, or an empty string.
QString exportStream(const QString& path, const io::Content& content);

}  // namespace ratelab::ui
