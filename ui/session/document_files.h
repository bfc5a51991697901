#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "session/session_document.h"

namespace ratelab::io {
struct TraceDocument;
struct FleetFile;
}  // namespace ratelab::io

namespace ratelab::ui {

/// A trace file that could not be read or written: what went wrong and where.
struct DocumentFileError {
    QString file;
    QString location;  ///< e.g. "$.requests[3].tick" or "line 4, column 7"; may be empty
    QString detail;    ///< the sentence describing the problem

    /// One paragraph for a message box.
    QString message() const;
};

/// The session's form of a trace document (from a file or a pattern generator).
SessionDocument fromTraceDocument(io::TraceDocument document);

/// Reads a trace file. Throws DocumentFileError and never returns a partial document.
SessionDocument loadDocument(const QString& path);
/// Writes the document whole or not at all (see io::write_file): on failure, a full disk
/// included, the old file stays as it was. Throws DocumentFileError.
void saveDocument(const SessionDocument& document, const QString& path);
/// Writes `bytes` to `path` as io::write_file does. Throws DocumentFileError.
void writeWholeFile(const QString& path, std::string_view bytes);
/// The document's "fleet" object as settings, or nothing when it has none (the loader has
/// checked it; one that does not read, only possible in memory, counts as none).
std::optional<io::FleetFile> fleetOf(const SessionDocument& document);
/// The document's extras with its "fleet" object replaced by `fleet`, written with exactly the
/// fields the reader accepts, or removed when `fleet` is nothing; the other fields stay.
std::shared_ptr<const SessionDocument::FileExtras> extrasWithFleet(
    const SessionDocument& document, const std::optional<io::FleetFile>& fleet);
/// The file name filter for open and save dialogs.
QString traceFileFilter();

}  // namespace ratelab::ui
