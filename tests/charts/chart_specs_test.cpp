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
#include "charts/palette.h"
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

TEST_CASE("queue chart: a few keys, a queue each in its colour beside the keys together") {
    test::app();
    // Three keys each queueing in their own leaky bucket (free 2, pro 8, guest 4): together they
    // hold more than any one key's queue size, and each key is held to its own.
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, bundledInput("key-tiers.json"));
    QStringList labels;
    for (const LineSpec& line : spec.lines)
        labels << line.label;
    CHECK(labels == QStringList{QStringLiteral("Keys together"), QStringLiteral("free (size 2)"),
                                QStringLiteral("pro (size 8)"), QStringLiteral("guest (size 4)"),
                                QStringLiteral("Delay of an accepted request")});
    for (int i = 1; i <= 3; ++i)
        CHECK(spec.lines[i].color == kKeyColours[i - 1]);
    // A dashed line at each key's own size, in its colour, named in the legend by its key's line.
    REQUIRE(spec.references.size() == 3);
    CHECK(spec.references[0].y == 2.0);
    CHECK(spec.references[0].label == QStringLiteral("queue size 2: free"));
    CHECK(spec.references[0].color == kKeyColours[0]);
    CHECK(spec.references[2].y == 8.0);
    CHECK(spec.references[2].color == kKeyColours[1]);
    CHECK(std::none_of(spec.references.begin(), spec.references.end(),
                       [](const ReferenceLine& line) { return line.in_legend; }));
    const double highest = highestOnLeftAxis(spec);
    CHECK(highest > 8.0);  // the keys together
    CHECK(spec.y.max >= highest);
    CHECK(spec.note.contains(QStringLiteral("each key's own queue")));
}

TEST_CASE("queue chart: more keys than colours, one queue over them all") {
    test::app();
    // 34 tenants: too many to tell apart by colour, so one line over all keys and the size of
    // a key without a tier of its own.
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, bundledInput("multi-tenant.json"));
    REQUIRE(spec.references.size() == 1);
    CHECK(spec.references.front().label == QStringLiteral("untiered queue size 30"));
    CHECK(spec.note.contains(QStringLiteral("over all keys")));
    CHECK(std::none_of(spec.lines.begin(), spec.lines.end(), [](const LineSpec& line) {
        return line.label.contains(QStringLiteral("(size"));
    }));
    CHECK(spec.y.max >= highestOnLeftAxis(spec));
}

TEST_CASE("bucket chart: a few keys, a level each against its own capacity") {
    test::app();
    const ChartSpec spec = buildChartSpec(ChartKind::Bucket, bundledInput("key-tiers.json"));
    CHECK(spec.title.endsWith(QStringLiteral("key by key")));
    QStringList labels;
    for (const LineSpec& line : spec.lines)
        labels << line.label;
    CHECK(labels ==
          QStringList{QStringLiteral("Token bucket · free"), QStringLiteral("Token bucket · pro"),
                      QStringLiteral("Token bucket · guest"), QStringLiteral("GCRA · free"),
                      QStringLiteral("GCRA · pro"), QStringLiteral("GCRA · guest")});
    CHECK(spec.lines[4].color == kKeyColours[1]);
    // pro starts full at its own capacity of 8 tokens.
    REQUIRE(!spec.lines[1].points.isEmpty());
    CHECK(spec.lines[1].points.front().y() == 8.0);
    QStringList references;
    for (const ReferenceLine& line : spec.references)
        references << line.label;
    CHECK(references == QStringList{QStringLiteral("capacity 2: free"),
                                    QStringLiteral("capacity 4: guest"),
                                    QStringLiteral("capacity 8: pro")});
    CHECK(spec.y.max >= 8.0);
    CHECK(spec.note.contains(QStringLiteral("Each key's two lines coincide")));
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
