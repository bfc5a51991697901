// The RateLab desktop app: parses the command line and opens the main window.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTextStream>
#include <QTimer>

#include "huge_page_malloc.h"
#include "memory_reuse.h"
#include "window/file_controller.h"
#include "window/main_window.h"

int main(int argc, char* argv[]) {
    ratelab::app::restartWithHugePageMalloc(argv);  // large traces: fewer, larger pages
    ratelab::app::keepFreedMemoryForReuse();        // edits then reuse the columns they replace
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("RateLab"));
    QApplication::setOrganizationName(QStringLiteral("RateLab"));
    QApplication::setApplicationVersion(QStringLiteral(RATELAB_VERSION));
    QApplication::setApplicationDisplayName(QStringLiteral("RateLab"));
    QApplication::setDesktopFileName(QStringLiteral("ratelab"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Compare six rate-limiting algorithms side by side on one request trace."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QApplication::translate("main", "A trace file to open instead of the default scenario."),
        QStringLiteral("[FILE]"));
    const QCommandLineOption import_option(
        QStringLiteral("import"),
        QApplication::translate("main",
                                "Import a CSV file or an access log (with a preview of the "
                                "import) instead of opening a trace."),
        QStringLiteral("TRAFFIC"));
    parser.addOption(import_option);
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (files.size() > 1 || (!files.isEmpty() && parser.isSet(import_option))) {
        QTextStream(stderr) << QApplication::translate(
                                   "main", "ratelab: give at most one file, or --import alone")
                            << '\n';
        return 2;
    }

    ratelab::ui::MainWindow window;
    window.show();
    // Work a crash cut short comes first; a file named on the command line then asks before
    // replacing it.
    const bool recovered = window.offerRecovery();
    if (!files.isEmpty() && (!recovered || window.files()->maybeSave())) {
        // A file that cannot be opened is reported in the window, which stays on the default
        // scenario, so a bad path never leaves the user with nothing.
        window.openFile(QFileInfo(files.front()).absoluteFilePath());
    } else if (parser.isSet(import_option) && (!recovered || window.files()->maybeSave())) {
        // Shown once the window is up, as if chosen from File > Import Traffic.
        const QString traffic = QFileInfo(parser.value(import_option)).absoluteFilePath();
        QTimer::singleShot(0, &window, [&window, traffic] { window.files()->importFile(traffic); });
    }
    return QApplication::exec();
}
