#pragma once

#include <QObject>
#include <QStringList>

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
    QStringList recentFiles() const;

    /// Off in tests: errors are only reported through errorOccurred(), never in a dialog.
    void setInteractive(bool interactive) { interactive_ = interactive; }

public Q_SLOTS:
    void newDocument();
    void open();
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);
    void clearRecentFiles();

Q_SIGNALS:
    void recentFilesChanged();
    void errorOccurred(const QString& message);
    void statusMessage(const QString& message);

private:
    void addRecentFile(const QString& path);
    void reportError(const QString& title, const QString& message);

    Session* session_;
    QWidget* window_;
    bool interactive_ = true;
};

}  // namespace ratelab::ui
