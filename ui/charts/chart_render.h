#pragma once

#include <QByteArray>
#include <QImage>
#include <QRectF>
#include <QSize>
#include <QString>
#include <functional>
#include <optional>

class QPainter;

namespace ratelab::ui {

struct ChartSpec;
struct ChartTheme;

/// Draws something (a chart, the timeline, a figure) into `target` in logical pixels.
using PaintFunction = std::function<void(QPainter& painter, const QRectF& target)>;

enum class ImageFormat { Png, Svg, Pdf };

/// "png", "svg", "pdf" (any case); nothing for anything else.
std::optional<ImageFormat> imageFormatFromName(const QString& name);
QString imageFormatName(ImageFormat format);

/// Draws `spec` into `target` with the same builder the live charts use. `plot_area`, in
/// target coordinates, pins the plot (to line it up with something drawn beside it).
void paintChart(QPainter& painter, const QRectF& target, const ChartSpec& spec,
                const ChartTheme& theme, const std::optional<QRectF>& plot_area = std::nullopt);
/// paintChart() in the print theme, as a PaintFunction.
PaintFunction printedChart(const ChartSpec& spec);

/// `size` logical pixels drawn at `scale` device pixels each: the image is size * scale pixels
/// and remembers its scale in its resolution metadata (96 dpi per 1x).
QImage renderImage(const PaintFunction& paint, QSize size, int scale);
/// SVG with text kept as text, `size` user units.
QByteArray renderSvg(const PaintFunction& paint, QSize size, const QString& title);
/// A one-page PDF, `size` points, fonts embedded.
QByteArray renderPdf(const PaintFunction& paint, QSize size, const QString& title);

/// Writes `paint` to `path`; returns an empty string, or what went wrong.
QString writeImageFile(const PaintFunction& paint, ImageFormat format, QSize size, int scale,
                       const QString& title, const QString& path);

}  // namespace ratelab::ui
