#include "window/scenario_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include "session/document_files.h"

namespace ratelab::ui {

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
    for (const QString& candidate : candidates) {
        const QDir dir(candidate);
        if (dir.exists() && !dir.entryList({QStringLiteral("*.json")}, QDir::Files).isEmpty()) {
            return dir.canonicalPath();
        }
    }
    return {};
}

QList<Scenario> availableScenarios() {
    QList<Scenario> scenarios;
    scenarios.append({QCoreApplication::translate("Scenarios", "Boundary burst (default)"), {}, [] {
                          return SessionDocument::defaultScenario();
                      }});
    const QString folder = bundledTracesDir();
    if (folder.isEmpty()) {
        return scenarios;
    }
    const QDir dir(folder);
    for (const QFileInfo& file :
         dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QString name;
        try {
            name = QString::fromStdString(loadDocument(file.filePath()).name);
        } catch (const DocumentFileError&) {
            continue;  // a broken example is left out rather than offered
        }
        if (name.isEmpty()) {
            name = file.completeBaseName();
        }
        const QString path = file.filePath();
        scenarios.append({name, path, [path] { return loadDocument(path); }});
    }
    return scenarios;
}

}  // namespace ratelab::ui
