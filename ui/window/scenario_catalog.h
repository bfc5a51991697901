#pragma once

#include <QList>
#include <QString>
#include <functional>

#include "session/session_document.h"

namespace ratelab::ui {

/// One entry of the scenario chooser: the built-in scenario, a bundled trace file or a pattern
/// from the generators.
struct Scenario {
    QString name;
    QString path;                           ///< the bundled file, empty otherwise
    QString summary;                        ///< one line for a tooltip
    std::function<SessionDocument()> make;  ///< may throw DocumentFileError
};

/// The folder of bundled example traces: $RATELAB_TRACES_DIR, next to the build or the install,
/// or the source tree. Empty if none is found.
QString bundledTracesDir();
/// The folder of bundled lessons: $RATELAB_LESSONS_DIR, next to the build or the install, or
/// the source tree. Empty if none is found.
QString bundledLessonsDir();

/// Every scenario the chooser offers: the default one, the bundled traces, then the patterns.
QList<Scenario> availableScenarios();

}  // namespace ratelab::ui
