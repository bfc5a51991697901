// The live charts: refilled rather than rebuilt, cut at the clock, toggled from the legend,
// decimated to the plot's width, and described by the hover crosshair.
#include <QAreaSeries>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "catch.h"
#include "charts/chart_hover.h"
#include "charts/chart_series.h"
#include "charts/chart_specs.h"
#include "charts/chart_view.h"
#include "charts/charts_panel.h"
#include "qt_app.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

std::shared_ptr<const SimulationResult> defaultResult(std::int64_t limit = 4) {
    Params params = default_params();
    params.base.limit = limit;
    return simulate(std::make_shared<const Trace>(default_trace()), params);
}

/// The line series of `chart` named `name`.
QLineSeries* line(QChart* chart, const QString& name) {
    for (QAbstractSeries* series : chart->series()) {
        if (series->name() == name)
            return qobject_cast<QLineSeries*>(series);
    }
    return nullptr;
}

/// A request every `spacing` ticks, as many as make the charts compute on a thread.
std::shared_ptr<const SimulationResult> backgroundResult(Tick spacing = 1) {
    TraceBuilder builder;
    for (Tick t = 0; t < static_cast<Tick>(ChartSeries::kBackgroundRequests); ++t)
        builder.add(t * spacing);
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), default_params());
}

struct Panel {
    ChartsPanel panel;
    Panel() {
        panel.resize(900, 500);
        panel.show();
        REQUIRE(QTest::qWaitForWindowExposed(&panel));
    }
    QChart* chart(ChartKind kind) { return panel.view(kind)->chart(); }
};

}  // namespace

TEST_CASE("panel: the load chart shows one line per algorithm and the limit lines") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    QChart* chart = p.chart(ChartKind::Load);
    REQUIRE(chart != nullptr);
    QLineSeries* fixed = line(chart, QStringLiteral("Fixed window"));
    REQUIRE(fixed != nullptr);
    double highest = 0;
    for (const QPointF& point : fixed->points())
        highest = std::max(highest, point.y());
    CHECK(highest == 8.0);
    CHECK(line(chart, QStringLiteral("L = 4")) != nullptr);
    CHECK(line(chart, QStringLiteral("2L = 8")) != nullptr);
}

TEST_CASE("panel: a new result of the same shape refills the series in place") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    QChart* before = p.chart(ChartKind::Load);
    QLineSeries* fixed = line(before, QStringLiteral("Fixed window"));
    const QList<QPointF> old_points = fixed->points();
    // Same parameters, one more request: same series, new values.
    TraceBuilder builder;
    for (Tick t = 6; t <= 14; ++t)
        builder.add(t);
    p.panel.setResult(
        simulate(std::make_shared<const Trace>(std::move(builder).take()), default_params()));
    CHECK(p.chart(ChartKind::Load) == before);
    CHECK(fixed->points() != old_points);
    // A different L changes the reference lines: the chart is rebuilt.
    p.panel.setResult(defaultResult(5));
    CHECK(line(p.chart(ChartKind::Load), QStringLiteral("L = 5")) != nullptr);
}

/// The over-limit band of `chart`, if it has one.
QAreaSeries* band(QChart* chart) {
    for (QAbstractSeries* series : chart->series()) {
        if (auto* area = qobject_cast<QAreaSeries*>(series))
            return area;
    }
    return nullptr;
}

/// Whether `series` is a horizontal line at `y` from `from` to `to`.
bool spans(const QXYSeries* series, double from, double to, double y) {
    if (series == nullptr || series->count() != 2)
        return false;
    return series->at(0) == QPointF(from, y) && series->at(1) == QPointF(to, y);
}

TEST_CASE("panel: a refilled chart stretches its band and reference lines to the new axes") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    p.panel.setCurrentChart(ChartKind::Load);
    QChart* load = p.chart(ChartKind::Load);
    // The same L and W, but three times as long and twice as busy: the same shape of chart
    // over a longer time axis and a taller count axis.
    TraceBuilder builder;
    for (Tick t = 0; t < 60; ++t)
        builder.add(t, t % 2 == 0 ? 2 : 1);
    p.panel.setResult(
        simulate(std::make_shared<const Trace>(std::move(builder).take()), default_params()));
    REQUIRE(p.chart(ChartKind::Load) == load);  // refilled, not rebuilt
    const ChartSpec& spec = p.panel.view(ChartKind::Load)->spec();
    REQUIRE(spec.x.max > 60.0);
    CHECK(spans(line(load, QStringLiteral("L = 4")), spec.x.min, spec.x.max, 4.0));
    CHECK(spans(line(load, QStringLiteral("2L = 8")), spec.x.min, spec.x.max, 8.0));
    QAreaSeries* shaded = band(load);
    REQUIRE(shaded != nullptr);
    CHECK(spans(shaded->upperSeries(), spec.x.min, spec.x.max, spec.y.max));
    CHECK(spans(shaded->lowerSeries(), spec.x.min, spec.x.max, 4.0));

    p.panel.setCurrentChart(ChartKind::Queue);
    const ChartSpec& queue = p.panel.view(ChartKind::Queue)->spec();
    REQUIRE(queue.references.size() == 1);
    const ReferenceLine size = queue.references.front();
    CHECK(spans(line(p.chart(ChartKind::Queue), size.label), queue.x.min, queue.x.max, size.y));
    // Back to the short trace: the lines shrink with the axis.
    p.panel.setResult(defaultResult());
    CHECK(spans(line(p.chart(ChartKind::Queue), size.label), queue.x.min, queue.x.max, size.y));
    p.panel.setCurrentChart(ChartKind::Load);
    CHECK(spans(line(load, QStringLiteral("L = 4")), spec.x.min, spec.x.max, 4.0));
    CHECK(spans(band(load)->upperSeries(), spec.x.min, spec.x.max, spec.y.max));
}

TEST_CASE("panel: the clock cuts every line at the current tick and marks it") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    p.panel.setCurrentTick(9);
    QChart* chart = p.chart(ChartKind::Load);
    QLineSeries* fixed = line(chart, QStringLiteral("Fixed window"));
    REQUIRE(fixed != nullptr);
    CHECK(fixed->points().back().x() == 9.0);
    CHECK(fixed->points().back().y() == 4.0);
    QLineSeries* cursor = line(chart, QStringLiteral("now"));
    REQUIRE(cursor != nullptr);
    REQUIRE(cursor->count() == 2);
    CHECK(cursor->at(0).x() == 9.0);
    p.panel.clearCurrentTick();
    CHECK(line(chart, QStringLiteral("now"))->count() == 0);
}

TEST_CASE("panel: a short chart keeps its note, beside the title") {
    test::app();
    for (const ChartKind kind : {ChartKind::Load, ChartKind::Queue}) {
        const ChartSpec spec = buildChartSpec(kind, wholeTraceInput(defaultResult(), 800));
        REQUIRE(!spec.note.isEmpty());
        // As the app's bottom dock holds it (short and wide), and as a tall chart.
        for (const QSize size : {QSize(1400, 240), QSize(700, 500)}) {
            INFO("chart " << static_cast<int>(kind) << " at " << size.width() << " x "
                          << size.height());
            ChartView view(kind);
            view.resize(size);
            view.show();
            REQUIRE(QTest::qWaitForWindowExposed(&view));
            view.showSpec(spec);
            QCoreApplication::processEvents();
            CHECK(view.chart()->title().contains(spec.note.toHtmlEscaped()));
        }
    }
}

TEST_CASE("panel: a short chart's legend, moved beside the plot, holds its labels whole") {
    test::app();
    // The queue chart's longest label was cut to "Delay of an accepted requ…": the legend kept
    // the widths its labels had been given under the plot.
    const ChartSpec spec = buildChartSpec(
        ChartKind::Queue,
        wholeTraceInput(simulate(std::make_shared<const Trace>(default_trace()), default_params()),
                        800));
    ChartView view(ChartKind::Queue);
    view.resize(1400, 240);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    view.showSpec(spec);
    QCoreApplication::processEvents();
    QLegend* legend = view.chart()->legend();
    REQUIRE(legend->alignment() == Qt::AlignRight);
    // The words each entry shows, as Qt laid them out.
    QStringList shown;
    QList<QGraphicsItem*> items = legend->childItems();
    while (!items.isEmpty()) {
        QGraphicsItem* item = items.takeFirst();
        items += item->childItems();
        if (const auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            shown << text->toPlainText();
    }
    INFO(shown.join(QStringLiteral(" | ")).toStdString());
    CHECK(shown.contains(QStringLiteral("Delay of an accepted request")));
    for (const QString& text : shown) {
        CHECK(!text.contains(QStringLiteral("...")));
        CHECK(!text.contains(QChar(0x2026)));
    }
}

TEST_CASE("panel: the visible range follows the timeline's cells") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    p.panel.setVisibleRange(5.0, 15.0);
    const ChartInput input = p.panel.input(100);
    CHECK(input.from == 4.5);
    CHECK(input.to == 14.5);
    const ChartSpec& spec = p.panel.view(ChartKind::Load)->spec();
    CHECK(spec.x.min == 4.5);
    CHECK(spec.x.max == 14.5);
}

TEST_CASE("panel: clicking a legend entry hides the algorithm and keeps the entry") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    p.panel.setCurrentChart(ChartKind::Cumulative);
    QChart* chart = p.chart(ChartKind::Cumulative);
    QLegendMarker* marker = nullptr;
    for (QLegendMarker* m : chart->legend()->markers()) {
        // The rejected line shares the label but has no legend entry of its own.
        if (m->label() == QStringLiteral("Sliding log") && m->isVisible() && marker == nullptr)
            marker = m;
    }
    REQUIRE(marker != nullptr);
    Q_EMIT marker->clicked();
    int hidden = 0;
    for (QAbstractSeries* series : chart->series())
        hidden += series->name() == QStringLiteral("Sliding log") && !series->isVisible() ? 1 : 0;
    CHECK(hidden == 2);  // accepted and rejected
    CHECK(marker->isVisible());
    CHECK(p.panel.view(ChartKind::Cumulative)
              ->hiddenGroups()
              .contains(laneGroup(1)));  // the second lane: the sliding log
    Q_EMIT marker->clicked();
    CHECK(p.panel.view(ChartKind::Cumulative)->hiddenGroups().isEmpty());
}

TEST_CASE("panel: long traces are drawn with a few points per pixel column") {
    test::app();
    TraceBuilder builder;
    for (Tick t = 0; t < 200'000; ++t)
        builder.add(t, static_cast<std::uint32_t>(1 + t % 3));
    Panel p;
    p.panel.setResult(
        simulate(std::make_shared<const Trace>(std::move(builder).take()), default_params()));
    QTRY_VERIFY_WITH_TIMEOUT(!p.panel.computingSeries(), 60'000);
    QTest::qWait(20);  // let the plot settle: a new width decimates again
    const auto points = [&] {
        QLineSeries* fixed = line(p.chart(ChartKind::Load), QStringLiteral("Fixed window"));
        REQUIRE(fixed != nullptr);
        return fixed->count();
    };
    const int columns = p.panel.view(ChartKind::Load)->plotColumns();
    int drawn = 0;
    for (QAbstractSeries* series : p.chart(ChartKind::Load)->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            INFO(series->name().toStdString());
            // Decimated to the plot's columns, or to at most a third more (what it was drawn
            // for before the legend took its room).
            CHECK(xy->count() <= 4 * columns * 4 / 3 + 2);
            drawn += static_cast<int>(xy->count());
        }
    }
    CHECK(drawn > 1000);
    // A little narrower: what was drawn stays. Half as wide: decimated again, to fewer points.
    const qsizetype before = points();
    p.panel.resize(p.panel.width() * 9 / 10, p.panel.height());
    QTest::qWait(50);
    CHECK(points() == before);
    p.panel.resize(p.panel.width() / 2, p.panel.height());
    QTRY_VERIFY(points() < before * 3 / 4);
}

TEST_CASE("hover: the crosshair text gives the tick and each algorithm's value") {
    test::app();
    const ChartInput input = wholeTraceInput(defaultResult(), 800);
    const QString load = chartHoverText(ChartKind::Load, input, 13.0, {});
    CHECK(load.contains(QStringLiteral("t = 13")));
    CHECK(load.contains(QStringLiteral("Fixed window: <b>8</b>")));
    CHECK(load.contains(QStringLiteral("Sliding log: <b>4</b>")));
    const QString hidden =
        chartHoverText(ChartKind::Load, input, 13.0, {laneGroup(0)});  // the fixed window
    CHECK_FALSE(hidden.contains(QStringLiteral("Fixed window")));
    const QString bucket = chartHoverText(ChartKind::Bucket, input, 8.0, {});
    CHECK(bucket.contains(QStringLiteral("Token bucket: <b>1.8</b>")));
    CHECK(bucket.contains(QStringLiteral("GCRA: <b>1.8</b>")));
    const QString worst = chartHoverText(ChartKind::Worst, input, 0.0, {});
    CHECK(worst.contains(QStringLiteral("<b>8</b>")));
    CHECK(worst.contains(QStringLiteral("from tick 6")));
    ChartInput early = input;
    early.now = 10;
    CHECK(chartHoverText(ChartKind::Load, early, 12.0, {}).contains(QStringLiteral("not reached")));
}

TEST_CASE("panel: an export says what it wrote and where, and a failed one says why") {
    test::app();
    Panel p;
    p.panel.setResult(defaultResult());
    QSignalSpy exported(&p.panel, &ChartsPanel::exported);
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    ExportRequest request;
    request.view = ExportView::Load;
    request.format = ImageFormat::Svg;
    request.path = dir.filePath(QStringLiteral("load.svg"));
    CHECK(p.panel.exportTo(request).isEmpty());
    REQUIRE(exported.count() == 1);
    const QString message = exported.at(0).at(0).toString();
    CHECK(message.startsWith(QStringLiteral("Exported “")));
    CHECK(message.endsWith(request.path));
    CHECK(QFileInfo(request.path).size() > 0);
    // A folder that is not there: the problem comes back, and nothing claims success.
    request.path = dir.filePath(QStringLiteral("missing/load.svg"));
    CHECK_FALSE(p.panel.exportTo(request).isEmpty());
    CHECK(exported.count() == 1);
}

TEST_CASE("panel: a big trace's series are computed on a thread, the charts saying so meanwhile") {
    test::app();
    // Past kBackgroundRequests: a request every tick, over the limit now and then.
    const auto big = [](std::int64_t limit) {
        TraceBuilder builder;
        for (Tick t = 0; t < static_cast<Tick>(ChartSeries::kBackgroundRequests) + 1000; ++t)
            builder.add(t, t % 7 == 0 ? 3 : 1);
        Params params = default_params();
        params.base.limit = limit;
        return simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    };
    const auto first = big(4);
    Panel p;
    p.panel.setResult(first);
    // Nothing was computed on this thread: the chart on show says what is coming instead.
    REQUIRE(p.panel.computingSeries());
    const ChartSpec& pending = p.panel.view(ChartKind::Load)->spec();
    CHECK(pending.lines.isEmpty());
    CHECK(pending.note.contains(QStringLiteral("Drawing the charts of")));
    CHECK(pending.note.contains(
        QLocale().toString(static_cast<qulonglong>(first->trace->requests.size()))));

    // A new result meanwhile: the first computation is dropped, and the new one is drawn.
    const auto second = big(5);
    p.panel.setResult(second);
    REQUIRE(p.panel.computingSeries());
    QTRY_VERIFY_WITH_TIMEOUT(!p.panel.computingSeries(), 60'000);
    const ChartSpec& drawn = p.panel.view(ChartKind::Load)->spec();
    CHECK_FALSE(drawn.lines.isEmpty());
    CHECK(drawn.note.contains(QStringLiteral("Hatched")));
    // The series drawn are those of the second result, as computing them here gives.
    const ChartInput shown = p.panel.input(400);
    const ResultSeries expected = compute_series(*second, chartSeriesOptions(*second, {}));
    REQUIRE(shown.series != nullptr);
    REQUIRE(shown.result == second);
    CHECK(shown.series->algorithms.front().load == expected.algorithms.front().load);
    CHECK(shown.series->algorithms.front().accepted == expected.algorithms.front().accepted);
    CHECK(chartHoverText(ChartKind::Load, shown, 100.0, {}).size() > 0);
}

TEST_CASE("panel: an export while a big trace's series are computed waits for them") {
    test::app();
    const auto result = backgroundResult(2);
    Panel p;
    p.panel.setResult(result);
    REQUIRE(p.panel.computingSeries());
    // What exports and tests draw from: the series, waited for rather than missing.
    const ChartInput shown = p.panel.input(400);
    REQUIRE(shown.series != nullptr);
    CHECK_FALSE(p.panel.computingSeries());
    CHECK(shown.series->algorithms.front().accepted.values.back() ==
          static_cast<std::int64_t>(result->runs.front().totals.accepted_cost));
    // The queued call back of the thread, once it comes, changes nothing, and the chart on
    // show is drawn from the series waited for.
    QTest::qWait(50);
    CHECK(p.panel.input(400).series == shown.series);
    QTRY_VERIFY(!p.panel.view(ChartKind::Load)->spec().lines.isEmpty());
    CHECK(QApplication::overrideCursor() == nullptr);
}

TEST_CASE("panel: a timeline export of a big trace does not wait for the charts' series") {
    test::app();
    Panel p;
    p.panel.setResult(backgroundResult());
    p.panel.setTimelinePainter([](QPainter&, const QRectF& target,
                                  const std::shared_ptr<const SimulationResult>&, double, double,
                                  const PrintedTimelineOptions&) { return target; });
    REQUIRE(p.panel.computingSeries());
    ExportRequest timeline;
    timeline.view = ExportView::Timeline;
    CHECK(p.panel.exportPainter(timeline, nullptr));
    CHECK(p.panel.computingSeries());  // still on its thread: nothing waited for it
    ExportRequest figure;
    figure.view = ExportView::Figure;
    CHECK(p.panel.exportPainter(figure, nullptr));
    CHECK_FALSE(p.panel.computingSeries());  // a figure draws a chart: it took the series
}

TEST_CASE("chart series: a computation dropped before it ends is never handed out") {
    test::app();
    const auto result = backgroundResult();
    ChartSeries series;
    QSignalSpy computed(&series, &ChartSeries::computed);
    CHECK(series.get(result, {}) == nullptr);
    REQUIRE(series.computing());
    series.drop();
    CHECK_FALSE(series.computing());
    // Its thread ends (stopped, or finished), and its series go nowhere.
    QTest::qWait(300);
    CHECK(computed.isEmpty());
    // Asked again, the series are computed afresh and handed out once ready.
    CHECK(series.get(result, {}) == nullptr);
    QTRY_COMPARE_WITH_TIMEOUT(computed.size(), 1, 60'000);
    const auto ready = series.get(result, {});
    REQUIRE(ready != nullptr);
    CHECK(ready->algorithms.size() == result->runs.size());
    CHECK(series.error().isEmpty());
}

TEST_CASE("chart series: the thread starts a moment later, and waiting for it takes its series") {
    test::app();
    const auto result = backgroundResult();
    ChartSeries series;
    QSignalSpy computed(&series, &ChartSeries::computed);
    CHECK(series.get(result, {}) == nullptr);
    CHECK(series.computing());
    // Started by now, and perhaps finished: either way waiting hands the series out once.
    QTest::qWait(ChartSeries::kStartDelayMs + 50);
    const auto waited = series.wait(result, {});
    REQUIRE(waited != nullptr);
    CHECK_FALSE(series.computing());
    QTest::qWait(50);
    CHECK(computed.size() == 1);
    CHECK(series.get(result, {}) == waited);
}
