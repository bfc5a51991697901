// Figures and the export dialog, with a stand-in for the app's timeline.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>

#include "catch.h"
#include "charts/charts_panel.h"
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

}  // namespace

TEST_CASE("figure: title, timeline, table, chart and caption, in the print theme") {
    test::app();
    FakeTimeline timeline;
    FigureRequest request;
    request.view = ExportView::Figure;
    request.result = defaultResult();
    request.scenario = QStringLiteral("Boundary burst");
    request.timeline = timeline.painter();
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
