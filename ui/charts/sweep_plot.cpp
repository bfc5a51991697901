// The sweep chart's geometry and painting (sweep_plot.h).
#include "charts/sweep_plot.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "charts/chart_theme.h"
#include "charts/palette.h"

namespace ratelab::ui {

namespace {

constexpr double kTop = 84.0;         // title, note and the y title
constexpr double kTopCompact = 26.0;  // the y title only
/// Below this height the chart leaves out its title and note (a short dock on screen; the
/// panel's own controls say what is shown).
constexpr double kCompactHeight = 300.0;
constexpr double kLeft = 70.0;    // y labels
constexpr double kBottom = 48.0;  // x labels and title
constexpr double kRightLine = 28.0;
constexpr double kRightHeat = 92.0;  // the colour scale
constexpr double kHitPixels = 14.0;

/// 1, 2 or 5 times a power of ten, so that [0, max] has about `ticks` labelled steps.
double niceStep(double max, int ticks) {
    if (!(max > 0.0))
        return 0.2;
    const double raw = max / ticks;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (raw <= factor * power)
            return factor * power;
    }
    return 10.0 * power;
}

QString number(double value, double step) {
    const int places = step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
    return QString::number(value, 'f', std::clamp(places, 0, 4));
}

/// Every how many labels one is drawn, so that they keep `room` pixels apart.
int labelEvery(double spacing, double room) {
    if (spacing <= 0.0)
        return 1;
    return std::max(1, static_cast<int>(std::ceil(room / spacing)));
}

void paintTitles(QPainter& painter, const QRectF& target, const SweepPlotSpec& spec,
                 const ChartTheme& theme) {
    painter.setPen(theme.text);
    painter.setFont(theme.title_font);
    const QRectF title(target.left() + 12, target.top() + 8, target.width() - 24, 26);
    painter.drawText(title, Qt::AlignLeft | Qt::AlignVCenter, spec.title);
    painter.setPen(theme.muted_text);
    painter.setFont(theme.note_font);
    painter.drawText(QRectF(title.left(), title.bottom(), title.width(), 20),
                     Qt::AlignLeft | Qt::AlignVCenter, spec.note);
}

/// The x title under the axis; the y title level, above the y labels, where a short chart
/// still has room for all of it.
void paintAxisTitles(QPainter& painter, const QRectF& plot, const QString& x, const QString& y,
                     const ChartTheme& theme) {
    painter.setPen(theme.text);
    painter.setFont(theme.axis_title_font);
    painter.drawText(QRectF(plot.left(), plot.bottom() + 26, plot.width(), 20), Qt::AlignCenter, x);
    painter.drawText(QRectF(plot.left() - kLeft + 12, plot.top() - 24, plot.width(), 18),
                     Qt::AlignLeft | Qt::AlignVCenter, y);
}

/// A label beside a mark, on its right unless that would leave `plot`.
void paintMarkLabel(QPainter& painter, QPointF at, const QString& label, const QColor& color,
                    const ChartTheme& theme, const QRectF& plot) {
    painter.setFont(theme.label_font);
    const QFontMetricsF metrics(theme.label_font);
    const double width = metrics.horizontalAdvance(label) + 8;
    const double left = at.x() + 6 + width <= plot.right() + 20 ? at.x() + 6 : at.x() - 6 - width;
    const QRectF box(left, at.y() - metrics.height() - 6, width, metrics.height() + 2);
    painter.setPen(Qt::NoPen);
    painter.setBrush(theme.background);
    painter.drawRect(box);
    painter.setPen(color);
    painter.drawText(box, Qt::AlignCenter, label);
}

void paintLine(QPainter& painter, const SweepPlotGeometry& geometry, const SweepPlotSpec& spec,
               const ChartTheme& theme, std::optional<int> hovered) {
    const QRectF plot = geometry.plot();
    painter.setFont(theme.label_font);
    for (double v = 0.0; v <= geometry.scaleMax() + 1e-9; v += geometry.scaleStep()) {
        const double y = geometry.yOf(v);
        painter.setPen(QPen(theme.grid, 1));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(theme.muted_text);
        painter.drawText(QRectF(plot.left() - 58, y - 9, 52, 18), Qt::AlignRight | Qt::AlignVCenter,
                         number(v, geometry.scaleStep()));
    }
    painter.setPen(QPen(theme.axis_line, 1));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    const int count = spec.columns();
    const double spacing = count > 1 ? plot.width() / (count - 1) : plot.width();
    const int every = labelEvery(spacing, 44.0);
    painter.setPen(theme.muted_text);
    for (int i = 0; i < count; i += every) {
        const double x = geometry.xOf(spec.x_positions[i]);
        painter.drawText(QRectF(x - 40, plot.bottom() + 6, 80, 18), Qt::AlignCenter,
                         spec.x_labels[i]);
    }
    const QColor color = theme.visible(spec.color);
    QPainterPath path;
    bool open = false;
    for (int i = 0; i < count; ++i) {
        if (!spec.values[i]) {
            open = false;
            continue;
        }
        const QPointF at = geometry.pointAt(i);
        open ? path.lineTo(at) : path.moveTo(at);
        open = true;
    }
    painter.setPen(QPen(color, 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    painter.setBrush(color);
    painter.setPen(QPen(theme.background, 1));
    for (int i = 0; i < count; ++i) {
        if (spec.values[i]) {
            const double r = hovered == i ? 6.0 : 3.6;
            painter.drawEllipse(geometry.pointAt(i), r, r);
        }
    }
    if (spec.marked && spec.values.value(*spec.marked)) {
        const QPointF at = geometry.pointAt(*spec.marked);
        painter.setPen(QPen(chart_colors::kOverLimitText, 1.5, Qt::DashLine));
        painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
        paintMarkLabel(painter, QPointF(at.x(), plot.top() + 20), spec.marked_label,
                       chart_colors::kOverLimitText, theme, plot);
    }
    if (const auto x = spec.frontier.isEmpty() ? std::nullopt
                                               : geometry.frontierX(spec.frontier.front().value_or(
                                                     std::numeric_limits<double>::quiet_NaN()))) {
        painter.setPen(QPen(chart_colors::kFrontier, 1.8, Qt::DashDotLine));
        painter.drawLine(QPointF(*x, plot.top()), QPointF(*x, plot.bottom()));
        paintMarkLabel(painter, QPointF(*x, plot.bottom() - 8), spec.frontier_label,
                       chart_colors::kFrontier, theme, plot);
    }
    if (spec.current) {
        const QPointF at = geometry.pointAt(*spec.current);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(chart_colors::kCursor, 2.5));
        painter.drawEllipse(at, 8.0, 8.0);
        paintMarkLabel(painter, at, QObject::tr("now"), chart_colors::kCursor, theme, plot);
    }
    paintAxisTitles(painter, plot, spec.x_title, spec.value_title, theme);
}

void paintScale(QPainter& painter, const SweepPlotGeometry& geometry, const SweepPlotSpec& spec,
                const ChartTheme& theme) {
    const QRectF plot = geometry.plot();
    const QRectF bar(plot.right() + 18, plot.top(), 14, plot.height());
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        const double v = geometry.scaleMax() * (1.0 - y / bar.height());
        painter.setPen(heatColor(v, geometry.scaleMax()));
        painter.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    painter.setFont(theme.label_font);
    painter.setPen(theme.muted_text);
    for (double v = 0.0; v <= geometry.scaleMax() + 1e-9; v += geometry.scaleStep()) {
        const double y = bar.bottom() - v / geometry.scaleMax() * bar.height();
        painter.drawText(QRectF(bar.right() + 4, y - 9, 50, 18), Qt::AlignLeft | Qt::AlignVCenter,
                         number(v, geometry.scaleStep()));
    }
    painter.setPen(theme.text);
    painter.setFont(theme.axis_title_font);
    painter.drawText(QRectF(bar.right() + 60 - 300, plot.top() - 24, 300, 18),
                     Qt::AlignRight | Qt::AlignVCenter, spec.value_title);
}

void paintHeatmap(QPainter& painter, const SweepPlotGeometry& geometry, const SweepPlotSpec& spec,
                  const ChartTheme& theme, std::optional<int> hovered) {
    const QRectF plot = geometry.plot();
    const int columns = spec.columns();
    const int rows = spec.rows();
    painter.setFont(theme.label_font);
    const QFontMetricsF metrics(theme.label_font);
    for (int i = 0; i < static_cast<int>(spec.values.size()); ++i) {
        const QRectF cell = geometry.cellAt(i);
        const auto& value = spec.values[i];
        // Cells abut: antialiased edges would show the background through as seams.
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setPen(Qt::NoPen);
        painter.setBrush(value ? QBrush(heatColor(*value, geometry.scaleMax()))
                               : QBrush(theme.grid, Qt::BDiagPattern));
        painter.drawRect(cell.adjusted(0, -0.5, 0.5, 0));  // overlap by a rounding's worth
        painter.setRenderHint(QPainter::Antialiasing, true);
        const QString& text = spec.value_texts.value(i);
        if (value && cell.width() > metrics.horizontalAdvance(text) + 6 &&
            cell.height() > metrics.height() + 2) {
            const QColor fill = heatColor(*value, geometry.scaleMax());
            painter.setPen(fill.lightnessF() < 0.55 ? Qt::white : QColor(0x1A, 0x1A, 0x1A));
            painter.drawText(cell, Qt::AlignCenter, text);
        }
    }
    painter.setPen(theme.muted_text);
    const double width = plot.width() / columns;
    const int every_x = labelEvery(width, 44.0);
    for (int i = 0; i < columns; i += every_x) {
        painter.drawText(
            QRectF(plot.left() + i * width + width / 2 - 40, plot.bottom() + 6, 80, 18),
            Qt::AlignCenter, spec.x_labels[i]);
    }
    const double height = plot.height() / rows;
    const int every_y = labelEvery(height, 20.0);
    for (int j = 0; j < rows; j += every_y) {
        const double y = plot.bottom() - j * height - height / 2;
        painter.drawText(QRectF(plot.left() - 58, y - 9, 52, 18), Qt::AlignRight | Qt::AlignVCenter,
                         spec.y_labels[j]);
    }
    painter.setBrush(Qt::NoBrush);
    if (spec.marked) {
        painter.setPen(QPen(chart_colors::kOverLimitText, 2.5, Qt::DashLine));
        painter.drawRect(geometry.cellAt(*spec.marked).adjusted(1, 1, -1, -1));
    }
    // The frontier crosses each row at the edge of its cells that reject nothing: vermillion on
    // a white halo, legible on any heat.
    for (int row = 0; row < spec.frontier.size() && row < rows; ++row) {
        const auto x = geometry.frontierX(
            spec.frontier[row].value_or(std::numeric_limits<double>::quiet_NaN()));
        if (!x)
            continue;
        const double bottom = plot.bottom() - row * height;
        const QLineF tick(*x, bottom - 1, *x, bottom - height + 1);
        painter.setPen(QPen(Qt::white, 5.0, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(tick);
        painter.setPen(QPen(chart_colors::kFrontier, 2.5, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(tick);
    }
    if (spec.current) {
        painter.setPen(QPen(chart_colors::kCursor, 3.0));
        painter.drawRect(geometry.cellAt(*spec.current).adjusted(1.5, 1.5, -1.5, -1.5));
    }
    if (hovered) {
        painter.setPen(QPen(theme.text, 1.5));
        painter.drawRect(geometry.cellAt(*hovered));
    }
    paintScale(painter, geometry, spec, theme);
    paintAxisTitles(painter, plot, spec.x_title, spec.y_title, theme);
}

}  // namespace

SweepPlotGeometry::SweepPlotGeometry(const SweepPlotSpec& spec, const QRectF& target)
    : spec_(spec) {
    const double right = spec.isHeatmap() ? kRightHeat : kRightLine;
    const double top = target.height() < kCompactHeight ? kTopCompact : kTop;
    plot_ = QRectF(target.left() + kLeft, target.top() + top,
                   std::max(1.0, target.width() - kLeft - right),
                   std::max(1.0, target.height() - top - kBottom));
    if (!spec.x_positions.isEmpty()) {
        const auto [lo, hi] = std::minmax_element(spec.x_positions.begin(), spec.x_positions.end());
        x_min_ = *lo;
        x_max_ = *hi;
    }
    if (x_max_ <= x_min_) {
        x_min_ -= 1.0;
        x_max_ += 1.0;
    }
    const double pad = (x_max_ - x_min_) * 0.04;
    x_min_ -= pad;
    x_max_ += pad;
    double largest = 0.0;
    for (const auto& value : spec.values) {
        if (value)
            largest = std::max(largest, *value);
    }
    // Fewer labelled steps on a short plot, so that labels keep apart.
    const int steps =
        std::clamp(static_cast<int>(plot_.height() / 40.0), 1, spec.isHeatmap() ? 4 : 5);
    scale_step_ = niceStep(largest, steps);
    scale_max_ = std::max(scale_step_, std::ceil(largest / scale_step_ - 1e-9) * scale_step_);
}

double SweepPlotGeometry::xOf(double position) const {
    return plot_.left() + (position - x_min_) / (x_max_ - x_min_) * plot_.width();
}

std::optional<double> SweepPlotGeometry::frontierX(double value) const {
    const QList<double>& at = spec_.x_positions;
    if (at.isEmpty() || std::isnan(value))
        return std::nullopt;
    if (!spec_.isHeatmap()) {
        const auto [lo, hi] = std::minmax_element(at.begin(), at.end());
        if (value < *lo || value > *hi)
            return std::nullopt;
        return xOf(value);
    }
    std::optional<int> edge;  // the nearest column on the side that rejects nothing
    for (int i = 0; i < at.size(); ++i) {
        const bool fits = spec_.frontier_at_most ? at[i] <= value : at[i] >= value;
        if (fits && (!edge || (spec_.frontier_at_most ? at[i] > at[*edge] : at[i] < at[*edge])))
            edge = i;
    }
    if (!edge)
        return std::nullopt;
    const QRectF cell = cellAt(*edge * spec_.rows());
    return spec_.frontier_at_most ? cell.right() : cell.left();
}

double SweepPlotGeometry::yOf(double value) const {
    return plot_.bottom() - value / scale_max_ * plot_.height();
}

QRectF SweepPlotGeometry::cellAt(int index) const {
    const int rows = spec_.rows();
    const int column = index / rows;
    const int row = index % rows;
    const double width = plot_.width() / std::max(1, spec_.columns());
    const double height = plot_.height() / rows;
    return QRectF(plot_.left() + column * width, plot_.bottom() - (row + 1) * height, width,
                  height);
}

QPointF SweepPlotGeometry::pointAt(int index) const {
    if (spec_.isHeatmap())
        return cellAt(index).center();
    return QPointF(xOf(spec_.x_positions.value(index)), yOf(spec_.values.value(index).value_or(0)));
}

std::optional<int> SweepPlotGeometry::hit(QPointF position) const {
    if (spec_.values.isEmpty())
        return std::nullopt;
    if (spec_.isHeatmap()) {
        if (!plot_.contains(position))
            return std::nullopt;
        const int column = std::min(
            spec_.columns() - 1,
            static_cast<int>((position.x() - plot_.left()) / plot_.width() * spec_.columns()));
        const int row = std::min(
            spec_.rows() - 1,
            static_cast<int>((plot_.bottom() - position.y()) / plot_.height() * spec_.rows()));
        return column * spec_.rows() + row;
    }
    if (position.y() < plot_.top() - kHitPixels || position.y() > plot_.bottom() + kHitPixels)
        return std::nullopt;
    std::optional<int> nearest;
    double best = kHitPixels;
    for (int i = 0; i < spec_.columns(); ++i) {
        const double distance = std::abs(xOf(spec_.x_positions[i]) - position.x());
        if (distance <= best) {
            best = distance;
            nearest = i;
        }
    }
    return nearest;
}

QColor heatColor(double value, double max) {
    // Viridis' key colours, light for little: a scale that reads in grey and to the colour-blind.
    static constexpr std::array<QRgb, 5> kStops = {0xFDE725, 0x5EC962, 0x21918C, 0x3B528B,
                                                   0x440154};
    const double t = max > 0.0 ? std::clamp(value / max, 0.0, 1.0) : 0.0;
    const double scaled = t * (kStops.size() - 1);
    const auto low = std::min(static_cast<std::size_t>(scaled), kStops.size() - 2);
    const double f = scaled - static_cast<double>(low);
    const QColor a(kStops[low]);
    const QColor b(kStops[low + 1]);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

void paintSweepPlot(QPainter& painter, const QRectF& target, const SweepPlotSpec& spec,
                    const ChartTheme& theme, std::optional<int> hovered) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(target, theme.background);
    if (target.height() >= kCompactHeight)
        paintTitles(painter, target, spec, theme);
    const SweepPlotGeometry geometry(spec, target);
    if (spec.values.isEmpty()) {
        painter.setPen(theme.muted_text);
        painter.setFont(theme.note_font);
        painter.drawText(geometry.plot(), Qt::AlignCenter, QObject::tr("No points to show."));
    } else if (spec.isHeatmap()) {
        paintHeatmap(painter, geometry, spec, theme, hovered);
    } else {
        paintLine(painter, geometry, spec, theme, hovered);
    }
    painter.restore();
}

PaintFunction printedSweepPlot(const SweepPlotSpec& spec) {
    return [spec](QPainter& painter, const QRectF& target) {
        paintSweepPlot(painter, target, spec, ChartTheme::print());
    };
}

}  // namespace ratelab::ui
