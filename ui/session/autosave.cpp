#include "session/autosave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QStandardPaths>
#include <QUuid>

#include "session/document_files.h"
#include "session/session.h"

namespace ratelab::ui {

namespace {

const QString kTraceSuffix = QStringLiteral(".ratelab.json");
const QString kOriginSuffix = QStringLiteral(".origin.json");
const QString kLockSuffix = QStringLiteral(".lock");
// An origin file is a few hundred bytes; anything far larger is not ours.
constexpr qint64 kMaxOriginBytes = 64 * 1024;

QString inFolder(const QString& folder, const QString& id, const QString& suffix) {
    return QDir(folder).filePath(id + suffix);
}

Autosave::Entry readEntry(const QString& folder, const QString& id) {
    Autosave::Entry entry;
    entry.id = id;
    entry.trace_path = inFolder(folder, id, kTraceSuffix);
    entry.saved_at = QFileInfo(entry.trace_path).lastModified();
    QFile origin(inFolder(folder, id, kOriginSuffix));
    if (origin.size() <= kMaxOriginBytes && origin.open(QIODevice::ReadOnly)) {
        const QJsonObject object = QJsonDocument::fromJson(origin.readAll()).object();
        entry.original_path = object.value(QStringLiteral("file")).toString();
        entry.name = object.value(QStringLiteral("name")).toString();
    }
    if (entry.name.isEmpty()) {
        entry.name = entry.original_path.isEmpty() ? QFileInfo(entry.trace_path).fileName()
                                                   : QFileInfo(entry.original_path).fileName();
    }
    return entry;
}

}  // namespace

QString Autosave::defaultFolder() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("autosave"));
}

Autosave::Autosave(Session* session, QString folder, std::chrono::milliseconds interval,
                   QObject* parent)
    : QObject(parent),
      session_(session),
      folder_(std::move(folder)),
      id_(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
    writer_.setMaxThreadCount(1);
    connect(session_, &Session::resultChanged, this, [this] { ++generation_; });
    connect(session_, &Session::modifiedChanged, this, [this](bool modified) {
        if (!modified) {
            removeOwnFiles();
        }
    });
    timer_.setInterval(interval);
    connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
    timer_.start();
}

Autosave::~Autosave() {
    waitForWrite();
    removeOwnFiles();
}

QString Autosave::ownPath(const QString& suffix) const {
    return inFolder(folder_, id_, suffix);
}

bool Autosave::ensureLocked() {
    if (lock_) {
        return true;
    }
    if (!QDir().mkpath(folder_)) {
        if (last_error_.isEmpty()) {
            last_error_ =
                tr("Cannot create the autosave folder %1").arg(QDir::toNativeSeparators(folder_));
            Q_EMIT failed(last_error_);
        }
        return false;
    }
    auto lock = std::make_unique<QLockFile>(ownPath(kLockSuffix));
    // Only a dead owner makes a copy recoverable, however long the window has been open.
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) {
        // Without its lock a copy would look abandoned to the next start: write none, and say
        // why (a full disk leaves no room even for the lock).
        const QString error =
            tr("Autosave is off: cannot create the lock file %1 (the disk may be full or the "
               "folder read-only)")
                .arg(QDir::toNativeSeparators(ownPath(kLockSuffix)));
        if (error != last_error_) {
            last_error_ = error;
            Q_EMIT failed(error);
        }
        return false;
    }
    lock_ = std::move(lock);
    return true;
}

void Autosave::saveNow() {
    if (writing_ || !session_->isModified() || written_ == generation_ || !ensureLocked()) {
        return;
    }
    writing_ = true;
    const quint64 generation = generation_;
    // The document is cheap to copy (its trace is shared and immutable), so the worker writes
    // a snapshot while the user goes on editing.
    SessionDocument document = session_->document();
    QJsonObject origin;
    origin.insert(QStringLiteral("format"), QStringLiteral("ratelab-autosave"));
    origin.insert(QStringLiteral("version"), 1);
    origin.insert(QStringLiteral("file"), session_->filePath());
    origin.insert(QStringLiteral("name"), session_->displayName());
    const QByteArray origin_bytes = QJsonDocument(origin).toJson();
    const QString trace_path = ownPath(kTraceSuffix);
    const QString origin_path = ownPath(kOriginSuffix);
    writer_.start(
        [this, generation, document = std::move(document), origin_bytes, trace_path, origin_path] {
            QString error;
            try {
                saveDocument(document, trace_path);
                writeWholeFile(origin_path, origin_bytes.toStdString());
            } catch (const DocumentFileError& failure) {
                error = failure.message();
            }
            QMetaObject::invokeMethod(
                this, [this, generation, error] { onWriteDone(generation, error); },
                Qt::QueuedConnection);
        });
}

void Autosave::waitForWrite() {
    writer_.waitForDone();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

void Autosave::onWriteDone(quint64 generation, const QString& error) {
    writing_ = false;
    on_disk_ = true;
    if (!error.isEmpty()) {
        // Said once per kind of failure, not every interval.
        if (error != last_error_) {
            last_error_ = error;
            Q_EMIT failed(tr("Autosave failed: %1").arg(error));
        }
        return;
    }
    last_error_.clear();
    if (!session_->isModified()) {
        // Saved or replaced while the copy was being written: the copy is already stale.
        removeOwnFiles();
        return;
    }
    written_ = generation;
    Q_EMIT written(ownPath(kTraceSuffix));
}

void Autosave::removeOwnFiles() {
    written_ = 0;
    if (writing_ || !on_disk_) {
        return;  // a write in progress cleans up after itself in onWriteDone()
    }
    QFile::remove(ownPath(kTraceSuffix));
    QFile::remove(ownPath(kOriginSuffix));
    on_disk_ = false;
}

QList<Autosave::Entry> Autosave::leftBehind(const QString& folder) {
    QList<Entry> entries;
    const QFileInfoList files =
        QDir(folder).entryInfoList({QStringLiteral("*") + kTraceSuffix}, QDir::Files, QDir::Time);
    for (const QFileInfo& file : files) {
        const QString id = file.fileName().chopped(kTraceSuffix.size());
        QLockFile owner(inFolder(folder, id, kLockSuffix));
        owner.setStaleLockTime(0);
        if (!owner.tryLock(0)) {
            continue;  // its window is still open
        }
        owner.unlock();
        entries.append(readEntry(folder, id));
    }
    return entries;
}

SessionDocument Autosave::load(const Entry& entry) {
    return loadDocument(entry.trace_path);
}

QString Autosave::setAside(const Entry& entry) {
    const QString folder = QFileInfo(entry.trace_path).absolutePath();
    const QString kept = inFolder(folder, entry.id, QStringLiteral(".unreadable.json"));
    QFile::remove(kept);
    const bool renamed = QFile::rename(entry.trace_path, kept);
    discard(entry);
    return renamed ? kept : QString();
}

void Autosave::discard(const Entry& entry) {
    const QString folder = QFileInfo(entry.trace_path).absolutePath();
    QFile::remove(entry.trace_path);
    QFile::remove(inFolder(folder, entry.id, kOriginSuffix));
}

}  // namespace ratelab::ui
