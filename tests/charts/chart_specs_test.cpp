// What the chart specs promise before anything is drawn: every drawn value fits on its axis.
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <algorithm>

#include "catch.h"
#include "charts/chart_axes.h"
#include "charts/chart_builder.h"
#include "charts/chart_specs.h"
#include "charts/chart_theme.h"
#include "qt_app.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

ChartInput bundledInput(const std::string& name) {
    io::TraceDocument doc = io::load_trace(std::string(RATELAB_SOURCE_DIR) + "/traces/" + name);
    auto result = simulate(std::make_shared<const Trace>(std::move(doc.trace)), doc.params);
    return wholeTraceInput(std::move(result), 800);
}

double highestOnLeftAxis(const ChartSpec& spec) {
    double highest = 0.0;
    for (const LineSpec& line : spec.lines) {
        if (line.secondary_axis)
            continue;
        for (const QPointF& point : line.points)
            highest = std::max(highest, point.y());
    }
    return highest;
}

}  // namespace

TEST_CASE("queue chart: the queue over several keys stays inside the plot") {
    test::app();
    // Three keys each queueing in their own leaky bucket: together they hold more than one
    // key's queue size.
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, bundledInput("key-tiers.json"));
    REQUIRE(spec.references.size() == 1);
    const double one_key = spec.references.front().y;
    const double highest = highestOnLeftAxis(spec);
    REQUIRE(highest > one_key);
    CHECK(spec.y.max >= highest);
    // Tiers have queues of their own sizes: the line is the size of a key without one.
    CHECK(spec.references.front().label == QStringLiteral("untiered queue size 4"));
    CHECK(spec.note.contains(QStringLiteral("over all keys")));
}

TEST_CASE("queue chart: with one key the axis still starts from the queue size") {
    test::app();
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, bundledInput("leaky-delays.json"));
    REQUIRE(spec.references.size() == 1);
    CHECK(spec.y.max > spec.references.front().y);
    CHECK(spec.y.max >= highestOnLeftAxis(spec));
    CHECK(spec.references.front().label.startsWith(QStringLiteral("queue size ")));
}

TEST_CASE("magnitude labels: thinned to nice multiples that fit the plot's height") {
    const AxisSpec axis{QString(), -20.0, 35.0, 5.0};
    // Tall enough for all twelve labels at 15 px each: the spec's own step.
    CHECK(fittedLabelStep(axis, 400.0, 12.0) == 5.0);
    // 90 px: -20, 0, 20 (5 labels of 10 would need 75 px and more air).
    CHECK(fittedLabelStep(axis, 90.0, 12.0) == 10.0);
    CHECK(fittedLabelStep(axis, 50.0, 12.0) == 20.0);
    // However short the plot, zero keeps its label.
    CHECK(fittedLabelStep(axis, 5.0, 12.0) >= 50.0);
    const AxisSpec tenths{QString(), -1.0, 1.0, 0.2};
    CHECK(fittedLabelStep(tenths, 60.0, 12.0) == Approx(1.0));
}

TEST_CASE("cumulative chart: a short chart labels its count axis instead of showing dots") {
    test::app();
    const ChartSpec spec =
        buildChartSpec(ChartKind::Cumulative, bundledInput("steady-over-limit.json"));
    for (const int height : {220, 300, 450}) {
        INFO("chart height " << height);
        QGraphicsScene scene;
        QChart* chart = ChartBuilder::build(spec, ChartTheme::print());
        scene.addItem(chart);
        chart->setGeometry(QRectF(0, 0, 800, height));
        chart->layout()->activate();
        chart->layout()->activate();
        QCategoryAxis* counts = nullptr;
        for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
            if (axis->alignment() == Qt::AlignLeft)
                counts = qobject_cast<QCategoryAxis*>(axis);
        }
        REQUIRE(counts != nullptr);
        const QStringList labels = counts->categoriesLabels();
        CHECK(labels.contains(QStringLiteral("0")));
        CHECK_FALSE(counts->labelsTruncated());
        // One label height apart at least.
        const double label_height = QFontMetricsF(counts->labelsFont()).height();
        CHECK(static_cast<double>(labels.size()) * label_height <= chart->plotArea().height());
    }
}

TEST_CASE(
    "cumulative chart: its count axis title fits beside a short plot, in print and on screen") {
    test::app();
    const ChartSpec spec =
        buildChartSpec(ChartKind::Cumulative, bundledInput("steady-over-limit.json"));
    // Both meanings of the axis stay in words: the note says which side is which.
    CHECK(spec.note.contains(QStringLiteral("accepted")));
    CHECK(spec.note.contains(QStringLiteral("rejected")));
    const ChartTheme screen = ChartTheme::screen(QApplication::palette(), QApplication::font());
    for (const ChartTheme& theme : {ChartTheme::print(), screen}) {
        for (const int height : {220, 300}) {
            INFO("chart height " << height);
            QGraphicsScene scene;
            QChart* chart = ChartBuilder::build(spec, theme);
            scene.addItem(chart);
            chart->setGeometry(QRectF(0, 0, 800, height));
            chart->layout()->activate();
            chart->layout()->activate();
            for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
                if (axis->alignment() != Qt::AlignLeft)
                    continue;
                const double title =
                    QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText());
                INFO("title \"" << axis->titleText().toStdString() << "\"");
                CHECK(title <= chart->plotArea().height());
            }
        }
    }
}

TEST_CASE("load and worst charts: a sum over keys is not judged against one L") {
    test::app();
    // Tenants on three tiers: the sum of their loads is far above the trace's L = 30, though
    // each key stays within its own limit but one. Hatching the sum as "more than L" said that
    // every lane let far too much through.
    for (const ChartKind kind : {ChartKind::Load, ChartKind::Worst}) {
        INFO("chart " << static_cast<int>(kind));
        const ChartSpec several = buildChartSpec(kind, bundledInput("multi-tenant.json"));
        CHECK(!several.over_limit_from.has_value());
        CHECK(several.references.isEmpty());
        CHECK(several.title.contains(QStringLiteral("all keys")));
        CHECK(several.note.contains(QStringLiteral("own L")));
        // One key: the limit lines and the band stay.
        const ChartSpec one = buildChartSpec(kind, bundledInput("boundary-burst.json"));
        CHECK(one.over_limit_from == 4.0);
        CHECK(one.references.size() == 2);
        CHECK(!one.title.contains(QStringLiteral("all keys")));
    }
}

TEST_CASE("library presets side by side: each lane its own colour and line") {
    test::app();
    // Six library presets, none of RateLab's six: every line was the same grey.
    const ChartSpec spec =
        buildChartSpec(ChartKind::Load, bundledInput("one-limit-six-libraries.json"));
    REQUIRE(spec.lines.size() == 6);
    for (qsizetype a = 0; a < spec.lines.size(); ++a) {
        for (qsizetype b = a + 1; b < spec.lines.size(); ++b) {
            INFO(spec.lines[a].label.toStdString() << " and " << spec.lines[b].label.toStdString());
            CHECK(spec.lines[a].color.rgb() != spec.lines[b].color.rgb());
        }
    }
}
