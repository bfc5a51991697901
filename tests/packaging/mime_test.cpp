// The trace file type as a Qt program (the GUI's file dialogs, for one) sees it: the package's MIME
// XML is compiled with update-mime-database into a private database, exactly as the Debian trigger
// does on installation, and QMimeDatabase is asked about file names and contents.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QMimeDatabase>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include "catch.h"

namespace {

constexpr auto trace_type = "application/x-ratelab-trace";

const QByteArray trace_json = QByteArrayLiteral(
    "{\n  \"format\": \"ratelab-trace\",\n  \"version\": 1,\n  \"limit\": 4,\n"
    "  \"window\": 10,\n  \"requests\": [{\"tick\": 6}]\n}\n");

// Builds the private database once per process and points XDG_DATA_HOME at it before Qt first
// looks (QMimeDatabase reads the data directories lazily, on first use).
class PrivateMimeDatabase {
public:
    static PrivateMimeDatabase& instance() {
        static PrivateMimeDatabase database;
        return database;
    }

    QString write_file(const QString& name, const QByteArray& contents) const {
        const QString path = files_.filePath(name);
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        REQUIRE(file.write(contents) == contents.size());
        return path;
    }

private:
    PrivateMimeDatabase() {
        REQUIRE(home_.isValid());
        const QString mime_dir = home_.filePath(QStringLiteral("mime"));
        REQUIRE(QDir().mkpath(mime_dir + QStringLiteral("/packages")));
        const QString xml = QStringLiteral(RATELAB_SOURCE_DIR "/resources/linux/ratelab.xml");
        REQUIRE(QFile::copy(xml, mime_dir + QStringLiteral("/packages/ratelab.xml")));

        QProcess update;
        update.start(QStringLiteral("update-mime-database"), {mime_dir});
        INFO("update-mime-database (package shared-mime-info) must be installed");
        REQUIRE(update.waitForFinished(30000));
        INFO(update.readAllStandardError().toStdString());
        REQUIRE(update.exitStatus() == QProcess::NormalExit);
        REQUIRE(update.exitCode() == 0);

        qputenv("XDG_DATA_HOME", QFile::encodeName(home_.path()));
        REQUIRE(files_.isValid());
    }

    QTemporaryDir home_;
    QTemporaryDir files_;
};

QString type_of_name(const QString& name) {
    PrivateMimeDatabase::instance();
    return QMimeDatabase().mimeTypeForFile(name, QMimeDatabase::MatchExtension).name();
}

QString type_of_file(const QString& name, const QByteArray& contents) {
    const QString path = PrivateMimeDatabase::instance().write_file(name, contents);
    return QMimeDatabase().mimeTypeForFile(path).name();
}

}  // namespace

TEST_CASE("a .ratelab.json file is a RateLab trace by its name alone", "[packaging][mime]") {
    CHECK(type_of_name(QStringLiteral("boundary-burst.ratelab.json")) == QLatin1String(trace_type));
    CHECK(type_of_name(QStringLiteral("/home/me/Traces/My Scenario.RATELAB.JSON")) ==
          QLatin1String(trace_type));
}

TEST_CASE("the trace type is a kind of JSON and has a name and an icon", "[packaging][mime]") {
    PrivateMimeDatabase::instance();
    const QMimeType type = QMimeDatabase().mimeTypeForName(QLatin1String(trace_type));
    REQUIRE(type.isValid());
    CHECK(type.inherits(QStringLiteral("application/json")));
    CHECK(type.comment() == QStringLiteral("RateLab request trace"));
    CHECK(type.iconName() == QStringLiteral("ratelab"));
    CHECK(type.preferredSuffix() == QStringLiteral("ratelab.json"));
}

TEST_CASE("ordinary JSON files are left to other applications", "[packaging][mime]") {
    CHECK(type_of_name(QStringLiteral("package.json")) == QStringLiteral("application/json"));
    CHECK(type_of_file(QStringLiteral("settings.json"), QByteArrayLiteral("{\"a\": 1}\n")) ==
          QStringLiteral("application/json"));
}

TEST_CASE("a trace without the extension is recognised by its content", "[packaging][mime]") {
    CHECK(type_of_file(QStringLiteral("downloaded-trace"), trace_json) ==
          QLatin1String(trace_type));
}
