// File > Import Traffic: the dialog's preview reads the head of a file as its fields say and
// tells what it detected and skipped; the import opens the traffic as a new, unsaved trace,
// and a file that cannot be imported leaves the current trace open.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "session/session.h"
#include "window/file_controller.h"
#include "window/import_dialog.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write(text);
    return file.fileName();
}

}  // namespace

class ImportDialogTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void thePreviewShowsWhatWasDetectedAndSkipped() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("api.csv"),
                                       "ts;user;points\n"
                                       "2024-03-01T12:00:00Z;alice;2\n"
                                       "not a time;bob;1\n"
                                       "2024-03-01T12:00:03Z;bob;1\n");
        ImportDialog dialog(path);
        QVERIFY(dialog.preview().has_value());
        const QString layout = dialog.findChild<QLabel*>(QStringLiteral("importLayout"))->text();
        QVERIFY2(layout.contains(QStringLiteral("semicolon-separated")), qPrintable(layout));
        QVERIFY2(layout.contains(QStringLiteral("times from ts (ISO 8601)")), qPrintable(layout));
        QVERIFY2(layout.contains(QStringLiteral("keys from user")), qPrintable(layout));
        // No column is named as a cost column is looked for: every cost is 1 until one is named.
        QVERIFY2(layout.contains(QStringLiteral("costs from nowhere")), qPrintable(layout));
        const auto* requests = dialog.findChild<QTableWidget*>(QStringLiteral("importRequests"));
        QCOMPARE(requests->rowCount(), 2);
        QCOMPARE(requests->item(1, 0)->text(), QStringLiteral("3"));
        QCOMPARE(requests->item(1, 1)->text(), QStringLiteral("bob"));
        QVERIFY(dialog.findChild<QPlainTextEdit*>(QStringLiteral("importSkipped"))
                    ->toPlainText()
                    .startsWith(QStringLiteral("line 3: cannot read the time")));

        // Naming the cost column reads it; naming one that does not exist says so, and the
        // Import button waits for a setting that works.
        dialog.findChild<QLineEdit*>(QStringLiteral("importCostColumn"))
            ->setText(QStringLiteral("points"));
        dialog.refreshPreview();
        QCOMPARE(requests->item(0, 2)->text(), QStringLiteral("2"));
        QCOMPARE(dialog.options().cost_column, std::string("points"));
        dialog.findChild<QLineEdit*>(QStringLiteral("importCostColumn"))
            ->setText(QStringLiteral("price"));
        dialog.refreshPreview();
        QVERIFY(!dialog.preview().has_value());
        QVERIFY(dialog.previewError().contains(QStringLiteral("no cost column named \"price\"")));
    }

    void theFormatFollowsTheFileName() {
        QTemporaryDir dir;
        const QString log = writeFile(
            dir, QStringLiteral("access.log"),
            R"(10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 2326 "-" "curl")"
            "\n");
        ImportDialog dialog(log);
        QCOMPARE(dialog.options().format, io::ImportFormat::kCombinedLog);
        QCOMPARE(dialog.options().log_key, std::string("host"));
        QVERIFY(dialog.preview().has_value());
        QCOMPARE(dialog.preview()->imported, std::uint64_t{1});
    }

    void anImportOpensAsANewUnsavedTrace() {
        QTemporaryDir dir;
        QByteArray text = "timestamp,client\n";
        for (int i = 0; i < 500; ++i) {
            text += QByteArray::number(1709294400 + i / 4) + (i % 3 == 0 ? ",a\n" : ",b\n");
        }
        const QString path = writeFile(dir, QStringLiteral("day.csv"), text);
        Session session;
        FileController files(&session, nullptr);
        files.setInteractive(false);
        QSignalSpy status(&files, &FileController::statusMessage);
        QVERIFY(files.importFile(path));
        QCOMPARE(session.trace().requests.size(), std::size_t{500});
        QCOMPARE(session.trace().requests.back().tick, Tick{124});
        QVERIFY(session.trace().find_key("a").has_value());
        QVERIFY(session.isModified());
        QVERIFY(session.filePath().isEmpty());
        QVERIFY(!status.isEmpty());
        QCOMPARE(status.last().at(0).toString(),
                 QStringLiteral("Imported 500 requests from day.csv"));

        // Nothing importable: an error, and the imported trace stays.
        QSignalSpy errors(&files, &FileController::errorOccurred);
        const QString empty = writeFile(dir, QStringLiteral("empty.csv"), "timestamp\n");
        QVERIFY(!files.importFile(empty));
        QCOMPARE(errors.count(), 1);
        QVERIFY(
            errors.at(0).at(0).toString().contains(QStringLiteral("no line could be imported")));
        QCOMPARE(session.trace().requests.size(), std::size_t{500});
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    ImportDialogTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "import_dialog_test.moc"
