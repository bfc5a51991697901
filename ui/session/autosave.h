#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <chrono>
#include <memory>

#include "session/session_document.h"

class QLockFile;

namespace ratelab::ui {

class Session;

/// Keeps a copy of unsaved changes in a private folder, so that a crash or a killed process
/// loses at most one interval of work; the next start offers the copy back.
///
/// Each running window writes `<id>.ratelab.json` (the document, in the trace format) and
/// `<id>.origin.json` (which file it belongs to), and holds `<id>.lock` while it runs. The copy
/// is removed when the document is saved, replaced by a clean one, or the window closes
/// normally; so whatever is left in the folder with no live owner is work a crash cut short.
class Autosave : public QObject {
    Q_OBJECT

public:
    static constexpr std::chrono::seconds kInterval{30};

    /// A copy left behind by a window that did not close normally.
    struct Entry {
        QString id;
        QString trace_path;     ///< the autosaved document
        QString original_path;  ///< the file it was opened from or saved to; empty if none
        QString name;           ///< what the window called the document
        QDateTime saved_at;
    };

    /// The application data folder's "autosave" subfolder.
    static QString defaultFolder();

    Autosave(Session* session, QString folder, std::chrono::milliseconds interval,
             QObject* parent = nullptr);
    /// Waits for a write in progress, then removes this window's copy: a normal exit leaves
    /// nothing to recover.
    ~Autosave() override;

    /// Writes the document now if it has changes that are not saved and not yet autosaved.
    /// The file is written on a worker thread; finished() or failed() follow.
    void saveNow();
    /// Blocks until a write started by saveNow() is done (for tests and shutdown).
    void waitForWrite();
    const QString& folder() const { return folder_; }

    /// Copies in `folder` whose owner is no longer running, newest first.
    static QList<Entry> leftBehind(const QString& folder);
    /// Reads an entry's document. Throws DocumentFileError.
    static SessionDocument load(const Entry& entry);
    /// Deletes an entry's files.
    static void discard(const Entry& entry);
    /// Renames a copy that cannot be read to `<id>.unreadable.json` in the same folder, where
    /// leftBehind() no longer finds it but a person still can. Returns the new path, or an
    /// empty string if the copy could not be renamed (it is then deleted).
    static QString setAside(const Entry& entry);

Q_SIGNALS:
    void written(const QString& path);
    /// The copy could not be written (the folder is not writable, the disk is full...).
    void failed(const QString& message);

private:
    void onWriteDone(quint64 generation, const QString& error);
    void removeOwnFiles();
    bool ensureLocked();
    QString ownPath(const QString& suffix) const;

    Session* session_;
    QString folder_;
    QString id_;
    QTimer timer_;
    QThreadPool writer_;
    std::unique_ptr<QLockFile> lock_;
    quint64 generation_ = 1;  ///< counts changes to the document
    quint64 written_ = 0;     ///< the generation the copy on disk holds; 0 for none
    bool writing_ = false;
    bool on_disk_ = false;
    QString last_error_;
};

}  // namespace ratelab::ui
