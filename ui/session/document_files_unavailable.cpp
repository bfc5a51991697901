// Stand-in used until the trace file library is part of the build: every file operation fails
// with a clear message instead of the build failing.
#include <QCoreApplication>
#include <QFileInfo>

#include "session/document_files.h"

namespace ratelab::ui {

struct SessionDocument::FileExtras {};

QString DocumentFileError::message() const {
    return QStringLiteral("%1: %2").arg(QFileInfo(file).fileName(), detail);
}

QString traceFileFilter() {
    return QCoreApplication::translate("DocumentFiles", "RateLab traces (*.json);;All files (*)");
}

SessionDocument loadDocument(const QString& path) {
    throw DocumentFileError{
        path,
        {},
        QCoreApplication::translate("DocumentFiles", "this build cannot read trace files")};
}

void saveDocument(const SessionDocument&, const QString& path) {
    throw DocumentFileError{
        path,
        {},
        QCoreApplication::translate("DocumentFiles", "this build cannot write trace files")};
}

}  // namespace ratelab::ui
