// With several keys the comparison table, the lanes and the exported table judge each key
// against its own tier: the worst key's burst against its own L, never the sum over the keys
// against the trace's L. The state column names the key it shows, always one in the trace.
#include <QApplication>
#include <QBrush>
#include <QComboBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPalette>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <memory>

#include "charts/algorithm_names.h"
#include "charts/charts_panel.h"
#include "panels/comparison_model.h"
#include "panels/eviction_row.h"
#include "panels/keys_model.h"
#include "panels/keys_panel.h"
#include "session/frame_model.h"
#include "window/charts_slot.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// traces/key-tiers.json: two requests a tick for five ticks from each of free (L = 2), pro
/// (L = 8) and guest (the trace's L = 4).
std::shared_ptr<const SimulationResult> keyTiers() {
    TraceBuilder builder;
    for (Tick tick = 0; tick < 5; ++tick) {
        for (const char* key : {"free", "pro", "guest"}) {
            builder.add(tick, 1, key);
            builder.add(tick, 1, key);
        }
    }
    Params params = default_params();
    params.keys["free"].limit = 2;
    params.keys["pro"].limit = 8;
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
}

/// The frame at tick `now`, as FrameModel makes it.
Frame frameAt(const std::shared_ptr<const SimulationResult>& result, Tick now) {
    Frame frame;
    frame.result = result;
    frame.now = now;
    frame.decided = 0;
    while (frame.decided < result->trace->requests.size() &&
           result->trace->requests[frame.decided].tick <= now) {
        ++frame.decided;
    }
    frame.revealed = simulate_prefix(*result, frame.decided, now);
    frame.keys = countKeys(*result, *frame.revealed, frame.decided, now);
    return frame;
}

/// The y of the reference line labelled `label` on `spec`, or nothing.
std::optional<double> referenceAt(const ChartSpec& spec, const QString& label) {
    for (const ReferenceLine& line : spec.references) {
        if (line.label == label)
            return line.y;
    }
    return std::nullopt;
}

/// The bar of lane `id` on the worst-burst chart.
double worstBar(const ChartSpec& spec, std::string_view id) {
    return spec.bars->values.at(spec.bars->categories.indexOf(laneName(std::string(id), {})));
}

int rowOf(const ComparisonModel& model, std::string_view id) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.idAt(row) == id)
            return row;
    }
    return -1;
}

}  // namespace

class KeyJudgementTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachKeyIsHeldToItsOwnLimit() {
        ComparisonModel model;
        model.setFrame(frameAt(keyTiers(), 30));
        QCOMPARE(model.headerData(ComparisonModel::kWorstBurst, Qt::Horizontal, Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("Worst burst, key against its own L"));
        const auto cell = [&](std::string_view id, int role) {
            return model.data(model.index(rowOf(model, id), ComparisonModel::kWorstBurst), role);
        };
        // 14 in ten ticks in all, but every key exactly at its own limit.
        for (const char* id : {"fixed_window", "sliding_log", "sliding_counter", "leaky_bucket"}) {
            QCOMPARE(cell(id, Qt::DisplayRole).toString(), QStringLiteral("free: 2 in 10 ticks"));
            QVERIFY2(!cell(id, Qt::ForegroundRole).isValid(), id);  // not the over-limit colour
        }
        // The token bucket lets guest's bucket of 4 plus its refill through: over its L.
        QCOMPARE(cell("token_bucket", Qt::DisplayRole).toString(),
                 QStringLiteral("guest: 5 in 10 ticks > 4"));
        QVERIFY(cell("token_bucket", Qt::ForegroundRole).isValid());
        QVERIFY(cell("token_bucket", Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Summed over every key")));
    }

    void theFiguresFollowTheClock() {
        ComparisonModel model;
        // At tick 0 the token bucket has let 2 of each key through: each within its L.
        model.setFrame(frameAt(keyTiers(), 0));
        const QModelIndex bucket =
            model.index(rowOf(model, "token_bucket"), ComparisonModel::kWorstBurst);
        QCOMPARE(model.data(bucket, Qt::DisplayRole).toString(),
                 QStringLiteral("free: 2 in 10 ticks"));
        model.setFrame(frameAt(keyTiers(), 3));
        QCOMPARE(model.data(bucket, Qt::DisplayRole).toString(),
                 QStringLiteral("guest: 5 in 10 ticks > 4"));
    }

    void figuresOfAnEarlierClockAreShownMuted() {
        // While a thread counts the figures up to the clock, the table and the Keys tab still
        // show those of an earlier clock, greyed; the state column is the clock's own.
        Frame frame = frameAt(keyTiers(), 30);
        frame.counting = true;
        const QBrush muted(QGuiApplication::palette().color(QPalette::PlaceholderText));
        ComparisonModel model;
        model.setFrame(frame);
        const int bucket = rowOf(model, "token_bucket");
        for (const int column : {ComparisonModel::kAccepted, ComparisonModel::kRejected,
                                 ComparisonModel::kWorstBurst, ComparisonModel::kMaxDelay}) {
            QCOMPARE(model.data(model.index(bucket, column), Qt::ForegroundRole).value<QBrush>(),
                     muted);  // the worst burst too, although over its limit
        }
        QVERIFY(!model.data(model.index(bucket, ComparisonModel::kState), Qt::ForegroundRole)
                     .isValid());
        KeysPanel panel;
        panel.resize(800, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setFrame(frame);
        KeysModel* keys = panel.keysModel();
        QCOMPARE(keys->rowCount(), 3);
        QCOMPARE(keys->data(keys->index(0, KeysModel::kKey), Qt::ForegroundRole).value<QBrush>(),
                 muted);
        const QString summary = panel.findChild<QLabel*>(QStringLiteral("keysSummary"))->text();
        QVERIFY2(summary.startsWith(QStringLiteral("Counting the keys up to the clock")),
                 qPrintable(summary));
        auto* cost = panel.findChild<QLabel*>(QStringLiteral("keysStateCost"));
        QVERIFY(!cost->isEnabled());  // greyed, like the rows
        // Figures of the settings before a change: said so, not "an earlier clock".
        frame.earlier_settings = true;
        panel.setFrame(frame);
        const QString settings = panel.findChild<QLabel*>(QStringLiteral("keysSummary"))->text();
        QVERIFY2(settings.startsWith(QStringLiteral("Counting the keys for the new settings")),
                 qPrintable(settings));
        QCOMPARE(keys->data(keys->index(0, KeysModel::kKey), Qt::ForegroundRole).value<QBrush>(),
                 muted);
        // A count that failed: said so.
        frame.count_failed = true;
        panel.setFrame(frame);
        const QString failed = panel.findChild<QLabel*>(QStringLiteral("keysSummary"))->text();
        QVERIFY2(failed.startsWith(QStringLiteral("The keys could not be counted")),
                 qPrintable(failed));
        frame.count_failed = false;
        frame.earlier_settings = false;
        frame.counting = false;
        model.setFrame(frame);
        panel.setFrame(frame);
        QVERIFY(cost->isEnabled());
        QVERIFY(!model.data(model.index(bucket, ComparisonModel::kAccepted), Qt::ForegroundRole)
                     .isValid());
        QVERIFY(!keys->data(keys->index(0, KeysModel::kKey), Qt::ForegroundRole).isValid());
    }

    void theStateColumnNamesAKeyOfTheTrace() {
        const auto result = keyTiers();
        ComparisonModel model;
        model.setFrame(frameAt(result, 30));
        // The default key "" made no request: the column shows the last request's key.
        QCOMPARE(model.shownKey(), result->trace->requests.back().key);
        QVERIFY(model.headerData(ComparisonModel::kState, Qt::Horizontal, Qt::DisplayRole)
                    .toString()
                    .endsWith(QStringLiteral("key guest")));
        const KeyId pro = *result->trace->find_key("pro");
        model.setKey(pro);
        QVERIFY(model.headerData(ComparisonModel::kState, Qt::Horizontal, Qt::DisplayRole)
                    .toString()
                    .endsWith(QStringLiteral("key pro")));
        model.setKey(std::nullopt);
        QCOMPARE(model.shownKey(), result->trace->requests.back().key);
        // Before any request, the first request's key.
        model.setFrame(frameAt(result, -1));
        QCOMPARE(model.shownKey(), result->trace->requests.front().key);
    }

    void oneKeyIsHeldToItsTierNotTheTracesL() {
        TraceBuilder builder;
        for (Tick tick = 0; tick < 6; ++tick)
            builder.add(tick, 1, "solo");
        Params params = default_params();  // L = 4
        params.keys["solo"].limit = 5;
        const auto result =
            simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
        const Frame frame = frameAt(result, 30);
        QVERIFY(!frame.severalKeys());
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            const JudgedBurst judged = frame.judgedBurst(lane);
            QCOMPARE(judged.limit, std::int64_t{5});
            // Six in a row: the window algorithms let 5 through, the token bucket 5 plus one.
            QCOMPARE(judged.over_limit(), judged.burst.cost > 5);
        }
        ComparisonModel model;
        model.setFrame(frame);
        QCOMPARE(model
                     .data(model.index(rowOf(model, "sliding_log"), ComparisonModel::kWorstBurst),
                           Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("5"));
    }

    void aPresetLaneIsBadgedWithItsLibraryAndVersion() {
        // The lane's gutter shows which library, at which version, a preset reproduces.
        QCOMPARE(libraryBadge("nginx_limit_req"), QStringLiteral("nginx 1.22.1"));
        QCOMPARE(libraryBadge("guava_smooth_bursty"), QStringLiteral("Guava 31.1"));
        QCOMPARE(libraryBadge("python_limits_moving"), QStringLiteral("limits 2.8.0"));
        QVERIFY(libraryBadge("token_bucket").isEmpty());  // RateLab's own: no badge
        QVERIFY(libraryBadge("no_such_algorithm").isEmpty());
    }

    void theKeysPanelListsNoisyKeysFirst() {
        const auto result = keyTiers();
        KeysPanel panel;
        panel.resize(800, 300);
        panel.setFrame(frameAt(result, 30));
        KeysModel* model = panel.keysModel();
        // Hidden, it keeps the frame for later and does no work.
        QCOMPARE(model->rowCount(), 0);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(model->rowCount(), 3);
        const auto keyOn = [&](int row) {
            return model->data(model->index(row, KeysModel::kKey), Qt::DisplayRole).toString();
        };
        // Lane 0 (the fixed window) refused free 8, guest 6 and pro 2: the noisiest first.
        QCOMPARE(keyOn(0), QStringLiteral("free"));
        QCOMPARE(keyOn(1), QStringLiteral("guest"));
        QCOMPARE(keyOn(2), QStringLiteral("pro"));
        QCOMPARE(model->data(model->index(0, KeysModel::kTier), Qt::DisplayRole).toString(),
                 QStringLiteral("2 per 10 ticks"));
        QCOMPARE(model->data(model->index(1, KeysModel::kTier), Qt::DisplayRole).toString(),
                 QStringLiteral("4 per 10 ticks (default)"));
        QCOMPARE(model->data(model->index(2, KeysModel::kWorstBurst), Qt::DisplayRole).toString(),
                 QStringLiteral("8 of 8"));
        QVERIFY(
            !model->data(model->index(2, KeysModel::kWorstBurst), Qt::ForegroundRole).isValid());
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("keysSummary"))
                    ->text()
                    .startsWith(QStringLiteral("3 keys so far, none over")));

        // Sorting by name, then the token bucket's lane: guest over its limit, in colour.
        panel.table()->horizontalHeader()->setSortIndicator(KeysModel::kKey, Qt::AscendingOrder);
        QCOMPARE(keyOn(0), QStringLiteral("free"));
        QCOMPARE(keyOn(2), QStringLiteral("pro"));
        panel.setLane(3);
        QCOMPARE(model->lane(), std::size_t{3});
        QCOMPARE(model->data(model->index(1, KeysModel::kWorstBurst), Qt::DisplayRole).toString(),
                 QStringLiteral("5 > 4"));
        QVERIFY(model->data(model->index(1, KeysModel::kWorstBurst), Qt::ForegroundRole).isValid());

        // What the states cost: the token bucket holds 2 numbers per key, 6 for the three,
        // and 20 million for ten million keys; the log a timestamp per accepted request.
        QCOMPARE(model->data(model->index(0, KeysModel::kState), Qt::DisplayRole).toString(),
                 QStringLiteral("2"));
        const QString cost = panel.findChild<QLabel*>(QStringLiteral("keysStateCost"))->text();
        QVERIFY2(cost.contains(QStringLiteral("at most 6 numbers (48 bytes)")), qPrintable(cost));
        QVERIFY2(cost.contains(QStringLiteral("up to 20,000,000 numbers")), qPrintable(cost));
        panel.setLane(1);
        QCOMPARE(model->data(model->index(2, KeysModel::kState), Qt::DisplayRole).toString(),
                 QStringLiteral("8"));  // pro's 8 accepted in ten ticks

        // Selecting a key tells the window, which shows that key's state.
        QSignalSpy chosen(&panel, &KeysPanel::keySelected);
        panel.table()->selectRow(2);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).value<std::optional<KeyId>>(), result->trace->find_key("pro"));
    }

    void theChartsCountTheKeysChosenAboveThem() {
        const auto tiers = keyTiers();
        ChartsPanel charts;
        charts.setResult(tiers);
        QComboBox* chooser = charts.keyChooser();
        QVERIFY(!chooser->isHidden());
        // Every key, then the keys by requests (all ten here, so by name).
        QCOMPARE(chooser->count(), 4);
        QCOMPARE(chooser->itemText(0), QStringLiteral("All keys"));
        QCOMPARE(chooser->itemText(1), QStringLiteral("free"));
        QCOMPARE(chooser->itemText(3), QStringLiteral("pro"));

        // All keys: summed, and no one L judges the sum.
        ChartSpec load = buildChartSpec(ChartKind::Load, charts.input(400));
        QVERIFY2(load.title.contains(QStringLiteral("of all keys")), qPrintable(load.title));
        QVERIFY(!referenceAt(load, QStringLiteral("L = 4")));
        QCOMPARE(worstBar(buildChartSpec(ChartKind::Worst, charts.input(400)), "sliding_log"),
                 14.0);

        // Pro alone: its own L of 8, and its own worst burst.
        QSignalSpy changed(&charts, &ChartsPanel::shownKeysChanged);
        chooser->setCurrentIndex(3);
        Q_EMIT chooser->activated(3);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(charts.shownKeys(), QStringList{QStringLiteral("pro")});
        load = buildChartSpec(ChartKind::Load, charts.input(400));
        QVERIFY2(load.title.endsWith(QStringLiteral(" · key \"pro\"")), qPrintable(load.title));
        QCOMPARE(referenceAt(load, QStringLiteral("L = 8")), std::optional<double>(8.0));
        const ChartSpec worst = buildChartSpec(ChartKind::Worst, charts.input(400));
        QCOMPARE(worstBar(worst, "sliding_log"), 8.0);
        QCOMPARE(worstBar(worst, "fixed_window"), 8.0);

        // An edit keeps the choice; a trace without pro shows every key, and pro comes back
        // with it.
        TraceBuilder more;
        for (const Request& r : tiers->trace->requests)
            more.add(r.tick, r.cost, tiers->trace->key_name(r.key));
        more.add(6, 1, "pro");
        charts.setResult(
            simulate(std::make_shared<const Trace>(std::move(more).take()), tiers->params));
        QCOMPARE(chooser->currentText(), QStringLiteral("pro"));
        // Still pro alone: its 8, not the 14 of every key (its eleventh request is refused).
        QCOMPARE(worstBar(buildChartSpec(ChartKind::Worst, charts.input(400)), "sliding_log"), 8.0);
        TraceBuilder others;
        others.add(0, 1, "free");
        others.add(1, 1, "guest");
        charts.setResult(
            simulate(std::make_shared<const Trace>(std::move(others).take()), tiers->params));
        QCOMPARE(chooser->currentIndex(), 0);
        QVERIFY(!buildChartSpec(ChartKind::Load, charts.input(400))
                     .title.contains(QStringLiteral("pro")));
        charts.setResult(tiers);
        QCOMPARE(chooser->currentText(), QStringLiteral("pro"));

        // A trace of one key has nothing to choose.
        charts.setResult(
            simulate(std::make_shared<const Trace>(default_trace()), default_params()));
        QVERIFY(chooser->isHidden());
    }

    void keysSelectedOnTheKeysTabAreWhatTheChartsCount() {
        const auto result = keyTiers();
        KeysPanel keys;
        ChartsPanel charts;
        ComparisonModel comparison;
        followChosenKeys(&charts, &keys, &comparison);
        keys.resize(800, 300);
        keys.setFrame(frameAt(result, 30));
        charts.setFrame(frameAt(result, 30));
        comparison.setFrame(frameAt(result, 30));
        keys.show();
        QVERIFY(QTest::qWaitForWindowExposed(&keys));

        // Free and pro (rows 0 and 2, noisiest first) with Ctrl: summed, named as two of three.
        QItemSelectionModel* selection = keys.table()->selectionModel();
        const auto select = [&](int row, QItemSelectionModel::SelectionFlags how) {
            selection->select(keys.keysModel()->index(row, 0), how | QItemSelectionModel::Rows);
        };
        select(0, QItemSelectionModel::ClearAndSelect);
        select(2, QItemSelectionModel::Select);
        QCOMPARE(charts.shownKeys(), (QStringList{QStringLiteral("free"), QStringLiteral("pro")}));
        QCOMPARE(charts.keyChooser()->currentText(), QStringLiteral("2 keys: free, pro"));
        const ChartSpec load = buildChartSpec(ChartKind::Load, charts.input(400));
        QVERIFY2(load.title.endsWith(QStringLiteral(" · 2 of 3 keys")), qPrintable(load.title));
        // free lets 2 through, pro 8: 10 together in the sliding log's window.
        QCOMPARE(worstBar(buildChartSpec(ChartKind::Worst, charts.input(400)), "sliding_log"),
                 10.0);
        // The table counts the same two keys: of their 20 requests the log let 10 through.
        const auto cell = [&](std::string_view id, int column) {
            return comparison.index(rowOf(comparison, id), column).data().toString();
        };
        QCOMPARE(comparison.headerData(ComparisonModel::kAccepted, Qt::Horizontal, Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("Accepted, 2 keys"));
        QCOMPARE(cell("sliding_log", ComparisonModel::kAccepted), QStringLiteral("10"));
        QCOMPARE(cell("sliding_log", ComparisonModel::kRejected), QStringLiteral("10"));
        QCOMPARE(cell("sliding_log", ComparisonModel::kWorstBurst),
                 QStringLiteral("free: 2 in 10 ticks"));

        // One key: the comparison table's state column shows that key.
        select(1, QItemSelectionModel::ClearAndSelect);
        QCOMPARE(charts.shownKeys(), QStringList{QStringLiteral("guest")});
        QCOMPARE(comparison.shownKey(), *result->trace->find_key("guest"));
        QCOMPARE(comparison.headerData(ComparisonModel::kRejected, Qt::Horizontal, Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("Rejected, key guest"));
        QCOMPARE(cell("sliding_log", ComparisonModel::kAccepted), QStringLiteral("4"));
        QCOMPARE(cell("token_bucket", ComparisonModel::kWorstBurst),
                 QStringLiteral("guest: 5 in 10 ticks > 4"));
        // The selection survives the clock, which re-sorts the rows.
        keys.setFrame(frameAt(result, 2));
        QCOMPARE(selection->selectedRows().size(), 1);
        QCOMPARE(keys.keysModel()->keyAt(selection->selectedRows().front().row()),
                 result->trace->find_key("guest"));
        // Nothing selected: every key again.
        keys.table()->clearSelection();
        QVERIFY(charts.shownKeys().isEmpty());
        QCOMPARE(charts.keyChooser()->currentIndex(), 0);
        QCOMPARE(cell("sliding_log", ComparisonModel::kAccepted), QStringLiteral("14"));
    }

    void idleKeysDroppedTooSoonLetExtraRequestsThrough() {
        const auto result = keyTiers();
        KeysPanel panel;
        panel.resize(900, 360);
        panel.setFrame(frameAt(result, 30));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setLane(3);  // the token bucket
        EvictionRow* row = panel.evictionRow();
        QVERIFY(!row->figures());
        QVERIFY(row->summary()->text().startsWith(QStringLiteral("Every key's state is kept")));

        // Each key asks every tick, so dropped after one idle tick each meets a full bucket
        // every tick: free (2, refilled at 1/5) passes 10 of 10 instead of 2, guest (4, at 2/5)
        // 10 instead of 5, pro (8) all 10 either way. Evicted before ticks 1 to 4 and after
        // the last: 15 evictions.
        row->setEviction(Eviction{Eviction::Kind::idle, 1, 0});
        QVERIFY(row->figures());
        QCOMPARE(row->figures()->evictions, std::int64_t{15});
        QCOMPARE(row->figures()->extra_accepted, std::int64_t{13});
        QCOMPARE(row->figures()->extra_rejected, std::int64_t{0});
        QCOMPARE(row->figures()->changed.size(), std::size_t{13});
        const QString text = row->summary()->text();
        QVERIFY2(text.contains(QStringLiteral("13 requests decided otherwise")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("at most 3 keys held")), qPrintable(text));

        // Idle for 2W, every bucket is full again before it is dropped.
        row->setEviction(Eviction{Eviction::Kind::idle, 20, 0});
        QCOMPARE(row->figures()->changed.size(), std::size_t{0});
        QCOMPARE(row->figures()->early_evictions, std::int64_t{0});
        QVERIFY(row->summary()->text().contains(QStringLiteral("No decision changes")));
        // Room for every key: nothing is dropped. The lane's figures follow the lane chosen.
        row->setEviction(Eviction{Eviction::Kind::lru, 0, 3});
        QCOMPARE(row->figures()->evictions, std::int64_t{0});
        panel.setLane(0);
        QCOMPARE(row->figures()->label, result->runs[0].label);
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    // The cost line writes numbers in the user's locale: the test reads them in one.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    KeyJudgementTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "key_judgement_test.moc"
