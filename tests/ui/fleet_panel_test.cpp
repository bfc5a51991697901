// The Fleet tab as a user meets it: a bundled fleet trace opens with its modes, servers and
// outage; a run happens off the main thread and its decisions say why; each control change is
// one undo step kept in the file's "fleet" object; a bad value is refused with a message; and a
// trace without fleet settings stays without until a control changes.
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include "charts/fleet_charts.h"
#include "fleet/fleet_panel.h"
#include "fleet/fleet_view.h"
#include "ratelab/io/fleet_file.h"
#include "session/document_files.h"
#include "session/playback_clock.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

QString bundled(const char* name) {
    return QStringLiteral(RATELAB_SOURCE_DIR "/traces/") + QLatin1String(name);
}

bool open(Session& session, const QString& path) {
    return session.reset(loadDocument(path), path).isEmpty();
}

/// Runs the panel's fleet and waits for it to be on show.
bool runNow(FleetPanel& panel) {
    QSignalSpy shown(&panel, &FleetPanel::fleetShown);
    panel.runNow();
    return shown.wait(10000);
}

/// The file's top-level JSON object as written.
QJsonObject fileObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// The first point of the view right of the row names whose tooltip is not empty, scanning row
/// `y` left to right.
QString firstToolTipOnRow(const FleetView& view, int y) {
    for (int x = 140; x < view.width(); ++x) {
        for (int dy = -8; dy <= 8; ++dy) {
            const QString text = view.toolTipAt(QPoint(x, y + dy));
            if (!text.isEmpty())
                return text;
        }
    }
    return {};
}

}  // namespace

class FleetPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aBundledFleetTraceShowsItsModesAndServers() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.resize(1000, 420);
        panel.show();
        QCOMPARE(panel.serversBox()->value(), 4);
        QVERIFY(panel.modeButton(FleetMode::central)->isChecked());
        QVERIFY(panel.modeButton(FleetMode::periodic_sync)->isChecked());
        QVERIFY(!panel.modeButton(FleetMode::local_share)->isChecked());
        QVERIFY(panel.outageBox()->isChecked());
        QCOMPARE(panel.outageStartBox()->value(), 30);
        QCOMPARE(panel.outageEndBox()->value(), 60);
        QCOMPARE(panel.syncBox()->value(), 5);
        QVERIFY(runNow(panel));
        QVERIFY(!panel.isRunning());
        const FleetResult& result = *panel.view()->result();
        QCOMPARE(result.modes.size(), std::size_t{2});
        QCOMPARE(result.modes[0].mode, FleetMode::central);
        QCOMPARE(result.modes[1].mode, FleetMode::periodic_sync);
        QCOMPARE(result.lane.algorithm, std::string("token_bucket"));
        // As the scenario says: failing open, central takes every one of the outage's 60
        // requests, 138 in all, where one limiter takes 99.
        QCOMPARE(result.modes[0].totals.accepted, 138);
        QCOMPARE(result.ideal_accepted, std::int64_t{99});
        QCOMPARE(result.modes[0].load.size(), std::size_t{4});
        QVERIFY(!panel.view()->showsHeat());  // four strips, one per server
        // A decision in the first mode's row tells its mode, server and why.
        const QString tip = firstToolTipOnRow(*panel.view(), 20 + 15);
        QVERIFY2(tip.contains(QStringLiteral("central")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("request 0 at tick 0, server 0")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("asks the store, atomically")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("accepted")), qPrintable(tip));
        // The row's name tells the mode's figures against one limiter.
        const QString figures = panel.view()->toolTipAt(QPoint(20, 20 + 15));
        QVERIFY2(figures.contains(QStringLiteral("39 accepted that one limiter rejects")),
                 qPrintable(figures));
        QCOMPARE(session.undoStack()->count(), 0);  // showing changes nothing
    }

    void manyServersShareAHeatStrip() {
        Session session;
        QVERIFY(open(session, bundled("fleet-twenty-servers.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.resize(1000, 420);
        panel.show();
        QCOMPARE(panel.serversBox()->value(), 20);
        QVERIFY(runNow(panel));
        QCOMPARE(panel.view()->result()->modes.front().load.size(), std::size_t{20});
        QVERIFY(panel.view()->showsHeat());
    }

    void aControlChangeIsOneUndoStepSavedAndReloaded() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.show();
        panel.serversBox()->setValue(6);
        QCOMPARE(session.undoStack()->count(), 1);
        QCOMPARE(session.fleet()->settings.servers, 6);
        QVERIFY(session.isModified());
        session.undoStack()->undo();
        QCOMPARE(session.fleet()->settings.servers, 4);
        QCOMPARE(panel.serversBox()->value(), 4);  // the control follows the undo
        session.undoStack()->redo();
        QCOMPARE(panel.serversBox()->value(), 6);
        panel.modeButton(FleetMode::key_routed)->click();
        QCOMPARE(session.undoStack()->count(), 2);
        panel.policyBox()->setCurrentIndex(
            panel.policyBox()->findText(QStringLiteral("fail_closed")));
        Q_EMIT panel.policyBox()->activated(panel.policyBox()->currentIndex());
        QCOMPARE(session.undoStack()->count(), 3);
        panel.lostUpdatesBox()->click();
        QCOMPARE(session.undoStack()->count(), 4);
        QVERIFY(session.fleet()->settings.lost_updates);
        // Failing closed, central takes none of the outage's 60 requests (the scenario: 78).
        QVERIFY(runNow(panel));
        QCOMPARE(panel.view()->result()->settings.servers, 6);
        QCOMPARE(panel.view()->result()->modes[0].totals.accepted, 78);

        const QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fleet.ratelab.json"));
        saveDocument(session.document(), path);
        const std::optional<io::FleetFile> back = fleetOf(loadDocument(path));
        QVERIFY(back);
        QCOMPARE(back->settings.servers, 6);
        const std::vector<FleetMode> modes = {FleetMode::central, FleetMode::periodic_sync,
                                              FleetMode::key_routed};
        QVERIFY(back->settings.modes == modes);
        QCOMPARE(back->settings.outage->policy, OutagePolicy::fail_closed);
        QCOMPARE(back->settings.outage->start, Tick{30});
        QVERIFY(back->settings.lost_updates);
        QVERIFY(back->settings == session.fleet()->settings);
        QVERIFY(back->lane == session.fleet()->lane);
    }

    void aBadValueIsRefusedWithAMessage() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.show();
        const auto typeScale = [&panel](const QString& text) {
            panel.scaleEdit()->setText(text);
            panel.scaleEdit()->setModified(true);
            Q_EMIT panel.scaleEdit()->editingFinished();
        };
        typeScale(QStringLiteral("10:eight"));
        QVERIFY2(panel.status().contains(QStringLiteral("TICK:N")), qPrintable(panel.status()));
        QCOMPARE(panel.scaleEdit()->text(), QString());  // back to what the document holds
        typeScale(QStringLiteral("10:2000"));
        QVERIFY2(panel.status().contains(QStringLiteral("scale event 1: servers must be")),
                 qPrintable(panel.status()));
        typeScale(QStringLiteral("20:8, 10:2"));
        QVERIFY2(panel.status().contains(QStringLiteral("increasing")), qPrintable(panel.status()));
        // The outage's start may not reach its end.
        panel.outageStartBox()->setValue(60);
        QVERIFY2(panel.status().contains(QStringLiteral("0 <= A < B")), qPrintable(panel.status()));
        QCOMPARE(panel.outageStartBox()->value(), 30);
        // No mode at all is refused too.
        panel.modeButton(FleetMode::central)->click();
        panel.modeButton(FleetMode::periodic_sync)->click();
        QVERIFY2(panel.status().contains(QStringLiteral("at least one")),
                 qPrintable(panel.status()));
        QVERIFY(panel.modeButton(FleetMode::periodic_sync)->isChecked());
        QCOMPARE(session.undoStack()->count(), 1);  // only the first mode's click was kept
        // A good value after all that is taken.
        typeScale(QStringLiteral("20:8"));
        QCOMPARE(session.fleet()->settings.scale.size(), std::size_t{1});
        QCOMPARE(session.fleet()->settings.scale.front().servers, 8);
    }

    void aTraceWithoutFleetSettingsStaysWithoutUntilOneChanges() {
        Session session;  // the default scenario has no "fleet" object
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.show();
        QVERIFY(!session.fleet());
        QCOMPARE(panel.serversBox()->value(), FleetPanel::defaults().settings.servers);
        QVERIFY(runNow(panel));
        const QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plain.ratelab.json"));
        saveDocument(session.document(), path);
        QVERIFY(!fileObject(path).contains(QStringLiteral("fleet")));

        panel.syncBox()->setValue(3);
        QCOMPARE(session.undoStack()->count(), 1);
        saveDocument(session.document(), path);
        const QJsonObject fleet = fileObject(path).value(QStringLiteral("fleet")).toObject();
        QCOMPARE(fleet.value(QStringLiteral("sync_every")).toInt(), 3);
        QCOMPARE(fleet.value(QStringLiteral("servers")).toInt(), 4);
        QVERIFY(!fleet.contains(QStringLiteral("modes")));  // all five: left out
        QVERIFY(!fleet.contains(QStringLiteral("lane")));   // the first lane: left out
        QVERIFY(fleetOf(loadDocument(path)));               // the reader takes what was written

        session.undoStack()->undo();
        QVERIFY(!session.fleet());
        saveDocument(session.document(), path);
        QVERIFY(!fileObject(path).contains(QStringLiteral("fleet")));
    }

    void everyBundledFleetTraceRoundTrips() {
        for (const char* name :
             {"fleet-autoscaling.json", "fleet-hot-key.json", "fleet-store-down.json",
              "fleet-sync-interval.json", "fleet-twenty-servers.json"}) {
            const SessionDocument document = loadDocument(bundled(name));
            const std::optional<io::FleetFile> fleet = fleetOf(document);
            QVERIFY2(fleet, name);
            const QTemporaryDir dir;
            const QString path = dir.filePath(QLatin1String(name));
            saveDocument(document, path);
            // Untouched, the object is written back as it was read.
            QCOMPARE(fileObject(path).value(QStringLiteral("fleet")),
                     fileObject(bundled(name)).value(QStringLiteral("fleet")));
            // Rewritten from the settings, it reads back as the same settings.
            SessionDocument changed = document;
            changed.extras = extrasWithFleet(document, fleet);
            saveDocument(changed, path);
            const std::optional<io::FleetFile> back = fleetOf(loadDocument(path));
            QVERIFY2(back && back->settings == fleet->settings && back->lane == fleet->lane, name);
        }
    }

    void aClickOnAModeChoosesItAndAsksForItsLearnText() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.resize(1000, 420);
        panel.show();
        QVERIFY(runNow(panel));
        QSignalSpy learn(&panel, &FleetPanel::learnAbout);
        QTest::mouseClick(panel.view(), Qt::LeftButton, {}, QPoint(40, 20 + 30 + 15));
        QCOMPARE(panel.view()->chosenMode(), std::size_t{1});
        QCOMPARE(learn.count(), 1);
        QCOMPARE(learn.front().front().value<std::string>(), std::string("fleet_periodic_sync"));
    }

    void theDecisionsShowTheTicksTheTimelineShows() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));  // two requests a tick, 0-89
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.resize(1000, 420);
        panel.show();
        QVERIFY(runNow(panel));
        const int row = 20 + 15;  // the first mode's row
        QVERIFY(firstToolTipOnRow(*panel.view(), row).contains(QStringLiteral("at tick 0,")));
        // Zoomed to the timeline's cells [30, 40): the left-most decision is one of tick 30,
        // drawn in the middle of the view's left cell, and tick 0 is nowhere.
        panel.setVisibleRange(30, 40);
        QCOMPARE(panel.view()->firstShown(), 29.5);
        QCOMPARE(panel.view()->lastShown(), 39.5);
        const QString left = firstToolTipOnRow(*panel.view(), row);
        QVERIFY2(left.contains(QStringLiteral("at tick 30,")), qPrintable(left));
        // The right-most decision is one of tick 39; none of tick 40 or later shows.
        QString right;
        for (int x = panel.view()->width() - 1; x > 140 && right.isEmpty(); --x) {
            for (int dy = -8; dy <= 8 && right.isEmpty(); ++dy)
                right = panel.view()->toolTipAt(QPoint(x, row + dy));
        }
        QVERIFY2(right.contains(QStringLiteral("at tick 39,")), qPrintable(right));
        // A new run keeps the span; only the timeline moves it.
        QVERIFY(runNow(panel));
        QCOMPARE(panel.view()->firstShown(), 29.5);
    }

    void aSupersededRunIsToldToStop() {
        // Long enough that the first run is far from done when the second starts.
        TraceBuilder builder;
        for (Tick t = 0; t < 300'000; ++t)
            builder.add(t, 1);
        SessionDocument document;
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        Session session;
        QVERIFY(session.reset(std::move(document), QString()).isEmpty());
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.show();
        panel.runNow();
        QSignalSpy shown(&panel, &FleetPanel::fleetShown);
        panel.runNow();  // supersedes the first
        QCOMPARE(panel.runsUnderWay(), std::size_t{2});
        QVERIFY(shown.wait(60000));
        QTRY_COMPARE_WITH_TIMEOUT(panel.runsUnderWay(), std::size_t{0}, 60000);
        QCOMPARE(panel.cancelledRuns(), 1);  // stopped part way, not run to its end
        QCOMPARE(shown.count(), 1);          // and never shown
        QCOMPARE(panel.view()->result()->trace->requests.size(), std::size_t{300'000});
    }

    void theChartsAndTheDecisionsExportAsImages() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.resize(1000, 420);
        panel.show();
        const QTemporaryDir dir;
        const QString early = dir.filePath(QStringLiteral("early.png"));
        QVERIFY(!panel.exportTo(FleetExport::Charts, early).isEmpty());  // nothing run yet
        QVERIFY(!QFile::exists(early));
        QVERIFY(runNow(panel));
        QSignalSpy said(&panel, &FleetPanel::exported);

        const QString charts = dir.filePath(QStringLiteral("charts.png"));
        QCOMPARE(panel.exportTo(FleetExport::Charts, charts), QString());
        const QImage image(charts);
        QCOMPARE(image.size(), QSize(3200, 1000));  // 1600 x 500 at twice the pixels
        // Light whatever the app's palette, with the load chart's L line in it somewhere.
        QVERIFY(qGray(image.pixel(4, 4)) > 200);
        QCOMPARE(said.count(), 1);
        QVERIFY(said.front().front().toString().contains(charts));

        const QString svg = dir.filePath(QStringLiteral("charts.svg"));
        QCOMPARE(panel.exportTo(FleetExport::Charts, svg), QString());
        QFile drawn(svg);
        QVERIFY(drawn.open(QIODevice::ReadOnly));
        const QByteArray text = drawn.readAll();
        for (const char* title : {"Fleet-wide load", "periodic_sync: overshoot by interval",
                                  "Decided otherwise than one limiter"})
            QVERIFY2(text.contains(title), title);

        // The decisions as the view shows them: the first mode's row, a server's strip.
        panel.setVisibleRange(30, 40);
        const QString decisions = dir.filePath(QStringLiteral("decisions.png"));
        QCOMPARE(panel.exportTo(FleetExport::Decisions, decisions), QString());
        const QImage view(decisions);
        QCOMPARE(view.size(), panel.view()->size() * 2);
        // The accepted green of a mark shows somewhere right of the row names.
        bool green = false;
        for (int y = 0; y < view.height() && !green; ++y) {
            for (int x = 2 * 140; x < view.width() && !green; ++x) {
                const QColor c = view.pixelColor(x, y);
                green = c.green() > 120 && c.red() < 60 && c.blue() < 140 && c.green() > c.blue();
            }
        }
        QVERIFY(green);
        QVERIFY(
            !panel.exportTo(FleetExport::Charts, dir.filePath(QStringLiteral("x.bmp"))).isEmpty());
    }

    void theChartsShowTheWindowLoadAgainstLAndTheDecisionsThatDiffer() {
        Session session;
        QVERIFY(open(session, bundled("fleet-store-down.json")));
        PlaybackClock clock;
        FleetPanel panel(&session, &clock);
        panel.resize(1000, 420);
        panel.show();
        QVERIFY(runNow(panel));
        panel.showCharts(true);
        const FleetResult& result = *panel.view()->result();
        const ChartSpec& load = panel.charts()->loadSpec();
        QCOMPARE(load.lines.size(), qsizetype{2});
        QCOMPARE(load.lines[0].label, QStringLiteral("central"));
        QCOMPARE(load.over_limit_from, std::optional<double>(10.0));  // L, shaded above
        // Two requests a tick: one point a tick, the window load after both.
        const std::vector<std::int64_t> central = fleet_window_load(result, 0);
        QCOMPARE(load.lines[0].points.size(), qsizetype{90});
        for (qsizetype p = 0; p < load.lines[0].points.size(); ++p) {
            QCOMPARE(load.lines[0].points[p].x(), static_cast<double>(p));
            QCOMPARE(load.lines[0].points[p].y(),
                     static_cast<double>(central[static_cast<std::size_t>(2 * p + 1)]));
        }
        // Failing open, the whole outage passes: 20 in every window of 10 ticks inside it.
        QCOMPARE(load.lines[0].points[45].y(), 20.0);
        const ChartSpec& extra = panel.charts()->extraSpec();
        QVERIFY(extra.bars);
        QCOMPARE(extra.bars->categories,
                 QStringList({QStringLiteral("central +"), QStringLiteral("central −"),
                              QStringLiteral("sync +"), QStringLiteral("sync −")}));
        QCOMPARE(extra.bars->values,
                 QList<double>({39.0, 0.0, static_cast<double>(result.modes[1].extra_accepted),
                                static_cast<double>(result.modes[1].extra_rejected)}));
        // periodic_sync over a range of intervals: the document's S = 5 marked, where the
        // overshoot is the one its own run found.
        const ChartSpec& sync = panel.charts()->syncSpec();
        QCOMPARE(sync.lines.size(), qsizetype{2});
        QVERIFY(sync.lines[0].points.size() >= 8);
        QCOMPARE(sync.lines[0].points.front().x(), 1.0);
        QCOMPARE(sync.lines[1].points.size(), qsizetype{1});
        QCOMPARE(sync.lines[1].points[0].x(), 5.0);
        QCOMPARE(sync.lines[1].points[0].y(), result.modes[1].worst.overshoot().to_double());
    }
};

QTEST_MAIN(FleetPanelTest)
#include "fleet_panel_test.moc"
