// The desktop app at scale, scripted on the offscreen platform with the real main window: time to
// the first paint of a 1M-request trace, edit-to-repaint on a 100k trace, and frame times for
// clock steps, pans, zooms and edits on a 10M trace (of one key, and of 100,000), and the Charts
// tab raised on it. Each frame is timed until the app has repainted what it marked dirty, as a user
// waits for it; for comparison, each frame then also times a repaint of the whole window. Not a
// test: it prints figures.
//   ./build-release/tests/benchmarks/bench_gui [scale] [part]
// scale 0.1 = a tenth of each trace; part = open, edits, navigation, huge-edits, charts or
// keyed-edits runs only that part (for a profiler); keyed-drags runs 60 rounds of the add, move
// and delete of keyed-edits and nothing else, for a p95 of 60 edits of each kind.
#include <sys/resource.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "charts/charts_panel.h"
#include "huge_page_malloc.h"
#include "memory_reuse.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/registry.h"
#include "session/frame_model.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

double cpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

double currentRssMb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    }
    return 0.0;
}

/// Bursty traffic like a day of real requests: a wave, a spike now and then, one request in ten
/// costing 3; `count` requests at about `per_tick` a tick. With `keys` above one, each request
/// comes from one of that many clients, a few of them far busier than the rest (as the addresses
/// in a day's access log are).
io::TraceDocument wavesTrace(std::size_t count, double per_tick, std::uint64_t seed,
                             std::size_t keys = 1) {
    io::TraceDocument doc;
    doc.name = "GUI benchmark";
    doc.params.base.limit = 50;
    doc.params.base.window = 10;
    std::mt19937_64 random(seed);
    // Key 0 is always the default key "", which the clients leave unused.
    doc.trace.keys = {""};
    if (keys > 1) {
        for (std::size_t k = 0; k < keys; ++k)
            doc.trace.keys.push_back("client-" + std::to_string(k));
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto key = [&]() -> KeyId {
        if (keys <= 1)
            return 0;
        const double u = unit(random);
        return static_cast<KeyId>(
            1 + std::min(keys - 1, static_cast<std::size_t>(u * u * static_cast<double>(keys))));
    };
    doc.trace.requests.reserve(count);
    const double period = static_cast<double>(count) / per_tick / 20.0;
    for (Tick t = 0; doc.trace.requests.size() < count; ++t) {
        const double wave = per_tick * (1.0 + 0.6 * std::sin(static_cast<double>(t) / period));
        const double spike = (t % 3'500) < 120 ? 2.0 * per_tick : 0.0;
        std::poisson_distribution<int> arrivals(wave + spike);
        for (int i = arrivals(random); i > 0 && doc.trace.requests.size() < count; --i)
            doc.trace.requests.push_back(Request{t, random() % 10 == 0 ? 3u : 1u, key()});
    }
    if (const std::vector<std::string> errors = validate(doc.trace); !errors.empty()) {
        std::fprintf(stderr, "the generated trace is not valid: %s\n", errors.front().c_str());
        std::exit(2);
    }
    return doc;
}

QString writeTrace(const io::TraceDocument& doc, const std::string& name) {
    const auto file = std::filesystem::temp_directory_path() / name;
    io::save_trace(doc, file);
    return QString::fromStdString(file.string());
}

/// Per frame: `step`, then the window's pending update request, which repaints every widget the
/// step marked dirty (what the user sees first); then the events the views deferred to the event
/// loop, the figures a thread counts for the frame, and the repaints they ask for (settled), with
/// the longest stretch in all that in which the window did not answer (held). Separately, a
/// repaint of the whole window, as after an expose or a resize, for comparison.
struct Timings {
    std::vector<double> step_ms;
    std::vector<double> first_ms;
    std::vector<double> settled_ms;
    std::vector<double> held_ms;  ///< the longest stretch the window did not answer
    std::vector<double> settled_cpu_ms;
    std::vector<double> whole_window_ms;
};

double msSince(const QElapsedTimer& timer) {
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

/// Runs the event loop until it is quiet: deferred work may post more work and more updates, and
/// figures counted on a thread come when it is done, the window answering meanwhile. Returns the
/// longest stretch in which it did not answer.
double settle(const MainWindow& window) {
    QElapsedTimer timer;
    double held = 0;
    for (int quiet = 0; quiet < 3;) {
        timer.start();
        QApplication::processEvents();
        held = std::max(held, msSince(timer));
        if (window.frames()->counting()) {
            quiet = 0;
            QThread::usleep(200);
        } else {
            ++quiet;
        }
    }
    return held;
}

void timeFrame(MainWindow& window, Timings& out, const std::function<void()>& step) {
    QElapsedTimer timer;
    const double cpu = cpuSeconds();
    timer.start();
    step();
    out.step_ms.push_back(msSince(timer));
    QApplication::sendPostedEvents(&window, QEvent::UpdateRequest);
    out.first_ms.push_back(msSince(timer));
    out.held_ms.push_back(std::max(out.first_ms.back(), settle(window)));
    out.settled_ms.push_back(msSince(timer));
    out.settled_cpu_ms.push_back((cpuSeconds() - cpu) * 1e3);
    timer.restart();
    window.repaint();
    out.whole_window_ms.push_back(msSince(timer));
}

void printStats(const char* what, std::vector<double> ms) {
    if (ms.empty())
        return;
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(ms.size()))) - 1;
        return ms[std::min(i, ms.size() - 1)];
    };
    std::printf("  %-30s n=%3zu  median %7.2f ms  p95 %7.2f ms  worst %7.2f ms\n", what, ms.size(),
                at(0.5), at(0.95), ms.back());
}

void printTimings(const std::string& what, const Timings& t) {
    std::printf("%s\n", what.c_str());
    printStats("step alone, no paint (wall)", t.step_ms);
    printStats("first repaint (wall)", t.first_ms);
    printStats("settled (wall)", t.settled_ms);
    printStats("held the window, longest stretch (wall)", t.held_ms);
    printStats("settled (CPU, all threads)", t.settled_cpu_ms);
    printStats("(whole window repainted)", t.whole_window_ms);
}

std::string requestsText(std::size_t count) {
    return count % 1'000'000 == 0 ? std::to_string(count / 1'000'000) + "M"
           : count % 1'000 == 0   ? std::to_string(count / 1'000) + "k"
                                  : std::to_string(count);
}

bool openTimed(MainWindow& window, const QString& path, std::size_t count) {
    QElapsedTimer timer;
    const double cpu = cpuSeconds();
    timer.start();
    if (!window.openFile(path)) {
        std::fprintf(stderr, "could not open %s\n", qPrintable(path));
        return false;
    }
    const double opened = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    QApplication::processEvents();
    window.repaint();
    std::printf(
        "open %zu requests: loaded + simulated %.0f ms, first paint after %.0f ms wall "
        "(%.0f ms CPU)\n",
        count, opened, static_cast<double>(timer.nsecsElapsed()) / 1e6, (cpuSeconds() - cpu) * 1e3);
    // Over many keys the figures up to the clock (at the end) may follow from a thread.
    const double held = settle(window);
    window.repaint();
    std::printf(
        "  figures up to the clock shown after %.0f ms wall (window held at most %.0f ms "
        "meanwhile)\n",
        static_cast<double>(timer.nsecsElapsed()) / 1e6, held);
    return true;
}

/// Raises the Charts tab on the loaded trace, then adds requests with it on show, timed as a user
/// sees them: how long the window is held (until it has painted what is coming) and how long
/// until the charts are drawn.
void chartsTimed(MainWindow& window) {
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("chartsDock"));
    auto* charts = window.findChild<ChartsPanel*>();
    if (dock == nullptr || charts == nullptr) {
        std::fprintf(stderr, "no Charts tab\n");
        return;
    }
    Session* session = window.session();
    const std::string requests = requestsText(session->trace().requests.size());
    const auto timed = [&](const char* what, const std::function<void()>& step) {
        QElapsedTimer timer;
        const double cpu = cpuSeconds();
        timer.start();
        step();
        QApplication::processEvents();
        window.repaint();
        const double held = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        // Drawing the charts once their series come holds the window too: the longest pass
        // of the event loop meanwhile, with the paint that follows it. Flushed before the next
        // step, as a user's idle moment would, so that it is not counted in that step.
        double drawing = 0.0;
        const auto pass = [&](bool last) {
            QElapsedTimer one;
            one.start();
            QApplication::processEvents();
            if (last) {
                window.repaint();
                QApplication::processEvents();
            }
            drawing = std::max(drawing, static_cast<double>(one.nsecsElapsed()) / 1e6);
        };
        while (charts->computingSeries()) {
            QThread::msleep(2);
            pass(!charts->computingSeries());
        }
        pass(true);
        std::printf(
            "%s on the %s trace: window held %.0f ms, charts drawn after %.0f ms wall (%.0f ms "
            "CPU), drawing them held the window %.0f ms, %.0f MB resident\n",
            what, requests.c_str(), held, static_cast<double>(timer.nsecsElapsed()) / 1e6,
            (cpuSeconds() - cpu) * 1e3, drawing, currentRssMb());
    };
    const Tick end = session->trace().requests.back().tick;
    for (int round = 1; round <= 3; ++round)
        timed("add a request, Charts tab hidden,", [&] { session->addRequest(end / 5 * round); });
    timed("Charts tab raised", [&] { dock->raise(); });
    for (int round = 1; round <= 3; ++round)
        timed("add a request, Charts tab on show,", [&] { session->addRequest(end / 4 * round); });
}

/// Adds, moves and deletes requests at random places and changes L back and forth: one
/// timed frame each, as a user editing a long trace makes them.
void scriptedEdits(MainWindow& window, int rounds, bool change_limit = true) {
    Session* session = window.session();
    std::mt19937 random(11);
    Timings all;
    Timings adds;
    Timings moves;
    Timings removals;
    Timings limits;
    const auto timed = [&](Timings& kind, const std::function<void()>& step) {
        timeFrame(window, kind, step);
        all.step_ms.push_back(kind.step_ms.back());
        all.first_ms.push_back(kind.first_ms.back());
        all.settled_ms.push_back(kind.settled_ms.back());
        all.held_ms.push_back(kind.held_ms.back());
        all.settled_cpu_ms.push_back(kind.settled_cpu_ms.back());
        all.whole_window_ms.push_back(kind.whole_window_ms.back());
    };
    const Tick end = session->trace().requests.back().tick;
    for (int round = 0; round < rounds; ++round) {
        const auto tick = static_cast<Tick>(random() % static_cast<unsigned>(end));
        timed(adds, [&] { session->addRequest(tick); });
        const auto some = [&] { return random() % session->trace().requests.size(); };
        const std::size_t moved = some();
        timed(moves, [&] { session->moveRequests({moved}, 3, session->newGesture()); });
        const std::size_t removed = some();
        timed(removals, [&] { session->removeRequests({removed}); });
        if (!change_limit)
            continue;
        Params params = session->params();
        params.base.limit += round % 2 == 0 ? 1 : -1;
        timed(limits, [&] { session->setParams(params, QStringLiteral("L"), 0); });
    }
    printTimings(
        "edits on the " + requestsText(session->trace().requests.size()) +
            (change_limit ? " trace (add, move, delete, change L)" : " trace (add, move, delete)"),
        all);
    std::printf("  by kind of edit: step alone, then settled (wall)\n");
    for (const auto& [name, kind] : {std::pair<const char*, const Timings*>{"add", &adds},
                                     {"move", &moves},
                                     {"delete", &removals},
                                     {"change L", &limits}}) {
        if (kind->step_ms.empty())
            continue;
        printStats((std::string("  ") + name + ", step").c_str(), kind->step_ms);
        printStats((std::string("  ") + name + ", settled").c_str(), kind->settled_ms);
    }
}

/// What a change of L asks of each algorithm: a run over the whole trace on one core, with every
/// decision kept (as the app keeps them) and without. Best of five runs each.
void timeWholeRuns(const Session& session) {
    std::printf("  each algorithm over the whole trace, one core (best of 5): kept / summary\n");
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        const auto algorithm = info->make();
        const auto best_ms = [&](bool keep) {
            RunOptions options;
            options.keep_decisions = keep;
            double best = 1e300;
            for (int repeat = 0; repeat < 5; ++repeat) {
                QElapsedTimer timer;
                timer.start();
                const AlgorithmRun run = algorithm->run(session.trace(), session.params(), options);
                best = std::min(best, static_cast<double>(timer.nsecsElapsed()) / 1e6);
            }
            return best;
        };
        const double kept = best_ms(true);
        std::printf("    %-16s %6.2f ms / %6.2f ms\n", info->id.c_str(), kept, best_ms(false));
    }
}

/// Steps the clock at places across the trace, pans and zooms the timeline.
void scriptedNavigation(MainWindow& window, int rounds) {
    PlaybackClock* clock = window.clock();
    TimelineView* timeline = window.timeline();
    const Tick end = clock->end();
    Timings steps;
    Timings pans;
    Timings zooms;
    for (int round = 0; round < rounds; ++round) {
        const Tick at = end / rounds * round + 7;
        timeFrame(window, steps, [&] { clock->setNow(at); });
        timeFrame(window, steps, [&] { clock->stepForward(); });
        timeFrame(window, steps, [&] { clock->stepBack(); });
    }
    clock->jumpToEnd();
    settle(window);
    for (int round = 0; round < rounds; ++round) {
        timeFrame(window, zooms, [&] { timeline->zoomIn(); });
    }
    for (int round = 0; round < rounds; ++round) {
        timeFrame(window, pans, [&] {
            if (round % 8 < 4)
                timeline->panRight();
            else
                timeline->panLeft();
        });
    }
    for (int round = 0; round < rounds; ++round) {
        timeFrame(window, zooms, [&] { timeline->zoomOut(); });
    }
    const std::string trace = requestsText(window.session()->trace().requests.size());
    printTimings("clock steps on the " + trace + " trace (set, step forward, step back)", steps);
    printTimings("pans on the " + trace + " trace", pans);
    printTimings("zooms on the " + trace + " trace (in, then out)", zooms);
}

}  // namespace

int main(int argc, char* argv[]) {
    ratelab::app::restartWithHugePageMalloc(argv);  // as the app does
    ratelab::app::keepFreedMemoryForReuse();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const double scale = argc > 1 ? std::strtod(argv[1], nullptr) : 1.0;
    const std::string part = argc > 2 ? argv[2] : "";
    const auto runs = [&part](const char* name) { return part.empty() || part == name; };
    const auto scaled = [scale](double n) { return static_cast<std::size_t>(n * scale); };
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // figures appear as they are measured
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RateLabBenchmark"));
    QApplication::setApplicationName(QStringLiteral("RateLab"));

    const std::size_t million = scaled(1e6);
    const std::size_t hundred_k = scaled(1e5);
    const std::size_t ten_million = scaled(1e7);
    const auto traceFile = [&](const char* name, std::size_t count, std::uint64_t seed) {
        return runs(name) ? writeTrace(wavesTrace(count, 5.0, seed),
                                       "ratelab-gui-bench-" + requestsText(count) + ".json")
                          : QString();
    };
    const QString one_m_file = traceFile("open", million, 1);
    const QString small_file = traceFile("edits", hundred_k, 2);
    const bool huge = runs("navigation") || runs("huge-edits") || runs("charts");
    const QString huge_file =
        huge ? writeTrace(wavesTrace(ten_million, 5.0, 3),
                          "ratelab-gui-bench-" + requestsText(ten_million) + ".json")
             : QString();

    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    window.repaint();

    bool ok = !runs("open") || openTimed(window, one_m_file, million);
    if (ok && runs("edits")) {
        ok = openTimed(window, small_file, hundred_k);
        if (ok) {
            scriptedEdits(window, 15);
            timeWholeRuns(*window.session());
        }
    }
    if (ok && huge) {
        ok = openTimed(window, huge_file, ten_million);
        if (ok) {
            std::printf("memory with %zu requests loaded: %.0f MB resident\n", ten_million,
                        currentRssMb());
            if (runs("navigation"))
                scriptedNavigation(window, 12);
            if (runs("huge-edits")) {
                scriptedEdits(window, 8);
                std::printf("memory after the edits, undo keeping each run: %.0f MB resident\n",
                            currentRssMb());
            }
            if (runs("charts"))
                chartsTimed(window);
        }
    }
    // A day of traffic from many clients: the same edits on a 10M trace over 100,000 keys.
    const bool drags = part == "keyed-drags";
    const QString keyed_file =
        ok && (runs("keyed-edits") || drags)
            ? writeTrace(wavesTrace(ten_million, 5.0, 4, scaled(1e5)),
                         "ratelab-gui-bench-" + requestsText(ten_million) + "-keyed.json")
            : QString();
    if (!keyed_file.isEmpty()) {
        ok = openTimed(window, keyed_file, ten_million);
        if (ok) {
            std::printf("memory with %zu requests over %zu keys loaded: %.0f MB resident\n",
                        ten_million, scaled(1e5), currentRssMb());
            // The comparison table shows one key's state at the clock: every step replays it.
            if (drags) {
                scriptedEdits(window, 60, false);
            } else {
                scriptedNavigation(window, 12);
                scriptedEdits(window, 8);
            }
        }
    }
    std::printf("peak memory: %.0f MB resident\n", peakRssMb());
    for (const QString& file : {one_m_file, small_file, huge_file, keyed_file}) {
        if (!file.isEmpty())
            std::filesystem::remove(file.toStdString());
    }
    return ok ? 0 : 1;
}
