#pragma once

#include <QList>
#include <QString>
#include <functional>

#include "session/session_document.h"

namespace ratelab::ui {

/// One entry of the scenario chooser: a built-in scenario or a bundled trace file.
struct Scenario {
    QString name;
    QString path;                           ///< the bundled file, empty for a built-in scenario
    std::function<SessionDocument()> make;  ///< may throw DocumentFileError
};

/// The folder of bundled example traces: $RATELAB_TRACES_DIR, next to the build or the install,
/// or the source tree. Empty if none is found.
QString bundledTracesDir();

/// Every scenario the chooser offers, the default one first.
QList<Scenario> availableScenarios();

}  // namespace ratelab::ui
