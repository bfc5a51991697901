#include "session/document_files.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include "ratelab/io/file_output.h"
#include "ratelab/io/fleet_file.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::ui {

// The parts of a trace file the session does not edit, carried from load to save so that a
// round trip through the app keeps them.
struct SessionDocument::FileExtras {
    nlohmann::ordered_json unknown_fields;
};

QString DocumentFileError::message() const {
    QString text = QFileInfo(file).fileName();
    if (!location.isEmpty()) {
        text += QStringLiteral(", %1").arg(location);
    }
    return QStringLiteral("%1: %2").arg(text, detail);
}

QString traceFileFilter() {
    return QCoreApplication::translate("DocumentFiles",
                                       "RateLab traces (*.ratelab.json *.json);;All files (*)");
}

SessionDocument loadDocument(const QString& path) {
    io::TraceDocument loaded;
    try {
        loaded = io::load_trace(path.toStdString());
    } catch (const io::TraceFileError& error) {
        throw DocumentFileError{path, QString::fromStdString(error.location()),
                                QString::fromStdString(error.detail())};
    } catch (const std::exception& error) {
        throw DocumentFileError{path, {}, QString::fromStdString(error.what())};
    }
    return fromTraceDocument(std::move(loaded));
}

SessionDocument fromTraceDocument(io::TraceDocument loaded) {
    SessionDocument document;
    document.name = std::move(loaded.name);
    document.description = std::move(loaded.description);
    document.tick_ms = loaded.tick_ms;
    document.duration = loaded.duration;
    document.params = std::move(loaded.params);
    // Library presets read their parameters in the library's units, converted with tick_ms.
    set_tick_ms(document.params, document.tick_ms);
    document.trace = std::make_shared<const Trace>(std::move(loaded.trace));
    document.notes = std::move(loaded.notes);
    document.extras = std::make_shared<const SessionDocument::FileExtras>(
        SessionDocument::FileExtras{std::move(loaded.unknown_fields)});
    document.load_warnings = std::move(loaded.warnings);
    return document;
}

void saveDocument(const SessionDocument& document, const QString& path) {
    io::TraceDocument out;
    out.name = document.name;
    out.description = document.description;
    out.tick_ms = document.tick_ms;
    out.duration = document.duration;
    out.params = document.params;
    out.trace = *document.trace;
    out.notes = document.notes;
    if (document.extras) {
        out.unknown_fields = document.extras->unknown_fields;
    }
    std::string text;
    try {
        text = io::serialize_trace(out);
    } catch (const std::exception& error) {
        throw DocumentFileError{path, {}, QString::fromStdString(error.what())};
    }
    writeWholeFile(path, text);
}

std::optional<io::FleetFile> fleetOf(const SessionDocument& document) {
    if (!document.extras)
        return std::nullopt;
    io::TraceDocument fields;
    fields.unknown_fields = document.extras->unknown_fields;
    try {
        return io::fleet_settings(fields, document.name);
    } catch (const io::TraceFileError&) {
        return std::nullopt;  // only a document built in memory can get here; it has none
    }
}

std::shared_ptr<const SessionDocument::FileExtras> extrasWithFleet(
    const SessionDocument& document, const std::optional<io::FleetFile>& fleet) {
    SessionDocument::FileExtras extras;
    if (document.extras)
        extras = *document.extras;
    if (!extras.unknown_fields.is_object())
        extras.unknown_fields = nlohmann::ordered_json::object();
    if (fleet)
        extras.unknown_fields["fleet"] = io::fleet_json(*fleet);
    else
        extras.unknown_fields.erase("fleet");
    return std::make_shared<const SessionDocument::FileExtras>(std::move(extras));
}

void writeWholeFile(const QString& path, std::string_view bytes) {
    try {
        io::write_file(QFile::encodeName(path).toStdString(), bytes);
    } catch (const io::FileWriteError& error) {
        throw DocumentFileError{path, {}, QString::fromStdString(error.reason())};
    }
}

}  // namespace ratelab::ui
