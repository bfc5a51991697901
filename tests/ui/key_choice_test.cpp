// The keys chosen above the charts, or selected on the Keys tab, are what the whole window
// shows: the charts count them, the timeline draws the other keys' requests faint, and another
// trace starts again from every key.
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

#include "charts/charts_panel.h"
#include "driving.h"
#include "panels/keys_model.h"
#include "panels/keys_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "session/trace_edits.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_panel.h"
#include "timeline/timeline_text.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

namespace {

/// The first request of key `key`.
std::size_t firstOf(const Trace& trace, const std::string& key) {
    const KeyId id = *trace.find_key(key);
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (trace.requests[i].key == id)
            return i;
    }
    return trace.requests.size();
}

/// How dark the timeline's pixels are around `at`, summed: a faint mark is lighter.
int darkness(const QImage& image, QPoint at) {
    int dark = 0;
    for (int dx = -2; dx <= 2; ++dx) {
        for (int dy = -2; dy <= 2; ++dy)
            dark += 255 - qGray(image.pixel(at + QPoint(dx, dy)));
    }
    return dark;
}

}  // namespace

class KeyChoiceTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    TimelineView* view() const { return window_->timeline(); }
    Session* session() const { return window_->session(); }
    ChartsPanel* charts() const { return window_->findChild<ChartsPanel*>(); }

    void openKeyTiers() {
        QVERIFY(session()->reset(bundledDocument("key-tiers"), QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        QVERIFY(view()->scene().detailed);
    }

    /// Chooses `key` above the charts, as a click in the list does.
    void choose(const QString& key) {
        QComboBox* chooser = charts()->keyChooser();
        QVERIFY(!chooser->isHidden());
        const int index = chooser->findText(key);
        QVERIFY(index > 0);
        chooser->setCurrentIndex(index);
        Q_EMIT chooser->activated(index);
        QCOMPARE(charts()->shownKeys(), QStringList{key});
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

    void oneKeyChosenForTheChartsLeavesTheOthersFaintOnTheTimeline() {
        // Three keys on ticks of their own, one request each: marks, not piles.
        TraceBuilder builder;
        for (Tick tick = 0; tick < 9; ++tick)
            builder.add(tick, 1, std::string(1, static_cast<char>('a' + tick % 3)));
        SessionDocument document = SessionDocument::empty();
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        QVERIFY(session()->reset(document, QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        QVERIFY(view()->scene().detailed);
        QVERIFY(!view()->scene().isFaint(0));
        const QImage before = view()->grab().toImage();

        choose(QStringLiteral("b"));
        QVERIFY(view()->scene().isFaint(0));   // a
        QVERIFY(!view()->scene().isFaint(1));  // b
        // The other keys' marks fade in the trace row and in every lane; b's decisions stay as
        // they were (its box in the trace row loses its key colour, one key being on show).
        const QImage after = view()->grab().toImage();
        for (const int lane : {-1, 0, 3}) {
            const QPoint at_a = requestPoint(*view(), 0, lane);
            const QPoint at_b = requestPoint(*view(), 1, lane);
            QVERIFY2(darkness(after, at_a) < darkness(before, at_a) / 2,
                     qPrintable(QStringLiteral("row %1").arg(lane)));
            QVERIFY2(darkness(after, at_b) > 2 * darkness(after, at_a),
                     qPrintable(QStringLiteral("row %1").arg(lane)));
            if (lane >= 0)
                QVERIFY2(darkness(after, at_b) == darkness(before, at_b),
                         qPrintable(QStringLiteral("row %1").arg(lane)));
        }
        QCOMPARE(window_->comparison()->comparisonModel()->shownKey(),
                 *session()->trace().find_key("b"));
        // An edit keeps the choice.
        session()->addRequest(20);
        QCOMPARE(charts()->shownKeys(), QStringList{QStringLiteral("b")});
        QVERIFY(view()->scene().isFaint(0));
    }

    void aFewKeysHaveAColourEachInTheTraceRow() {
        openKeyTiers();
        const Trace& trace = session()->trace();
        auto* legend = window_->findChild<TimelineLegend*>();
        // Three keys (the default key has no request): a colour each, in the key table's order.
        const auto colours = view()->keyColours();
        QCOMPARE(colours.size(), 3);
        QCOMPARE(colours[0].first, QStringLiteral("free"));
        QCOMPARE(colours[1].first, QStringLiteral("pro"));
        QCOMPARE(colours[2].first, QStringLiteral("guest"));
        QVERIFY(colours[0].second != colours[1].second && colours[1].second != colours[2].second);
        QCOMPARE(view()->scene().requestColour(firstOf(trace, "pro")), colours[1].second);
        QVERIFY(legend->texts().contains(QStringLiteral("key guest")));
        // Every tick holds six requests, a pile: its strip shares it out, two for each key.
        const auto shares = pileKeyShares(view()->scene(), 0, 6);
        QCOMPARE(shares.size(), std::size_t{3});
        for (std::size_t k = 0; k < 3; ++k) {
            QCOMPARE(shares[k].first, colours[static_cast<qsizetype>(k)].second);
            QCOMPARE(shares[k].second, std::size_t{2});
        }
        // One key chosen needs no colour; two chosen get theirs.
        choose(QStringLiteral("pro"));
        QVERIFY(view()->keyColours().isEmpty());
        QVERIFY(!legend->texts().contains(QStringLiteral("key pro")));
        QCOMPARE(view()->scene().requestColour(firstOf(trace, "pro")), timeline_palette::kRequest);
        charts()->setShownKeys({QStringLiteral("guest"), QStringLiteral("free")});
        QCOMPARE(view()->keyColours().size(), 2);
        QCOMPARE(view()->keyColours()[0].first, QStringLiteral("free"));
        QVERIFY(legend->texts().contains(QStringLiteral("key free")));
        // The pile's strip leaves pro out: its requests are faint.
        const auto chosen = pileKeyShares(view()->scene(), 0, 6);
        QCOMPARE(chosen.size(), std::size_t{2});
        QCOMPARE(chosen[0].first, view()->keyColours()[0].second);
        // A trace of one key has none.
        QVERIFY(session()->reset(bundledDocument("boundary-burst"), QString()).isEmpty());
        QVERIFY(view()->keyColours().isEmpty());
        QVERIFY(!legend->texts().join(QLatin1Char(' ')).contains(QStringLiteral("key ")));
    }

    void everyLaneFitsWhenTheTimelineIsSqueezed() {
        // A window shorter than every dock and the legend's rows ask for leaves the timeline
        // less than its minimum (seen at 1280 x 800 with the keys' legend on a second row and
        // the charts raised): the lanes shrink rather than run off the bottom.
        const double height = TimelineLayout::minimumHeight(6) - 40.0;
        const TimelineLayout squeezed = TimelineLayout::compute(QSizeF(900, height), 6, 120);
        QCOMPARE(squeezed.lanes.size(), std::size_t{6});
        QVERIFY(squeezed.lanes.back().bottom() <= height);
        QVERIFY(squeezed.lanes.back().height() >= TimelineLayout::kSqueezedLaneHeight);
        // With room, a lane keeps at least its usual minimum.
        const TimelineLayout roomy =
            TimelineLayout::compute(QSizeF(900, TimelineLayout::minimumHeight(6)), 6, 120);
        QVERIFY(roomy.lanes.back().height() >= TimelineLayout::kMinLaneHeight);
    }

    void aPileCountsTheKeysChosen() {
        openKeyTiers();
        const Trace& trace = session()->trace();
        const std::size_t lane = 1;  // the sliding log: free 2, pro 8 and guest 4 pass
        QCOMPARE(view()->scene().frame->result->runs[lane].id, std::string("sliding_log"));
        const TickRange first_tick = requestsOnTick(trace, 0);
        const TickRange last_tick = requestsOnTick(trace, 4);
        QCOMPARE(first_tick.last - first_tick.first, std::size_t{6});  // a pile
        PileTally all = tallyPile(view()->scene(), lane, first_tick.first, 6);
        QCOMPARE(all.accepted, std::size_t{6});
        choose(QStringLiteral("pro"));
        const TimelineScene scene = view()->scene();
        PileTally pro = tallyPile(scene, lane, first_tick.first, 6);
        QCOMPARE(pro.accepted, std::size_t{2});
        QCOMPARE(pro.rejected, std::size_t{0});
        QVERIFY(!pro.faint);
        // Pro's tenth request is over its 8: both of tick 4 are refused.
        pro = tallyPile(scene, lane, last_tick.first, 6);
        QCOMPARE(pro.accepted, std::size_t{0});
        QCOMPARE(pro.rejected, std::size_t{2});
        const std::vector<PileCount> figures = pileCounts(scene, lane, last_tick.first, 6);
        QVERIFY(!figures.empty());
        QCOMPARE(figures.back().text, QStringLiteral("2"));
        // The lane's figures and worst span are pro's: the log passed 8 of its 10, the token
        // bucket 10 in ten ticks, over pro's own 8 (its capacity plus what it refilled).
        QCOMPARE(laneLabel(scene, lane).detail, QStringLiteral("8 ok · 2 rejected"));
        const JudgedBurst bucket = scene.judgedBurst(3);
        QCOMPARE(scene.frame->result->runs[3].id, std::string("token_bucket"));
        QCOMPARE(bucket.key, trace.find_key("pro"));
        QCOMPARE(bucket.burst.cost, std::int64_t{10});
        QCOMPARE(bucket.limit, std::int64_t{8});

        // Another trace starts from every key.
        QVERIFY(session()->reset(bundledDocument("multi-tenant"), QString()).isEmpty());
        QVERIFY(charts()->shownKeys().isEmpty());
        QCOMPARE(charts()->keyChooser()->currentIndex(), 0);
        QVERIFY(!view()->scene().isFaint(0));
    }

    void keysSelectedOnTheKeysTabAreShownEverywhere() {
        openKeyTiers();
        const Trace& trace = session()->trace();
        auto* keys = window_->findChild<KeysPanel*>();
        window_->findChild<QDockWidget*>(QStringLiteral("keysDock"))->raise();
        QTRY_COMPARE(keys->keysModel()->rowCount(), 3);
        QItemSelectionModel* selection = keys->table()->selectionModel();
        for (int row = 0; row < 3; ++row) {
            if (keys->keysModel()->keyAt(row) != trace.find_key("guest"))
                selection->select(keys->keysModel()->index(row, 0),
                                  QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
        QCOMPARE(charts()->shownKeys(),
                 (QStringList{QStringLiteral("free"), QStringLiteral("pro")}));
        QVERIFY(view()->scene().isFaint(firstOf(trace, "guest")));
        QVERIFY(!view()->scene().isFaint(firstOf(trace, "free")));
        QVERIFY(!view()->scene().isFaint(firstOf(trace, "pro")));
        QCOMPARE(traceRowDetail(view()->scene()), QStringLiteral("only free, pro"));
        keys->table()->clearSelection();
        QVERIFY(charts()->shownKeys().isEmpty());
        QVERIFY(!view()->scene().isFaint(firstOf(trace, "guest")));
        QCOMPARE(traceRowDetail(view()->scene()), QStringLiteral("30 · click to add"));
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    KeyChoiceTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "key_choice_test.moc"
