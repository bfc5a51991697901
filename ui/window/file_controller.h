#pragma once

#include <optional>

#include <QObject>
#include <QStringList>

#include "session/autosave.h"
#include "session/session_document.h"

class QWidget;

namespace ratelab::ui {

class Session;

/// New, Open, Save, Save As, recent files and the unsaved-changes prompt, for one Session.
class FileController : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxRecentFiles = 8;

    FileController(Session* session, QWidget* window, QObject* parent = nullptr);

    /// Asks what to do with unsaved changes. True if it is fine to replace the document.
    bool maybeSave();
    /// Loads `path`; on failure shows what and where, and keeps the current document.
    bool openFile(const QString& path);
    /// Replaces the document with `document` (a scenario or example), after maybeSave().
    bool openDocument(SessionDocument document);
    /// Replaces the document with `document` without asking; on failure says why and keeps the
    /// current one.
    bool replaceDocument(SessionDocument document);
    QStringList recentFiles() const;

    /// The autosave that keeps this session's unsaved changes; recovery hands work over to it.
    void setAutosave(Autosave* autosave) { autosave_ = autosave; }
    /// Offers, newest first, the unsaved work that windows which did not close normally left in
    /// the autosave folder. Returns true if one was recovered (the others wait for next time).
    bool offerRecovery();
    /// Loads a left-behind copy as unsaved changes to the file it came from; once this
    /// session's own autosave holds it, the old copy is deleted. If the copy cannot be read,
    /// keeps the current document, reports the error and sets the copy aside, so that it is
    /// not offered again.
    bool recover(const Autosave::Entry& entry);

    /// Off in tests: errors are only reported through errorOccurred(), never in a dialog.
    void setInteractive(bool interactive) { interactive_ = interactive; }

    /// Imports `path` (a CSV file or an access log) as ImportDialog shows it: the dialog, then
    /// the import behind a progress bar; the trace opens as a new, unsaved document.
    bool importFile(const QString& path);

public Q_SLOTS:
    void newDocument();
    void open();
    /// Asks for a CSV file or an access log, then importFile().
    void importTraffic();
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);
    void clearRecentFiles();

Q_SIGNALS:
    void recentFilesChanged();
    void errorOccurred(const QString& message);
    void statusMessage(const QString& message);

private:
    /// Reads a left-behind copy; an unreadable one is reported and set aside.
    std::optional<SessionDocument> readLeftBehind(const Autosave::Entry& entry);
    bool adoptRecovered(const Autosave::Entry& entry, SessionDocument document);
    void addRecentFile(const QString& path);
    void reportError(const QString& title, const QString& message);

    Session* session_;
    QWidget* window_;
    Autosave* autosave_ = nullptr;
    bool interactive_ = true;
};

}  // namespace ratelab::ui
