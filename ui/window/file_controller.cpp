#include "window/file_controller.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QUndoStack>

#include "session/document_files.h"
#include "session/session.h"
#include "window/import_dialog.h"
#include "window/new_trace_dialog.h"

namespace ratelab::ui {

namespace {

const QString kRecentFilesKey = QStringLiteral("recentFiles");

}  // namespace

FileController::FileController(Session* session, QWidget* window, QObject* parent)
    : QObject(parent), session_(session), window_(window) {}

bool FileController::maybeSave() {
    if (!session_->isModified() || !interactive_) {
        return true;
    }
    const auto answer = QMessageBox::warning(
        window_, tr("Unsaved changes"),
        tr("“%1” has changes that are not saved. Save them first?").arg(session_->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) {
        return save();
    }
    return answer == QMessageBox::Discard;
}

void FileController::newDocument() {
    if (!maybeSave())
        return;
    if (!interactive_) {
        (void)session_->reset(SessionDocument::empty(), QString());  // nothing to simulate
        Q_EMIT statusMessage(tr("New empty trace: click the top row to add requests"));
        return;
    }
    NewTraceDialog dialog(window_);
    if (dialog.exec() != QDialog::Accepted || !dialog.created())
        return;
    const std::size_t requests = dialog.created()->trace->requests.size();
    if (!replaceDocument(*dialog.created()))
        return;
    if (requests == 0) {
        Q_EMIT statusMessage(tr("New empty trace: click the top row to add requests"));
        return;
    }
    session_->markUnsaved();  // generated traffic, in no file yet
    Q_EMIT statusMessage(tr("New trace of %1 requests from the %2 pattern")
                             .arg(requests)
                             .arg(dialog.trafficBox()->currentText()));
}

void FileController::open() {
    if (!maybeSave()) {
        return;
    }
    const QString start = session_->filePath().isEmpty()
                              ? QDir::homePath()
                              : QFileInfo(session_->filePath()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open trace"), start, traceFileFilter());
    if (!path.isEmpty()) {
        openFile(path);
    }
}

void FileController::importTraffic() {
    if (!maybeSave()) {
        return;
    }
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Import traffic"), QDir::homePath(),
                                     tr("Traffic (*.csv *.tsv *.txt *.log);;All files (*)"));
    if (!path.isEmpty()) {
        importFile(path);
    }
}

bool FileController::importFile(const QString& path) {
    ImportDialog dialog(path, window_);
    if (interactive_ && dialog.exec() != QDialog::Accepted) {
        return false;
    }
    QString error;
    std::optional<io::ImportResult> imported = dialog.importAll(error);
    if (!imported) {
        if (error.isEmpty()) {
            Q_EMIT statusMessage(tr("Import cancelled; the current trace stays open"));
        } else {
            reportError(tr("Cannot import"), tr("%1: %2\n\nThe current trace stays open.")
                                                 .arg(QDir::toNativeSeparators(path), error));
        }
        return false;
    }
    const std::uint64_t requests = imported->imported;
    const std::uint64_t skipped = imported->skipped;
    if (!openDocument(fromTraceDocument(std::move(imported->document)))) {
        return false;
    }
    session_->markUnsaved();  // a new trace, in no file yet
    Q_EMIT statusMessage(
        skipped == 0
            ? tr("Imported %1 requests from %2").arg(requests).arg(QFileInfo(path).fileName())
            : tr("Imported %1 requests from %2; %3 lines skipped")
                  .arg(requests)
                  .arg(QFileInfo(path).fileName())
                  .arg(skipped));
    return true;
}

bool FileController::openFile(const QString& path) {
    SessionDocument document;
    try {
        document = loadDocument(path);
    } catch (const DocumentFileError& error) {
        reportError(tr("Cannot open trace"), error.message());
        return false;
    }
    QStringList notes;
    for (const std::string& warning : document.load_warnings) {
        notes << QString::fromStdString(warning);
    }
    if (const QString error =
            session_->reset(std::move(document), QFileInfo(path).absoluteFilePath());
        !error.isEmpty()) {
        if (session_->wasCancelled()) {
            Q_EMIT statusMessage(tr("Opening %1 was cancelled; the current trace stays open")
                                     .arg(QDir::toNativeSeparators(path)));
            return false;
        }
        reportError(tr("Cannot open trace"),
                    tr("%1: the trace was read but could not be simulated: %2.\n\nThe current "
                       "trace stays open.")
                        .arg(QFileInfo(path).fileName(), error));
        return false;
    }
    addRecentFile(session_->filePath());
    Q_EMIT statusMessage(notes.isEmpty() ? tr("Opened %1").arg(QDir::toNativeSeparators(path))
                                         : tr("Opened %1 (%2)")
                                               .arg(QDir::toNativeSeparators(path),
                                                    notes.join(QStringLiteral("; "))));
    return true;
}

bool FileController::openDocument(SessionDocument document) {
    return maybeSave() && replaceDocument(std::move(document));
}

bool FileController::replaceDocument(SessionDocument document) {
    if (const QString error = session_->reset(std::move(document), QString()); !error.isEmpty()) {
        if (session_->wasCancelled()) {
            Q_EMIT statusMessage(tr("Cancelled; the current trace stays open"));
            return false;
        }
        reportError(tr("Cannot open"),
                    tr("This trace could not be simulated: %1.\n\nThe current trace stays open.")
                        .arg(error));
        return false;
    }
    return true;
}

bool FileController::save() {
    return session_->filePath().isEmpty() ? saveAs() : saveTo(session_->filePath());
}

bool FileController::saveAs() {
    QString suggested = session_->filePath();
    if (suggested.isEmpty()) {
        QString name = session_->displayName().toLower();
        name.replace(QLatin1Char(' '), QLatin1Char('-'));
        // The extension the desktop registers as a RateLab trace.
        suggested = QDir::home().filePath(name + QStringLiteral(".ratelab.json"));
    }
    const QString path =
        QFileDialog::getSaveFileName(window_, tr("Save trace"), suggested, traceFileFilter());
    return !path.isEmpty() && saveTo(path);
}

bool FileController::saveTo(const QString& path) {
    try {
        saveDocument(session_->document(), path);
    } catch (const DocumentFileError& error) {
        reportError(tr("Cannot save trace"),
                    tr("%1\n\nThe file on disk was not changed.").arg(error.message()));
        return false;
    }
    session_->markSaved(QFileInfo(path).absoluteFilePath());
    addRecentFile(session_->filePath());
    Q_EMIT statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileController::offerRecovery() {
    if (autosave_ == nullptr || !interactive_) {
        return false;
    }
    for (const Autosave::Entry& entry : Autosave::leftBehind(autosave_->folder())) {
        // Read before asking, so that only a copy that can be opened is ever offered.
        std::optional<SessionDocument> document = readLeftBehind(entry);
        if (!document) {
            continue;
        }
        QMessageBox box(
            QMessageBox::Warning, tr("Recover unsaved changes"),
            tr("RateLab did not close normally. Unsaved changes to “%1” were kept "
               "from %2.")
                .arg(entry.name, QLocale().toString(entry.saved_at, QLocale::ShortFormat)),
            QMessageBox::NoButton, window_);
        box.setInformativeText(
            tr("Recover opens them as unsaved changes%1. Discard deletes them for good. Not Now "
               "keeps them for the next start.")
                .arg(entry.original_path.isEmpty()
                         ? QString()
                         : tr(" to %1").arg(QDir::toNativeSeparators(entry.original_path))));
        QPushButton* recover_button = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
        QPushButton* discard_button = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("&Not Now"), QMessageBox::RejectRole);
        box.setDefaultButton(recover_button);
        box.exec();
        if (box.clickedButton() == recover_button && adoptRecovered(entry, std::move(*document))) {
            return true;
        }
        if (box.clickedButton() == discard_button) {
            Autosave::discard(entry);
        }
    }
    return false;
}

bool FileController::recover(const Autosave::Entry& entry) {
    std::optional<SessionDocument> document = readLeftBehind(entry);
    return document && adoptRecovered(entry, std::move(*document));
}

std::optional<SessionDocument> FileController::readLeftBehind(const Autosave::Entry& entry) {
    try {
        return Autosave::load(entry);
    } catch (const DocumentFileError& error) {
        const QString kept = Autosave::setAside(entry);
        reportError(tr("Cannot recover"),
                    kept.isEmpty()
                        ? error.message()
                        : tr("%1\n\nThe copy was moved to %2 and will not be offered again.")
                              .arg(error.message(), QDir::toNativeSeparators(kept)));
        return std::nullopt;
    }
}

bool FileController::adoptRecovered(const Autosave::Entry& entry, SessionDocument document) {
    if (const QString error = session_->reset(std::move(document), entry.original_path);
        !error.isEmpty()) {
        if (session_->wasCancelled()) {
            Q_EMIT statusMessage(tr("Recovery cancelled; the copy of %1 is kept for the next start")
                                     .arg(entry.name));
            return false;
        }
        // Kept for a later start, perhaps with more memory.
        reportError(
            tr("Cannot recover"),
            tr("The unsaved changes to %1 could not be simulated: %2.").arg(entry.name, error));
        return false;
    }
    session_->markUnsaved();
    if (autosave_ != nullptr) {
        autosave_->saveNow();
        autosave_->waitForWrite();
    }
    Autosave::discard(entry);
    Q_EMIT statusMessage(tr("Recovered unsaved changes to %1").arg(entry.name));
    return true;
}

QStringList FileController::recentFiles() const {
    return QSettings().value(kRecentFilesKey).toStringList();
}

void FileController::clearRecentFiles() {
    QSettings().remove(kRecentFilesKey);
    Q_EMIT recentFilesChanged();
}

void FileController::addRecentFile(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles) {
        files.removeLast();
    }
    QSettings().setValue(kRecentFilesKey, files);
    Q_EMIT recentFilesChanged();
}

void FileController::reportError(const QString& title, const QString& message) {
    Q_EMIT errorOccurred(message);
    if (interactive_) {
        QMessageBox::critical(window_, title, message);
    }
}

}  // namespace ratelab::ui
