// Exported charts: well-formed SVG with its labels as text, PNGs of the requested size that show
// something, one-page PDFs of the requested size, and byte-identical repeats.
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include "catch.h"
#include "charts/chart_render.h"
#include "charts/chart_specs.h"
#include "full_disk.h"
#include "qt_app.h"
#include "ratelab/registry.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

ChartInput defaultInput(int columns = 800) {
    test::app();
    auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    return wholeTraceInput(result, columns);
}

/// Every text node of an SVG document, joined by spaces; fails the test on malformed XML.
QString svgText(const QByteArray& svg) {
    QXmlStreamReader xml(svg);
    QStringList texts;
    bool in_text = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QStringLiteral("text"))
            in_text = true;
        else if (xml.isEndElement() && xml.name() == QStringLiteral("text"))
            in_text = false;
        else if (xml.isCharacters() && in_text)
            texts << xml.text().toString().trimmed();
    }
    INFO(xml.errorString().toStdString());
    REQUIRE_FALSE(xml.hasError());
    return texts.join(QLatin1Char(' '));
}

}  // namespace

TEST_CASE("export: an SVG is well-formed and keeps legend labels and axis titles as text") {
    const ChartInput input = defaultInput();
    for (const ChartKind kind : kAllChartKinds) {
        INFO(chartKindName(kind).toStdString());
        const ChartSpec spec = buildChartSpec(kind, input);
        const QString text = svgText(renderSvg(printedChart(spec), QSize(800, 450), spec.title));
        CHECK(text.contains(spec.title));
        CHECK(text.contains(spec.y.title));
        if (kind != ChartKind::Worst)
            CHECK(text.contains(spec.x.title));
        for (const LineSpec& line : spec.lines) {
            if (line.in_legend)
                CHECK(text.contains(line.label));
        }
    }
    const QString load = svgText(renderSvg(printedChart(buildChartSpec(ChartKind::Load, input)),
                                           QSize(800, 450), QString()));
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        INFO(info->name);
        CHECK(load.contains(QString::fromStdString(info->name)));
    }
    CHECK(load.contains(QStringLiteral("L = 4")));
    CHECK(load.contains(QStringLiteral("2L = 8")));
}

TEST_CASE("export: an SVG states its size in pixels") {
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, defaultInput());
    const QByteArray svg = renderSvg(printedChart(spec), QSize(640, 360), spec.title);
    CHECK(svg.contains("width=\"640\" height=\"360\""));
    CHECK(svg.contains("viewBox=\"0 0 640 360\""));
}

TEST_CASE("export: the same input renders to the same SVG bytes") {
    const ChartInput input = defaultInput();
    for (const ChartKind kind : kAllChartKinds) {
        INFO(chartKindName(kind).toStdString());
        const QByteArray first =
            renderSvg(printedChart(buildChartSpec(kind, input)), QSize(800, 450), QString());
        const QByteArray second = renderSvg(printedChart(buildChartSpec(kind, defaultInput())),
                                            QSize(800, 450), QString());
        CHECK(first == second);
    }
}

TEST_CASE("export: a PNG has the requested size at each scale and is not blank") {
    const ChartSpec spec = buildChartSpec(ChartKind::Load, defaultInput(1600));
    for (const int scale : {1, 2, 3}) {
        INFO("scale " << scale);
        const QImage image = renderImage(printedChart(spec), QSize(700, 400), scale);
        CHECK(image.width() == 700 * scale);
        CHECK(image.height() == 400 * scale);
        // Not blank: a good share of pixels are not white, and the algorithms' colours show.
        QSet<QRgb> colours;
        qint64 inked = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2) {
                const QRgb pixel = image.pixel(x, y);
                colours.insert(pixel);
                inked += pixel != qRgb(255, 255, 255) ? 1 : 0;
            }
        }
        CHECK(colours.size() > 50);
        CHECK(inked > image.width() * image.height() / 4 / 50);
        CHECK(colours.contains(algorithmColor("fixed_window").rgb()));
    }
}

TEST_CASE("export: a PDF is one page of the requested size with embedded fonts") {
    const ChartSpec spec = buildChartSpec(ChartKind::Worst, defaultInput());
    const QByteArray pdf = renderPdf(printedChart(spec), QSize(720, 405), spec.title);
    REQUIRE(pdf.startsWith("%PDF-"));
    const QString text = QString::fromLatin1(pdf);
    CHECK(text.count(QRegularExpression(QStringLiteral("/Type\\s*/Page[^s]"))) == 1);
    const QRegularExpression media(
        QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([\\d.]+)\\s+([\\d.]+)"));
    const QRegularExpressionMatch match = media.match(text);
    REQUIRE(match.hasMatch());
    CHECK(match.captured(1).toDouble() == 720.0);
    CHECK(match.captured(2).toDouble() == 405.0);
    CHECK(text.contains(QStringLiteral("/FontFile2")));
}

TEST_CASE("export: writing files reports problems instead of failing silently") {
    const ChartSpec spec = buildChartSpec(ChartKind::Load, defaultInput());
    const QString missing = QStringLiteral("/nonexistent-folder/chart.svg");
    CHECK_FALSE(
        writeImageFile(printedChart(spec), ImageFormat::Svg, QSize(400, 300), 1, QString(), missing)
            .isEmpty());
    CHECK_FALSE(writeImageFile(printedChart(spec), ImageFormat::Png, QSize(0, 300), 1, QString(),
                               QStringLiteral("x.png"))
                    .isEmpty());
    CHECK(imageFormatFromName(QStringLiteral("SVG")) == ImageFormat::Svg);
    CHECK_FALSE(imageFormatFromName(QStringLiteral("gif")).has_value());
}

TEST_CASE("export: a full disk leaves an earlier export as it was") {
    const ChartSpec spec = buildChartSpec(ChartKind::Load, defaultInput());
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    for (const ImageFormat format : {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf}) {
        INFO(imageFormatName(format).toStdString());
        const QString path = dir.filePath(QStringLiteral("chart.") + imageFormatName(format));
        const QByteArray earlier("an earlier export, which a failed one must not touch");
        {
            QFile file(path);
            REQUIRE(file.open(QIODevice::WriteOnly));
            REQUIRE(file.write(earlier) == earlier.size());
        }
        QString problem;
        {
            const test::FullDiskAfter full(2048);  // every format here is larger than that
            problem =
                writeImageFile(printedChart(spec), format, QSize(800, 450), 2, spec.title, path);
        }
        CHECK_FALSE(problem.isEmpty());
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(file.readAll() == earlier);
    }
}
