#include "window/scenario_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include "ratelab/io/generators.h"
#include "session/document_files.h"

namespace ratelab::ui {

namespace {

/// The first of `candidates` that holds a JSON file, or empty.
QString firstFolderWithJson(const QStringList& candidates) {
    for (const QString& candidate : candidates) {
        const QDir dir(candidate);
        if (dir.exists() && !dir.entryList({QStringLiteral("*.json")}, QDir::Files).isEmpty()) {
            return dir.canonicalPath();
        }
    }
    return {};
}

}  // namespace

QString bundledTracesDir() {
    QStringList candidates;
    const QString configured = qEnvironmentVariable("RATELAB_TRACES_DIR");
    if (!configured.isEmpty()) {
        candidates << configured;
    }
    const QString app = QCoreApplication::applicationDirPath();
    candidates << app + QStringLiteral("/../../traces")             // build/app/ratelab
               << app + QStringLiteral("/../share/ratelab/traces")  // installed
#ifdef RATELAB_SOURCE_DIR
               << QStringLiteral(RATELAB_SOURCE_DIR "/traces")
#endif
        ;
    return firstFolderWithJson(candidates);
}

QString bundledLessonsDir() {
    QStringList candidates;
    const QString configured = qEnvironmentVariable("RATELAB_LESSONS_DIR");
    if (!configured.isEmpty()) {
        candidates << configured;
    }
    const QString app = QCoreApplication::applicationDirPath();
    candidates << app + QStringLiteral("/../../resources/lessons")   // build/app/ratelab
               << app + QStringLiteral("/../share/ratelab/lessons")  // installed
#ifdef RATELAB_SOURCE_DIR
               << QStringLiteral(RATELAB_SOURCE_DIR "/resources/lessons")
#endif
        ;
    return firstFolderWithJson(candidates);
}

QList<Scenario> availableScenarios() {
    QList<Scenario> scenarios;
    const SessionDocument builtin = SessionDocument::defaultScenario();
    scenarios.append({QCoreApplication::translate("Scenarios", "Boundary burst (default)"),
                      {},
                      QString::fromStdString(builtin.description),
                      [] { return SessionDocument::defaultScenario(); }});
    const QString folder = bundledTracesDir();
    const QDir dir(folder);
    for (const QFileInfo& file : folder.isEmpty() ? QFileInfoList()
                                                  : dir.entryInfoList({QStringLiteral("*.json")},
                                                                      QDir::Files, QDir::Name)) {
        SessionDocument document;
        try {
            document = loadDocument(file.filePath());
        } catch (const DocumentFileError&) {
            continue;  // a broken example is left out rather than offered
        }
        if (*document.trace == *builtin.trace && document.params == builtin.params) {
            continue;  // the default scenario is already first in the list
        }
        const QString name =
            document.name.empty() ? file.completeBaseName() : QString::fromStdString(document.name);
        const QString path = file.filePath();
        scenarios.append({name, path, QString::fromStdString(document.description),
                          [path] { return loadDocument(path); }});
    }
    for (const io::PatternInfo& pattern : io::patterns()) {
        const std::string id = pattern.id;
        scenarios.append({QCoreApplication::translate("Scenarios", "Pattern: %1")
                              .arg(QString::fromStdString(id)),
                          {},
                          QString::fromStdString(pattern.summary),
                          [id] {
                              try {
                                  return fromTraceDocument(io::generate_pattern(id, {}));
                              } catch (const std::exception& error) {
                                  throw DocumentFileError{QString::fromStdString(id),
                                                          {},
                                                          QString::fromStdString(error.what())};
                              }
                          }});
    }
    return scenarios;
}

}  // namespace ratelab::ui
