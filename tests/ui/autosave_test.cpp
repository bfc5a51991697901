// Autosave and crash recovery: unsaved work is copied to a private folder, removed when it is
// saved or the window closes normally, and offered back when its owner died.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cerrno>
#include <cstring>

#include "../full_disk.h"
#include "session/autosave.h"
#include "session/document_files.h"
#include "session/session.h"
#include "window/file_controller.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace std::chrono_literals;

namespace {

// Long enough that the timer never fires during a test that calls saveNow() itself.
constexpr std::chrono::milliseconds kManual = 1h;

QStringList tracesIn(const QString& folder) {
    return QDir(folder).entryList({QStringLiteral("*.ratelab.json")}, QDir::Files);
}

/// What a crash leaves: the copy and its origin, under an id no live window holds.
Autosave::Entry orphanCopyOf(const QString& folder, const QString& id) {
    const QStringList traces = tracesIn(folder);
    if (traces.size() != 1) {
        return {};
    }
    const QString own = traces.front().chopped(QStringLiteral(".ratelab.json").size());
    QFile::copy(QDir(folder).filePath(traces.front()),
                QDir(folder).filePath(id + QStringLiteral(".ratelab.json")));
    QFile::copy(QDir(folder).filePath(own + QStringLiteral(".origin.json")),
                QDir(folder).filePath(id + QStringLiteral(".origin.json")));
    for (const Autosave::Entry& entry : Autosave::leftBehind(folder)) {
        if (entry.id == id) {
            return entry;
        }
    }
    return {};
}

/// A document of about 10 KB: larger than the disk's free space in the tests below, and small
/// enough to sit whole in a 16 KB write buffer, where a failure shows only when it is flushed.
void addManyRequests(Session& session) {
    for (int i = 0; i < 600; ++i) {
        session.addRequest(100 + i);
    }
}

QByteArray contentsOf(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::size_t savedSize(const Session& session) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("size.json"));
    saveDocument(session.document(), file);
    return static_cast<std::size_t>(QFileInfo(file).size());
}

QString diskFullReason() {
    return QString::fromLocal8Bit(std::strerror(EFBIG));
}

}  // namespace

class AutosaveTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesNothingWhileTheDocumentIsUnchanged() {
        QTemporaryDir dir;
        Session session;
        Autosave autosave(&session, dir.path(), kManual);
        autosave.saveNow();
        autosave.waitForWrite();
        QVERIFY(tracesIn(dir.path()).isEmpty());
    }

    void copiesUnsavedWorkAndOnlyAnOwnerlessCopyIsLeftBehind() {
        QTemporaryDir dir;
        Session session;
        Autosave autosave(&session, dir.path(), kManual);
        QSignalSpy written(&autosave, &Autosave::written);
        session.addRequest(17, 3);
        autosave.saveNow();
        autosave.waitForWrite();
        QCOMPARE(written.count(), 1);
        const QString path = written.front().front().toString();
        QVERIFY(loadDocument(path).trace->requests == session.trace().requests);
        // The window that wrote it is still open: nothing to recover.
        QVERIFY(Autosave::leftBehind(dir.path()).isEmpty());
        // Unchanged since the last copy: not written again.
        autosave.saveNow();
        autosave.waitForWrite();
        QCOMPARE(written.count(), 1);
    }

    void theTimerCopiesWithoutBeingAsked() {
        QTemporaryDir dir;
        Session session;
        Autosave autosave(&session, dir.path(), 20ms);
        QTest::qWait(60);
        QVERIFY(tracesIn(dir.path()).isEmpty());
        session.addRequest(30);
        QTRY_COMPARE_WITH_TIMEOUT(tracesIn(dir.path()).size(), 1, 5000);
    }

    void savingOrClosingNormallyRemovesTheCopy() {
        QTemporaryDir dir;
        QTemporaryDir documents;
        {
            Session session;
            Autosave autosave(&session, dir.path(), kManual);
            session.addRequest(17);
            autosave.saveNow();
            autosave.waitForWrite();
            QCOMPARE(tracesIn(dir.path()).size(), 1);
            const QString file = documents.filePath(QStringLiteral("kept.ratelab.json"));
            saveDocument(session.document(), file);
            session.markSaved(file);
            QVERIFY(tracesIn(dir.path()).isEmpty());

            session.addRequest(18);
            autosave.saveNow();
            autosave.waitForWrite();
            QCOMPARE(tracesIn(dir.path()).size(), 1);
        }
        QVERIFY(tracesIn(dir.path()).isEmpty());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());  // the lock went too
    }

    void recoveryReopensTheWorkAsUnsavedChangesToItsFile() {
        QTemporaryDir dir;
        QTemporaryDir documents;
        const QString file = documents.filePath(QStringLiteral("lesson.ratelab.json"));
        Autosave::Entry orphan;
        Trace edited;
        {
            Session crashed;
            saveDocument(crashed.document(), file);
            crashed.markSaved(file);
            Autosave autosave(&crashed, dir.path(), kManual);
            crashed.addRequest(21, 2);
            crashed.removeRequests({0});
            edited = crashed.trace();
            autosave.saveNow();
            autosave.waitForWrite();
            orphan = orphanCopyOf(dir.path(), QStringLiteral("crashed-window"));
        }
        QVERIFY(!orphan.id.isEmpty());
        QCOMPARE(orphan.original_path, file);
        QCOMPARE(orphan.name, QStringLiteral("lesson.ratelab.json"));

        Session session;
        Autosave autosave(&session, dir.path(), kManual);
        FileController files(&session, nullptr);
        files.setInteractive(false);
        files.setAutosave(&autosave);
        QVERIFY(files.recover(orphan));
        QVERIFY(session.trace() == edited);
        QVERIFY(session.isModified());
        QCOMPARE(session.filePath(), file);
        QVERIFY(session.undoStack()->count() == 0);
        // The old copy is gone, and this window's own copy holds the work now.
        QVERIFY(Autosave::leftBehind(dir.path()).isEmpty());
        QCOMPARE(tracesIn(dir.path()).size(), 1);
        // The file on disk was not touched by recovery.
        QVERIFY(!(loadDocument(file).trace->requests == edited.requests));
    }

    void anUnreadableCopyIsReportedAndTheCurrentWorkStays() {
        QTemporaryDir dir;
        QFile junk(dir.filePath(QStringLiteral("broken.ratelab.json")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("{\"format\": \"ratelab-trace\", \"requests\": [");
        junk.close();
        const QList<Autosave::Entry> entries = Autosave::leftBehind(dir.path());
        QCOMPARE(entries.size(), 1);

        Session session;
        session.addRequest(40);
        const Trace before = session.trace();
        FileController files(&session, nullptr);
        files.setInteractive(false);
        QSignalSpy errors(&files, &FileController::errorOccurred);
        QVERIFY(!files.recover(entries.front()));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.front().front().toString().contains(QStringLiteral("broken.ratelab.json")));
        QVERIFY(session.trace() == before);
        QVERIFY(session.isModified());
        // Set aside where a person can still find it, and never offered again.
        QVERIFY(Autosave::leftBehind(dir.path()).isEmpty());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("broken.unreadable.json"))));
        QVERIFY(
            errors.front().front().toString().contains(QStringLiteral("broken.unreadable.json")));
    }

    void savingOntoAFullDiskKeepsTheOldFileAndTheUnsavedMark() {
        QTemporaryDir documents;
        const QString file = documents.filePath(QStringLiteral("kept.ratelab.json"));
        Session session;
        FileController files(&session, nullptr);
        files.setInteractive(false);
        QVERIFY(files.saveTo(file));
        const QByteArray before = contentsOf(file);
        QVERIFY(!before.isEmpty());
        addManyRequests(session);
        const std::size_t size = savedSize(session);
        QVERIFY2(size > 8192 && size < 16384, QByteArray::number(qulonglong(size)).constData());
        QSignalSpy errors(&files, &FileController::errorOccurred);
        {
            test::FullDiskAfter full(4096);
            QVERIFY(!files.saveTo(file));
        }
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.front().front().toString().contains(diskFullReason()));
        QVERIFY(session.isModified());
        QCOMPARE(contentsOf(file), before);
        QCOMPARE(QDir(documents.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void autosaveOnAFullDiskSaysWhyAndLeavesNoCopyToOffer() {
        QTemporaryDir dir;
        Session session;
        Autosave autosave(&session, dir.path(), kManual);
        addManyRequests(session);
        QSignalSpy failed(&autosave, &Autosave::failed);
        {
            test::FullDiskAfter full(4096);
            autosave.saveNow();
            autosave.waitForWrite();
        }
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().front().toString().contains(diskFullReason()));
        QVERIFY(tracesIn(dir.path()).isEmpty());
        // Once there is room again, the next interval writes the copy.
        autosave.saveNow();
        autosave.waitForWrite();
        QCOMPARE(tracesIn(dir.path()).size(), 1);
        QVERIFY(loadDocument(dir.filePath(tracesIn(dir.path()).front())).trace->requests ==
                session.trace().requests);
    }

    void noRoomForTheLockFileIsReported() {
        QTemporaryDir dir;
        Session session;
        Autosave autosave(&session, dir.path(), kManual);
        QSignalSpy failed(&autosave, &Autosave::failed);
        session.addRequest(12);
        {
            test::FullDiskAfter full(0);
            autosave.saveNow();
            autosave.waitForWrite();
            session.addRequest(13);
            autosave.saveNow();  // said once, not at every interval
            autosave.waitForWrite();
        }
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().front().toString().contains(QStringLiteral(".lock")));
        QVERIFY(tracesIn(dir.path()).isEmpty());
    }

    void aFolderThatCannotBeCreatedIsReportedOnce() {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("not-a-folder")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        Session session;
        Autosave autosave(&session, dir.filePath(QStringLiteral("not-a-folder/autosave")), kManual);
        QSignalSpy failed(&autosave, &Autosave::failed);
        session.addRequest(12);
        autosave.saveNow();
        session.addRequest(13);
        autosave.saveNow();
        autosave.waitForWrite();
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("not-a-folder")));
        QVERIFY(session.isModified());
    }
};

QTEST_GUILESS_MAIN(AutosaveTest)
#include "autosave_test.moc"
