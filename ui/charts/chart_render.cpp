#include "charts/chart_render.h"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QFile>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImageWriter>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <memory>

#include "charts/chart_builder.h"
#include "charts/chart_spec.h"
#include "charts/chart_theme.h"
#include "charts/export_file.h"

namespace ratelab::ui {
namespace {

constexpr double kInchesPerMeter = 39.3700787;

// The translation context of this file's texts, declared so that lupdate files them under it.
class ChartRenderText {
    Q_DECLARE_TR_FUNCTIONS(ChartRender)
};

}  // namespace

std::optional<ImageFormat> imageFormatFromName(const QString& name) {
    const QString lower = name.toLower();
    if (lower == QStringLiteral("png"))
        return ImageFormat::Png;
    if (lower == QStringLiteral("svg"))
        return ImageFormat::Svg;
    if (lower == QStringLiteral("pdf"))
        return ImageFormat::Pdf;
    return std::nullopt;
}

QString imageFormatName(ImageFormat format) {
    switch (format) {
        case ImageFormat::Png:
            return QStringLiteral("png");
        case ImageFormat::Svg:
            return QStringLiteral("svg");
        case ImageFormat::Pdf:
            return QStringLiteral("pdf");
    }
    return QString();
}

void paintChart(QPainter& painter, const QRectF& target, const ChartSpec& spec,
                const ChartTheme& theme, const std::optional<QRectF>& plot_area) {
    // A chart lives in a scene; a private one lays it out at the target size and renders it.
    QGraphicsScene scene;
    QChart* chart = ChartBuilder::build(spec, theme);
    scene.addItem(chart);  // the scene owns the chart from here
    const QRectF area(QPointF(0, 0), target.size());
    chart->setGeometry(area);
    chart->layout()->activate();
    // The first pass tells the axes how tall the plot is; labels that then thin out to fit it
    // are laid out by a second one.
    chart->layout()->activate();
    if (plot_area) {
        // Qt's own setPlotArea() moves the series but leaves the axes where the layout put
        // them; widening the margins by the difference moves both. Labels keep their widths,
        // so a second pass only corrects rounding.
        for (int pass = 0; pass < 2; ++pass) {
            const QRectF actual = chart->plotArea();
            QMargins margins = chart->margins();
            margins.setLeft(margins.left() + qRound(plot_area->left() - actual.left()));
            margins.setRight(margins.right() + qRound(actual.right() - plot_area->right()));
            margins.setTop(margins.top() + qRound(plot_area->top() - actual.top()));
            margins.setBottom(margins.bottom() + qRound(actual.bottom() - plot_area->bottom()));
            chart->setMargins(margins);
            chart->layout()->activate();
        }
    }
    scene.setSceneRect(area);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    scene.render(&painter, target, area, Qt::IgnoreAspectRatio);
    painter.restore();
}

PaintFunction printedChart(const ChartSpec& spec) {
    return [spec](QPainter& painter, const QRectF& target) {
        paintChart(painter, target, spec, ChartTheme::print());
    };
}

QImage renderImage(const PaintFunction& paint, QSize size, int scale) {
    scale = std::max(scale, 1);
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    // Only now: text sized in points is laid out at 96 dpi, and the file then says how many
    // pixels make an inch, so a 2x image shows at its logical size.
    const int dots_per_meter = static_cast<int>(96.0 * scale * kInchesPerMeter + 0.5);
    image.setDotsPerMeterX(dots_per_meter);
    image.setDotsPerMeterY(dots_per_meter);
    return image;
}

QByteArray renderSvg(const PaintFunction& paint, QSize size, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96);
    generator.setTitle(title);
    generator.setDescription(ChartRenderText::tr("Made with RateLab"));
    QPainter painter(&generator);
    paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    // The generator states the size in millimetres; pixels fit web pages and docs better.
    QByteArray svg = buffer.data();
    const qsizetype header = svg.indexOf("viewBox");
    const qsizetype width_at = svg.left(header).indexOf("width=\"");
    if (width_at >= 0) {
        svg.replace(width_at, header - width_at,
                    QStringLiteral("width=\"%1\" height=\"%2\"\n ")
                        .arg(size.width())
                        .arg(size.height())
                        .toUtf8());
    }
    return svg;
}

QByteArray renderPdf(const PaintFunction& paint, QSize size, const QString& title) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        // One logical pixel is one point: a 800 x 450 figure is an 800 x 450 pt page. The
        // writer works at 96 dpi, like the screen the layout was measured on, so text sized in
        // points comes out as in the PNG and SVG; the painter scales pixels to points.
        writer.setResolution(96);
        writer.setPageSize(
            QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Point);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("RateLab"));
        QPainter painter(&writer);
        painter.scale(96.0 / 72.0, 96.0 / 72.0);
        paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
        painter.end();
    }
    return buffer.data();
}

QString writeImageFile(const PaintFunction& paint, ImageFormat format, QSize size, int scale,
                       const QString& title, const QString& path) {
    if (size.width() < 1 || size.height() < 1)
        return ChartRenderText::tr("the image size %1 x %2 is too small")
            .arg(size.width())
            .arg(size.height());
    QByteArray bytes;
    if (format == ImageFormat::Png) {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QImageWriter writer(&buffer, "png");
        if (!writer.write(renderImage(paint, size, scale)))
            return ChartRenderText::tr("cannot write %1: %2").arg(path, writer.errorString());
    } else {
        bytes = format == ImageFormat::Svg ? renderSvg(paint, size, title)
                                           : renderPdf(paint, size, title);
    }
    // Written as a save is, so that a full disk leaves an earlier export as it was.
    const QString problem = exportBytes(
        path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    return problem.isEmpty() ? QString()
                             : ChartRenderText::tr("cannot write %1: %2").arg(path, problem);
}

}  // namespace ratelab::ui
