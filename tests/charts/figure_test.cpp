// Figures and the export dialog, with a stand-in for the app's timeline.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>

#include "catch.h"
#include "charts/chart_theme.h"
#include "charts/charts_panel.h"
#include "charts/comparison_table.h"
#include "charts/export_dialog.h"
#include "charts/figure.h"
#include "charts/palette.h"
#include "qt_app.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

std::shared_ptr<const SimulationResult> defaultResult() {
    return simulate(std::make_shared<const Trace>(default_trace()), default_params());
}

/// Records how the figure asked for the timeline, and draws a labelled box instead.
struct FakeTimeline {
    int calls = 0;
    double from = -1;
    double to = -1;
    QRectF target;
    std::vector<KeyId> keys;
    std::vector<TraceNote> notes;

    TimelinePainter painter() {
        return [this](QPainter& painter, const QRectF& area,
                      const std::shared_ptr<const SimulationResult>&, double first, double last,
                      const PrintedTimelineOptions& shown) {
            ++calls;
            keys = shown.keys;
            notes = shown.notes;
            from = first;
            to = last;
            target = area;
            painter.drawText(area, QStringLiteral("timeline stand-in"));
            return area.adjusted(100, 30, 0, 0);
        };
    }
};

/// A figure of the default scenario, its timeline drawn by `timeline`.
FigureRequest boundaryFigure(FakeTimeline& timeline) {
    FigureRequest request;
    request.view = ExportView::Figure;
    request.result = defaultResult();
    request.scenario = QStringLiteral("Boundary burst");
    request.timeline = timeline.painter();
    return request;
}

}  // namespace

TEST_CASE("figure: title, timeline, table, chart and caption, in the print theme") {
    test::app();
    FakeTimeline timeline;
    FigureRequest request = boundaryFigure(timeline);
    const QString svg = QString::fromUtf8(
        renderSvg(figurePainter(request), defaultExportSize(ExportView::Figure), QString()));
    CHECK(timeline.calls == 1);
    CHECK(timeline.from == 0.0);
    CHECK(timeline.to == 32.0);  // the leaky bucket's last release at 21, plus W, plus one
    CHECK(svg.contains(QStringLiteral("timeline stand-in")));
    CHECK(svg.contains(QStringLiteral("Boundary burst, L = 4, W = 10")));
    CHECK(svg.contains(QStringLiteral("Worst burst in 10 ticks")));
    CHECK(svg.contains(QStringLiteral("8 from t = 6 (&gt; L)")));
    CHECK(svg.contains(QStringLiteral("Load: accepted cost in the last 10 ticks")));
    CHECK(figureTitle(request) == QStringLiteral("Boundary burst"));
    request.title = QStringLiteral("Why windows leak");
    CHECK(figureTitle(request) == QStringLiteral("Why windows leak"));
}

TEST_CASE("comparison table: columns widen for long figures, and the widest give way first") {
    const std::array<double, 5> share{0.25, 0.12, 0.12, 0.36, 0.15};
    const auto sum = [](const std::array<double, 5>& widths) {
        return widths[0] + widths[1] + widths[2] + widths[3] + widths[4];
    };
    // Short texts: the shares as they are.
    const auto easy = fitTableColumns({100, 60, 60, 200, 80}, share, 1000);
    CHECK(easy == std::array<double, 5>{250, 120, 120, 360, 150});
    // An accepted count with its cost needs 300 of the 120: it gets them, from the others'
    // spare room, and every other column still holds its text.
    const std::array<double, 5> costly{100, 300, 60, 200, 80};
    const auto widened = fitTableColumns(costly, share, 1000);
    CHECK(widened[1] == 300);
    CHECK(sum(widened) == Approx(1000));
    for (std::size_t c = 0; c < 5; ++c)
        CHECK(widened[c] >= costly[c]);
    // Too little room for everything: the two widest share what the short ones leave.
    const auto narrow = fitTableColumns({100, 500, 60, 700, 80}, share, 1000);
    CHECK(narrow[0] == 100);
    CHECK(narrow[2] == 60);
    CHECK(narrow[4] == 80);
    CHECK(narrow[1] == Approx(380));
    CHECK(narrow[3] == Approx(380));
}

TEST_CASE("comparison table: costs in the hundreds of millions read in full on a figure") {
    test::app();
    // Two keys, one in a tier of its own, sending requests of 300,000 units: the counts read
    // "1000 (cost 300000000)" and the worst bursts name a key and its tier.
    TraceBuilder builder;
    for (Tick t = 0; t < 1000; ++t)
        builder.add(t * 100000, 300000, t % 2 == 0 ? "a" : "b");
    Params params;
    params.base.limit = 1000000;
    params.base.window = 1000000;
    Limits tier = params.base;
    tier.window = 3000000;
    params.keys.emplace("a", tier);
    const auto result = simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    const ChartTheme theme = ChartTheme::print();
    const QSize size = defaultExportSize(ExportView::Figure);
    // As a figure lays it out: the width less its margins and the chart's label room.
    const QRectF target(18, 0, size.width() - 100, comparisonTableHeight(*result, theme));
    const ComparisonTableLayout layout = layoutComparisonTable(target, *result, theme);
    REQUIRE(layout.cells.size() == 5 * (result->runs.size() + 1));
    QFont bold = layout.font;
    bold.setBold(true);
    CHECK(layout.font.pixelSize() < theme.legend_font.pixelSize());  // a little smaller
    CHECK(layout.font.pixelSize() >= 11);
    bool costs_shown = false;
    for (std::size_t i = 0; i < layout.cells.size(); ++i) {
        const ComparisonTableCell& cell = layout.cells[i];
        INFO("cell " << i << ": " << cell.text.toStdString());
        CHECK_FALSE(cell.text.contains(QChar(0x2026)));  // nothing elided
        const QFontMetricsF metrics(cell.bold ? bold : layout.font);
        CHECK(metrics.horizontalAdvance(cell.text) <= cell.rect.width());
        CHECK(cell.rect.left() >= target.left());
        CHECK(cell.rect.right() <= target.right());
        if (i % 5 != 4)  // no text reaches into the next column
            CHECK(cell.rect.right() <= layout.cells[i + 1].rect.left());
        costs_shown = costs_shown || cell.text.contains(QStringLiteral("598 (cost 179400000)"));
    }
    CHECK(costs_shown);
    CHECK(layout.edges[5] == Approx(target.right()));

    // Squeezed to a third, the widest texts are elided rather than drawn over their neighbours.
    const QRectF squeezed(0, 0, target.width() / 3, target.height());
    const ComparisonTableLayout tight = layoutComparisonTable(squeezed, *result, theme);
    CHECK(tight.font.pixelSize() == 11);
    QFont tight_bold = tight.font;
    tight_bold.setBold(true);
    bool elided = false;
    for (const ComparisonTableCell& cell : tight.cells) {
        const QFontMetricsF metrics(cell.bold ? tight_bold : tight.font);
        CHECK(metrics.horizontalAdvance(cell.text) <= cell.rect.width() + 0.5);
        elided = elided || cell.text.contains(QChar(0x2026));
    }
    CHECK(elided);
}

TEST_CASE("figure: the keys on show reach the timeline, and the caption names them") {
    test::app();
    FakeTimeline timeline;
    FigureRequest request;
    request.view = ExportView::Figure;
    TraceBuilder builder;
    const KeyId free = builder.intern("free");
    const KeyId pro = builder.intern("pro");
    for (Tick tick = 0; tick < 4; ++tick) {
        builder.add(tick, 1, "free");
        builder.add(tick, 1, "pro");
    }
    request.result =
        simulate(std::make_shared<const Trace>(std::move(builder).take()), default_params());
    request.scenario = QStringLiteral("Two keys");
    request.timeline = timeline.painter();
    request.keys = {pro};
    request.notes = {{2, "pro's third"}};
    renderSvg(figurePainter(request), defaultExportSize(ExportView::Figure), QString());
    CHECK(timeline.keys == std::vector<KeyId>{pro});
    CHECK(timeline.notes == std::vector<TraceNote>{{2, "pro's third"}});
    // The timeline view hands them on too.
    timeline.notes.clear();
    request.view = ExportView::Timeline;
    renderSvg(figurePainter(request), defaultExportSize(ExportView::Timeline), QString());
    CHECK(timeline.notes == std::vector<TraceNote>{{2, "pro's third"}});
    request.view = ExportView::Figure;
    CHECK(figureCaption(request) ==
          QStringLiteral("Two keys, L = 4, W = 10, key \u201cpro\u201d only"));
    request.keys = {free, pro};
    CHECK(
        figureCaption(request).endsWith(QStringLiteral("keys \u201cfree\u201d, \u201cpro\u201d")));
    request.keys.clear();
    CHECK(figureCaption(request) == QStringLiteral("Two keys, L = 4, W = 10"));
}

TEST_CASE("figure: the timeline and figure views need a timeline painter") {
    test::app();
    FigureRequest request;
    request.result = defaultResult();
    for (const ExportView view : {ExportView::Timeline, ExportView::Figure}) {
        request.view = view;
        CHECK_THROWS_AS(figurePainter(request), std::invalid_argument);
    }
    request.view = ExportView::Queue;
    CHECK_NOTHROW(figurePainter(request));
    CHECK(exportViewFromName(QStringLiteral("figure")) == ExportView::Figure);
    CHECK(exportViewFromName(QStringLiteral("worst")) == ExportView::Worst);
    CHECK_FALSE(exportViewFromName(QStringLiteral("pie")).has_value());
}

TEST_CASE("export dialog: the timeline and figures only with a timeline, and sizes per kind") {
    test::app();
    QCoreApplication::setOrganizationName(QStringLiteral("RateLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("charts_tests"));
    QSettings().clear();
    {
        ExportDialog charts_only(ExportView::Bucket, false);
        CHECK(charts_only.findChildren<QComboBox*>().front()->count() == 5);
        CHECK(charts_only.request().view == ExportView::Bucket);
        CHECK(charts_only.request().size == QSize(800, 450));
    }
    ExportDialog dialog(ExportView::Figure, true);
    auto* views = dialog.findChildren<QComboBox*>().front();
    CHECK(views->count() == 7);
    CHECK(dialog.request().size == defaultExportSize(ExportView::Figure));
    CHECK(dialog.request().path.endsWith(QStringLiteral("ratelab-figure.png")));
    // A size chosen for figures is remembered for figures, not for charts.
    dialog.findChildren<QSpinBox*>().front()->setValue(1200);
    dialog.accept();
    ExportDialog again(ExportView::Figure, true);
    CHECK(again.request().size.width() == 1200);
    ExportDialog chart(ExportView::Load, true);
    CHECK(chart.request().size.width() == 800);
    QSettings().clear();
}

TEST_CASE("export dialog: every label's shortcut leads to its field") {
    test::app();
    ExportDialog dialog(ExportView::Figure, true);
    int labelled = 0;
    for (const QLabel* label : dialog.findChildren<QLabel*>()) {
        if (!label->text().contains(QLatin1Char('&')))
            continue;
        INFO(label->text().toStdString());
        // Without a buddy a label draws its "&" literally and its shortcut goes nowhere.
        CHECK(label->buddy() != nullptr);
        ++labelled;
    }
    CHECK(labelled == 6);
}

TEST_CASE("export dialog: the preview draws what the file will hold, in its proportions") {
    test::app();
    QCoreApplication::setOrganizationName(QStringLiteral("RateLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("charts_tests"));
    QSettings().clear();
    ChartsPanel panel;
    panel.setResult(defaultResult());
    ExportDialog dialog(ExportView::Load, false);
    CHECK(dialog.previewImage().isNull());  // no preview asked for
    QStringList titles;
    dialog.setPreview([&](const ExportRequest& chosen) {
        titles << chosen.title;
        return panel.exportPainter(chosen, nullptr);
    });
    const QList<QSpinBox*> sizes = dialog.findChildren<QSpinBox*>();
    REQUIRE(sizes.size() == 2);
    const auto aspect = [](const QImage& image) {
        return static_cast<double>(image.width()) / image.height();
    };
    sizes[0]->setValue(1200);
    sizes[1]->setValue(300);
    QImage image = dialog.previewImage();
    REQUIRE(!image.isNull());
    CHECK(aspect(image) == Approx(4.0).epsilon(0.03));
    sizes[0]->setValue(600);
    sizes[1]->setValue(600);
    image = dialog.previewImage();
    CHECK(aspect(image) == Approx(1.0).epsilon(0.03));
    // The chart itself is in it: the fixed window's line among white paper.
    const QColor fixed = algorithmColor("fixed_window");
    int line = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            line += std::abs(pixel.red() - fixed.red()) + std::abs(pixel.green() - fixed.green()) +
                                std::abs(pixel.blue() - fixed.blue()) <
                            40
                        ? 1
                        : 0;
        }
    }
    CHECK(line > 20);
    // What is typed reaches the drawing.
    for (QLineEdit* field : dialog.findChildren<QLineEdit*>()) {
        if (field->placeholderText() == QStringLiteral("The default title"))
            field->setText(QStringLiteral("Mine"));
    }
    dialog.previewImage();
    CHECK(titles.last() == QStringLiteral("Mine"));
    QSettings().clear();
}

TEST_CASE("figure: drawn from the series it is given, as from those it computes") {
    test::app();
    FakeTimeline timeline;
    FigureRequest request = boundaryFigure(timeline);
    const QSize size = defaultExportSize(ExportView::Figure);
    const QByteArray computed = renderSvg(figurePainter(request), size, QString());
    request.series = std::make_shared<const ResultSeries>(
        compute_series(*request.result, chartSeriesOptions(*request.result, {})));
    CHECK(renderSvg(figurePainter(request), size, QString()) == computed);
    request.view = ExportView::Load;
    const QByteArray chart = renderSvg(figurePainter(request), size, QString());
    request.series.reset();
    CHECK(renderSvg(figurePainter(request), size, QString()) == chart);
    // Series of other settings are drawn as given: the app hands over those it shows.
    Params five = default_params();
    five.base.limit = 5;
    const auto other = simulate(request.result->trace, five);
    request.series = std::make_shared<const ResultSeries>(
        compute_series(*other, chartSeriesOptions(*other, {})));
    const QString drawn = QString::fromUtf8(renderSvg(figurePainter(request), size, QString()));
    CHECK(drawn.contains(QStringLiteral("L = 5")));
    CHECK_FALSE(QString::fromUtf8(chart).contains(QStringLiteral("L = 5")));
}
