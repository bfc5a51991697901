// Renders the main window in a few states to PNG files, for the README and for checking the
// layout by eye: ui_screenshots [--dark] OUT_DIR. Not a test; built with the tests, run by hand.
// --dark renders on the Fusion style with a dark palette, as on a dark desktop.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QPixmap>
#include <QStyleFactory>
#include <QTextStream>
#include <cmath>
#include <random>

#include "dark_palette.h"
#include "panels/comparison_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_view.h"
#include "window/guide_dialog.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

// Bursty traffic: a base rate with waves and occasional spikes, about 100k requests.
SessionDocument largeScenario() {
    std::mt19937 random(2024);
    TraceBuilder builder;
    const Tick ticks = 20'000;
    for (Tick t = 0; t < ticks; ++t) {
        const double wave = 4.5 + 3.0 * std::sin(static_cast<double>(t) / 900.0);
        const double spike = (t % 3'500) < 120 ? 9.0 : 0.0;
        std::poisson_distribution<int> arrivals(wave + spike);
        const int count = arrivals(random);
        for (int i = 0; i < count; ++i) {
            builder.add(t, (random() % 10) == 0 ? 3 : 1);
        }
    }
    SessionDocument document;
    document.name = "Waves and spikes";
    document.description =
        "About 100,000 requests over 20,000 ticks: a slow wave with a short spike every 3,500 "
        "ticks, one request in ten costing 3.";
    document.params.base.limit = 50;
    document.params.base.window = 10;
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    return document;
}

void save(QWidget& window, const QString& path) {
    QApplication::processEvents();
    window.grab().save(path);
    QTextStream(stdout) << "wrote " << path << '\n';
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RateLabScreenshots"));
    QApplication::setApplicationName(QStringLiteral("RateLab"));
    QStringList arguments = QApplication::arguments().mid(1);
    if (arguments.removeAll(QStringLiteral("--dark")) > 0) {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(test::darkPalette());
    }
    const QDir out(arguments.isEmpty() ? QDir::currentPath() : arguments.front());

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    save(window, out.filePath(QStringLiteral("default.png")));

    window.clock()->setNow(11);
    window.comparison()->selectRow(4);
    window.session()->setSelection({5});
    save(window, out.filePath(QStringLiteral("playing.png")));

    window.resize(1920, 1080);
    window.clock()->jumpToEnd();
    window.session()->setSelection({});
    window.comparison()->selectRow(0);
    save(window, out.filePath(QStringLiteral("default-1920.png")));

    window.actions().guide->trigger();
    if (auto* guide = window.findChild<GuideDialog*>()) {
        guide->showPage(QStringLiteral("token_bucket"));
        save(*guide, out.filePath(QStringLiteral("guide.png")));
        guide->close();
    }

    window.resize(1280, 800);
    QElapsedTimer timer;
    timer.start();
    window.session()->reset(largeScenario(), QString());
    const qint64 load_ms = timer.elapsed();
    timer.restart();
    window.timeline()->repaint();
    const qint64 paint_ms = timer.elapsed();
    QTextStream(stdout) << window.session()->trace().requests.size() << " requests: simulate "
                        << load_ms << " ms, first paint " << paint_ms << " ms\n";
    save(window, out.filePath(QStringLiteral("large.png")));
    return 0;
}
