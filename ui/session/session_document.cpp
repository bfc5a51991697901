#include "session/session_document.h"

#include <QCoreApplication>

#include "ratelab/simulation.h"

namespace ratelab::ui {

SessionDocument SessionDocument::defaultScenario() {
    SessionDocument document;
    document.name = QCoreApplication::translate("SessionDocument", "Boundary burst").toStdString();
    document.description =
        QCoreApplication::translate(
            "SessionDocument",
            "Four requests arrive just before the window boundary at t = 10 and four just after "
            "it. The fixed window lets all eight through within ten ticks, twice the limit; "
            "compare how the other algorithms spread or refuse the same burst.")
            .toStdString();
    document.params = default_params();
    document.trace = std::make_shared<const Trace>(default_trace());
    return document;
}

SessionDocument SessionDocument::empty() {
    SessionDocument document;
    document.name = QCoreApplication::translate("SessionDocument", "Untitled").toStdString();
    document.params = default_params();
    return document;
}

}  // namespace ratelab::ui
