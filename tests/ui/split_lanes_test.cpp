// "Split lanes by key": every lane gets a sub-row per key on show, which draws that key's
// decisions and its own worst span, judged against its own tier.
#include <QAction>
#include <QComboBox>
#include <QUndoStack>
#include <QtTest>

#include "charts/charts_panel.h"
#include "driving.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/decision_tooltip.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_text.h"
#include "window/app_actions.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

class SplitLanesTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    TimelineView* view() const { return window_->timeline(); }
    Session* session() const { return window_->session(); }
    QAction* splitAction() const { return window_->actions().split_by_key; }

    void open(const SessionDocument& document) {
        QVERIFY(session()->reset(document, QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        QVERIFY(view()->scene().detailed);
    }

    std::size_t laneOf(const std::string& algorithm) const {
        const auto& runs = view()->frame().result->runs;
        for (std::size_t lane = 0; lane < runs.size(); ++lane) {
            if (runs[lane].id == algorithm)
                return lane;
        }
        return runs.size();
    }

    /// The sub-row of key `key` in the scene.
    static int rowOf(const TimelineScene& scene, const std::string& key) {
        const KeyId id = *scene.trace().find_key(key);
        return (*scene.split_rows)[id];
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }

    void init() {
        window_ = shownWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanup() {
        window_->session()->undoStack()->setClean();
        window_.reset();
    }

    void everyLaneGetsARowPerKeyAndEachDecisionSitsInItsKeysRow() {
        open(bundledDocument("key-tiers"));
        QVERIFY(splitAction()->isEnabled());
        QVERIFY(!view()->isSplit());
        const double lanes_before = view()->scene().layout.lanes.front().height();
        splitAction()->trigger();
        QVERIFY(view()->isSplit());
        const TimelineScene scene = view()->scene();
        QCOMPARE(scene.splitCount(), std::size_t{3});
        // The lanes grow to give the keys room, within the same widget.
        QVERIFY(scene.layout.lanes.front().height() >= lanes_before);
        QVERIFY(scene.layout.bottom() <= view()->height() + 0.5);
        // The keys in the key table's order (the default key has no request), named in the
        // gutter beside their rows.
        const std::vector<SplitRowLabel> labels = splitRowLabels(scene, 0);
        QCOMPARE(labels.size(), std::size_t{3});
        QCOMPARE(labels[0].text, QStringLiteral("free"));
        QCOMPARE(labels[1].text, QStringLiteral("pro"));
        QCOMPARE(labels[2].text, QStringLiteral("guest"));
        for (std::size_t row = 0; row < labels.size(); ++row) {
            QVERIFY(labels[row].box.right() <= scene.layout.plot_left);
            QVERIFY(scene.subRow(0, row).contains(labels[row].box.center()));
            QVERIFY(labels[row].colour.isValid());
        }
        // The lane's name keeps the gutter's left, clear of the keys' names.
        const GutterLabel lane_name = laneLabel(scene, 0);
        QVERIFY(!lane_name.title.endsWith(QChar(0x2026)));
        for (const SplitRowLabel& key : labels)
            QVERIFY(!lane_name.title_box.intersects(key.box));
        // Each decision is drawn in its key's row, and two requests of one key on a tick stand
        // apart.
        const Trace& trace = scene.trace();
        for (std::size_t lane = 0; lane < scene.laneCount(); ++lane) {
            for (std::size_t i = 0; i < trace.requests.size(); ++i) {
                const int row = scene.splitRowOf(i);
                QVERIFY(row >= 0);
                const QRectF sub = scene.subRow(lane, static_cast<std::size_t>(row));
                QVERIFY(sub.contains(scene.lanePoint(lane, i)));
                QCOMPARE(scene.laneRow(lane, i), sub);
            }
        }
        QVERIFY(std::abs(scene.lanePoint(0, 0).y() - scene.lanePoint(0, 1).y()) >= scene.marker);
        // The trace row is not split: its piles stay as they were.
        QCOMPARE(scene.traceRow().marker, scene.trace_marker);
        QVERIFY(scene.trace_marker >= scene.marker);
        // Exports follow the choice.
        auto* charts = window_->findChild<ChartsPanel*>();
        QVERIFY(charts->splitByKey());
        // Turned off, the lanes are whole again.
        splitAction()->trigger();
        QVERIFY(!view()->isSplit());
        QVERIFY(!charts->splitByKey());
        QCOMPARE(view()->scene().splitCount(), std::size_t{0});
    }

    void eachRowIsJudgedAgainstItsKeysOwnLimit() {
        open(bundledDocument("key-tiers"));
        splitAction()->trigger();
        const TimelineScene scene = view()->scene();
        // The token bucket lets pro (L = 8) through 10 in 10 ticks, free (L = 2) only 2: pro's
        // row is marked over its limit, free's is not, each with its own figure.
        const std::size_t token = laneOf("token_bucket");
        const auto pro = worstSpanLabel(scene, token, rowOf(scene, "pro"));
        const auto free = worstSpanLabel(scene, token, rowOf(scene, "free"));
        QVERIFY(pro && free);
        QVERIFY(pro->over);
        QCOMPARE(pro->text, QStringLiteral("10 in 10 ticks > 8"));
        QVERIFY(!free->over);
        QCOMPARE(free->text, QStringLiteral("2 in 10 ticks"));
        const QRectF pro_row = scene.subRow(token, static_cast<std::size_t>(rowOf(scene, "pro")));
        QVERIFY(pro_row.contains(QPointF(pro->left + 2.0, pro->y)));
        // The sliding log keeps every key within its own tier: no row over.
        const std::size_t log = laneOf("sliding_log");
        for (std::size_t row = 0; row < scene.splitCount(); ++row) {
            const auto span = worstSpanLabel(scene, log, static_cast<int>(row));
            QVERIFY(span);
            QVERIFY2(!span->over, qPrintable(span->text));
        }
    }

    void aClickInARowFindsThatKeysDecision() {
        open(bundledDocument("key-tiers"));
        splitAction()->trigger();
        const TimelineScene scene = view()->scene();
        const Trace& trace = scene.trace();
        const std::size_t lane = laneOf("fixed_window");
        for (const std::string key : {"free", "pro", "guest"}) {
            const KeyId id = *trace.find_key(key);
            for (std::size_t i = 0; i < trace.requests.size(); ++i) {
                if (trace.requests[i].key != id)
                    continue;
                const TimelineHit hit = hitTest(scene, scene.lanePoint(lane, i));
                QCOMPARE(hit.kind, TimelineHit::Kind::kLaneDecision);
                QCOMPARE(hit.lane, static_cast<int>(lane));
                QCOMPARE(hit.index, i);
            }
        }
    }

    void pilesAreCountedPerKey() {
        // Six requests of a and six of b on one tick: each row has its own pile of six.
        TraceBuilder builder;
        for (int i = 0; i < 6; ++i) {
            builder.add(3, 1, "a");
            builder.add(3, 1, "b");
        }
        SessionDocument document = SessionDocument::empty();
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        open(document);
        splitAction()->trigger();
        const TimelineScene scene = view()->scene();
        QCOMPARE(scene.splitCount(), std::size_t{2});
        const std::size_t lane = laneOf("sliding_log");
        const PileTally whole = tallyPile(scene, lane, 0, 12);
        QCOMPARE(whole.accepted + whole.rejected, std::size_t{12});
        for (const int row : {0, 1}) {
            // L = 4 by default: four of each key's six are let through.
            const PileTally tally = tallyPile(scene, lane, 0, 12, row);
            QCOMPARE(tally.accepted, std::size_t{4});
            QCOMPARE(tally.rejected, std::size_t{2});
            for (const PileCount& figure : pileCounts(scene, lane, 0, 12, row))
                QVERIFY(scene.subRow(lane, static_cast<std::size_t>(row)).contains(figure.box));
            // Pointed at, the pile says whose it is and counts only that key.
            const QPointF at(scene.centreX(3),
                             scene.subRow(lane, static_cast<std::size_t>(row)).center().y());
            const TimelineHit hit = hitTest(scene, at);
            QCOMPARE(hit.key,
                     std::optional<KeyId>((*scene.split_keys)[static_cast<std::size_t>(row)]));
            const QString tooltip = tallyTooltip(view()->frame(), hit.lane, 0, 12, hit.key);
            QVERIFY2(tooltip.contains(QStringLiteral("6 requests")), qPrintable(tooltip));
            QVERIFY2(tooltip.contains(QStringLiteral("4 accepted · 2 rejected")),
                     qPrintable(tooltip));
            QVERIFY2(tooltip.contains(row == 0 ? QStringLiteral("key a") : QStringLiteral("key b")),
                     qPrintable(tooltip));
        }
    }

    void zoomedOutColumnsCountTheirKeysOnly() {
        // 10,000 ticks, one request of a and two of b on each: zoomed out to fit.
        TraceBuilder builder;
        for (Tick tick = 0; tick < 10'000; ++tick) {
            builder.add(tick, 1, "a");
            builder.add(tick, 1, "b");
            builder.add(tick, 1, "b");
        }
        SessionDocument document = SessionDocument::empty();
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        QVERIFY(session()->reset(document, QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        QVERIFY(!view()->scene().detailed);
        const auto counted = [](const std::vector<LaneTally>& columns) {
            std::size_t n = 0;
            for (const LaneTally& tally : columns)
                n += tally.accepted + tally.rejected + tally.pending;
            return n;
        };
        const auto lane_tallies = [&] { return laneColumnTallies(view()->scene(), 0); };
        QCOMPARE(lane_tallies().size(), std::size_t{1});
        QCOMPARE(counted(lane_tallies()[0]), std::size_t{30'000});
        // Split: a row each, a's columns holding a's requests and b's b's.
        splitAction()->trigger();
        view()->fitToTrace();  // the gutter grew by the keys' names
        QCOMPARE(lane_tallies().size(), std::size_t{2});
        QCOMPARE(counted(lane_tallies()[0]), std::size_t{10'000});
        QCOMPARE(counted(lane_tallies()[1]), std::size_t{20'000});
        // Not split, with b alone on show: the lane counts b's requests only.
        splitAction()->trigger();
        view()->fitToTrace();
        auto* charts = window_->findChild<ChartsPanel*>();
        QComboBox* chooser = charts->keyChooser();
        const int b = chooser->findText(QStringLiteral("b"));
        QVERIFY(b > 0);
        chooser->setCurrentIndex(b);
        Q_EMIT chooser->activated(b);
        QCOMPARE(lane_tallies().size(), std::size_t{1});
        QCOMPARE(counted(lane_tallies()[0]), std::size_t{20'000});
        // L = 4 in 10 ticks: b's 20 requests a window are mostly refused.
        std::size_t accepted = 0;
        const std::vector<std::vector<LaneTally>> only_b = lane_tallies();
        for (const LaneTally& tally : only_b[0])
            accepted += tally.accepted;
        QVERIFY(accepted < 5'000);
    }

    void oneKeyOnShowHasNothingToSplit() {
        open(bundledDocument("key-tiers"));
        splitAction()->trigger();
        QVERIFY(view()->isSplit());
        auto* charts = window_->findChild<ChartsPanel*>();
        QComboBox* chooser = charts->keyChooser();
        const int pro = chooser->findText(QStringLiteral("pro"));
        QVERIFY(pro > 0);
        chooser->setCurrentIndex(pro);
        Q_EMIT chooser->activated(pro);
        // The choice is kept for when there is something to split again.
        QVERIFY(!splitAction()->isEnabled());
        QVERIFY(view()->splitByKey());
        QVERIFY(!view()->isSplit());
        QCOMPARE(view()->scene().splitCount(), std::size_t{0});
        // A trace of one key has no key colours either.
        open(bundledDocument("boundary-burst"));
        QVERIFY(!splitAction()->isEnabled());
        QVERIFY(!view()->isSplit());
    }
};

QTEST_MAIN(SplitLanesTest)
#include "split_lanes_test.moc"
