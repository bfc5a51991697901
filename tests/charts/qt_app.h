#pragma once
// Charts need a QApplication (QChart uses widget styles). Tests share one, created on first use
// on the offscreen platform unless a display was chosen, and kept until the process ends.

#include <QApplication>

namespace ratelab::test {

inline QApplication& app() {
    if (auto* existing = qobject_cast<QApplication*>(QCoreApplication::instance()))
        return *existing;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "charts_tests";
    static char* argv[] = {name, nullptr};
    // Never destroyed: tearing a QApplication down among the other statics at exit crashes
    // inside Qt. The pointer keeps it reachable for leak checkers.
    static QApplication* application = new QApplication(argc, argv);
    return *application;
}

}  // namespace ratelab::test
