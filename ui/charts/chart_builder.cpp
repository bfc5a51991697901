#include "charts/chart_builder.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <cmath>
#include <tuple>
#include <utility>

#include "charts/chart_axes.h"

namespace ratelab::ui {
namespace {

// Dynamic properties that tie chart objects back to their spec.
constexpr char kLineIndex[] = "ratelab_line";
constexpr char kGroup[] = "ratelab_group";
constexpr char kCursor[] = "ratelab_cursor";
constexpr char kInLegend[] = "ratelab_in_legend";
constexpr char kBarValues[] = "ratelab_bar_values";
constexpr char kReferenceIndex[] = "ratelab_reference";
constexpr char kOverLimitBand[] = "ratelab_over_limit";

QScatterSeries::MarkerShape scatterShape(MarkerShape shape) {
    switch (shape) {
        case MarkerShape::Circle:
            return QScatterSeries::MarkerShapeCircle;
        case MarkerShape::Square:
            return QScatterSeries::MarkerShapeRectangle;
        case MarkerShape::Diamond:
            return QScatterSeries::MarkerShapeRotatedRectangle;
        case MarkerShape::Triangle:
            return QScatterSeries::MarkerShapeTriangle;
        case MarkerShape::Star:
            return QScatterSeries::MarkerShapeStar;
        case MarkerShape::Pentagon:
            return QScatterSeries::MarkerShapePentagon;
    }
    return QScatterSeries::MarkerShapeCircle;
}

QPen linePen(const QColor& color, double width, Qt::PenStyle style) {
    QPen pen(color, width, style, style == Qt::SolidLine ? Qt::SquareCap : Qt::FlatCap,
             Qt::MiterJoin);
    return pen;
}

QList<QPointF> horizontalPoints(double x0, double x1, double y) {
    return {QPointF(x0, y), QPointF(x1, y)};
}

QLineSeries* horizontalLine(double x0, double x1, double y) {
    auto* series = new QLineSeries;
    series->replace(horizontalPoints(x0, x1, y));
    return series;
}

/// The x span that the band and the reference lines cover: the time axis, or every bar.
std::pair<double, double> furnitureSpan(const ChartSpec& spec) {
    if (spec.bars)
        return {-0.5, static_cast<double>(spec.bars->values.size()) - 0.5};
    return {spec.x.min, spec.x.max};
}

struct Axes {
    QAbstractAxis* x = nullptr;
    QAbstractAxis* y = nullptr;
    QAbstractAxis* y2 = nullptr;
    double x_min = 0.0;
    double x_max = 1.0;
};

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void hideFromLegend(QChart* chart, QAbstractSeries* series) {
    for (QLegendMarker* marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

void addFurniture(QChart* chart, const ChartSpec& spec, const ChartTheme& theme, const Axes& axes) {
    if (spec.over_limit_from) {
        auto* upper = horizontalLine(axes.x_min, axes.x_max, spec.y.max);
        auto* lower = horizontalLine(axes.x_min, axes.x_max, *spec.over_limit_from);
        auto* band = new QAreaSeries(upper, lower);
        // An area series does not own its boundary lines: let it, so they go with the chart.
        upper->setParent(band);
        lower->setParent(band);
        band->setName(QStringLiteral("over limit"));
        band->setProperty(kOverLimitBand, true);
        band->setBrush(chart_colors::overLimitBrush());
        band->setPen(Qt::NoPen);
        attach(chart, band, axes.x, axes.y);
        hideFromLegend(chart, band);
    }
    for (qsizetype i = 0; i < spec.references.size(); ++i) {
        const ReferenceLine& ref = spec.references[i];
        auto* line = horizontalLine(axes.x_min, axes.x_max, ref.y);
        line->setName(ref.label);
        line->setProperty(kReferenceIndex, static_cast<int>(i));
        line->setPen(
            linePen(theme.visible(ref.color.isValid() ? ref.color : chart_colors::kReference), 1.5,
                    ref.style));
        attach(chart, line, axes.x, axes.y);
        // Without a free right-hand axis for its label, a reference line says what it is in
        // the legend.
        if (!spec.y2 || ref.label.isEmpty() || !ref.in_legend)
            hideFromLegend(chart, line);
    }
}

QAbstractSeries* makeSeries(const LineSpec& line, const ChartTheme& theme) {
    const QColor color = theme.visible(line.color);
    if (line.markers_only) {
        auto* scatter = new QScatterSeries;
        scatter->setMarkerShape(scatterShape(line.marker));
        scatter->setMarkerSize(line.marker_size);
        scatter->setColor(color);
        scatter->setBorderColor(color.darker(150));
        scatter->replace(line.points);
        return scatter;
    }
    auto* series = new QLineSeries;
    series->setPen(linePen(color, line.width, line.style));
    series->replace(line.points);
    return series;
}

QLineSeries* makeCursor(const ChartSpec& spec, const ChartTheme& theme) {
    auto* cursor = new QLineSeries;
    cursor->setName(QStringLiteral("now"));
    cursor->setProperty(kCursor, true);
    cursor->setPen(QPen(theme.visible(chart_colors::kCursor), 1.5, Qt::DashLine));
    if (spec.cursor) {
        cursor->append(*spec.cursor, spec.y.min);
        cursor->append(*spec.cursor, spec.y.max);
    }
    return cursor;
}

void addBars(QChart* chart, const ChartSpec& spec, const ChartTheme& theme, Axes& axes) {
    const BarsSpec& bars = *spec.bars;
    auto* series = new QStackedBarSeries;
    series->setBarWidth(0.6);
    // One set per bar, with a value only in its own category, so that each bar has its colour.
    for (qsizetype i = 0; i < bars.values.size(); ++i) {
        auto* set = new QBarSet(bars.categories[i]);
        for (qsizetype j = 0; j < bars.values.size(); ++j)
            set->append(i == j ? bars.values[i] : 0.0);
        set->setColor(theme.visible(bars.colors[i]));
        set->setBorderColor(theme.visible(bars.colors[i]).darker(140));
        set->setProperty(kGroup, bars.groups[i]);
        series->append(set);
    }
    auto* categories = new QBarCategoryAxis;
    // Two-word names go on two lines so that six of them fit under the bars.
    for (const QString& name : bars.categories)
        categories->append(
            QStringLiteral("<center>%1</center>")
                .arg(QString(name).replace(QLatin1Char(' '), QStringLiteral("<br>"))));
    styleAxis(categories, spec.x.title, theme, false);
    categories->setLabelsBrush(theme.text);
    axes.x = categories;
    chart->addAxis(categories, Qt::AlignBottom);
    chart->addAxis(axes.y, Qt::AlignLeft);
    addFurniture(chart, spec, theme, axes);
    attach(chart, series, axes.x, axes.y);
    // Values above the bars, as point labels of invisible markers: Qt's own bar labels come out
    // in a different order on every run, which would make exports differ byte for byte.
    auto* values = new QScatterSeries;
    for (qsizetype i = 0; i < bars.values.size(); ++i)
        values->append(static_cast<double>(i), bars.values[i]);
    values->setMarkerSize(1.0);
    values->setColor(Qt::transparent);
    values->setBorderColor(Qt::transparent);
    values->setPointLabelsVisible(true);
    values->setPointLabelsFormat(QStringLiteral("@yPoint"));
    values->setPointLabelsColor(theme.text);
    QFont font = theme.label_font;
    font.setBold(true);
    values->setPointLabelsFont(font);
    values->setPointLabelsClipping(false);
    values->setProperty(kBarValues, true);
    attach(chart, values, axes.x, axes.y);
    chart->legend()->setVisible(false);
}

QString titleHtml(const ChartSpec& spec, const ChartTheme& theme, bool compact) {
    QString title = spec.title.toHtmlEscaped();
    if (!spec.note.isEmpty()) {
        // The note says how to read the chart, so a short chart keeps it too: beside the
        // title, where it costs no height.
        title += QStringLiteral(
                     "%1<span style=\"font-weight:normal; font-size:%2px; color:%3\">"
                     "%4</span>")
                     .arg(compact ? QStringLiteral("&nbsp;&nbsp;&nbsp;") : QStringLiteral("<br>"))
                     .arg(theme.note_font.pixelSize())
                     .arg(theme.muted_text.name(), spec.note.toHtmlEscaped());
    }
    return title;
}

void styleChart(QChart* chart, const ChartSpec& spec, const ChartTheme& theme) {
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setDropShadowEnabled(false);
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(theme.background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundBrush(theme.plot_background);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setMargins(QMargins(6, 2, 10, 2));
    chart->setTitleFont(theme.title_font);
    chart->setTitleBrush(theme.text);
    chart->setTitle(titleHtml(spec, theme, false));
    QLegend* legend = chart->legend();
    legend->setAlignment(Qt::AlignBottom);
    legend->setFont(theme.legend_font);
    legend->setLabelColor(theme.text);
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries);
    legend->setBackgroundVisible(false);
}

}  // namespace

QChart* ChartBuilder::build(const ChartSpec& spec, const ChartTheme& theme) {
    auto* chart = new QChart;
    styleChart(chart, spec, theme);
    Axes axes;
    std::tie(axes.x_min, axes.x_max) = furnitureSpan(spec);
    axes.y = makeValueAxis(spec.y, theme, true, spec.kind == ChartKind::Cumulative);
    if (spec.bars) {
        addBars(chart, spec, theme, axes);
        chart->addAxis(makeReferenceAxis(spec, theme), Qt::AlignRight);
        return chart;
    }
    auto* x = new QValueAxis;
    applyRange(x, spec.x);
    styleAxis(x, spec.x.title, theme, true);
    axes.x = x;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(axes.y, Qt::AlignLeft);
    if (spec.y2) {
        axes.y2 = makeValueAxis(*spec.y2, theme, false, false);
        chart->addAxis(axes.y2, Qt::AlignRight);
    } else if (!spec.references.isEmpty()) {
        chart->addAxis(makeReferenceAxis(spec, theme), Qt::AlignRight);
    }
    addFurniture(chart, spec, theme, axes);
    for (qsizetype i = 0; i < spec.lines.size(); ++i) {
        const LineSpec& line = spec.lines[i];
        QAbstractSeries* series = makeSeries(line, theme);
        series->setName(line.label);
        series->setProperty(kLineIndex, static_cast<int>(i));
        series->setProperty(kGroup, line.group);
        series->setProperty(kInLegend, line.in_legend);
        attach(chart, series, axes.x, line.secondary_axis && axes.y2 ? axes.y2 : axes.y);
        if (!line.in_legend)
            hideFromLegend(chart, series);
    }
    QLineSeries* cursor = makeCursor(spec, theme);
    attach(chart, cursor, axes.x, axes.y);
    hideFromLegend(chart, cursor);
    if (auto* magnitudes = qobject_cast<QCategoryAxis*>(axes.y)) {
        // Only the laid-out chart knows how tall its plot is, and so how many labels fit.
        QObject::connect(
            chart, &QChart::plotAreaChanged, magnitudes,
            [magnitudes](const QRectF& plot) { fitMagnitudeLabels(magnitudes, plot.height()); });
    }
    return chart;
}

void ChartBuilder::refill(QChart* chart, const ChartSpec& spec) {
    // A spec of the same shape has the same limits, but not the same time span or y range:
    // the band and the reference lines are stretched over the new ones.
    const auto [x_min, x_max] = furnitureSpan(spec);
    for (QAbstractSeries* series : chart->series()) {
        if (auto* band = qobject_cast<QAreaSeries*>(series)) {
            if (band->property(kOverLimitBand).toBool() && spec.over_limit_from) {
                band->upperSeries()->replace(horizontalPoints(x_min, x_max, spec.y.max));
                band->lowerSeries()->replace(horizontalPoints(x_min, x_max, *spec.over_limit_from));
            }
            continue;
        }
        if (auto* bars = qobject_cast<QStackedBarSeries*>(series)) {
            const QList<QBarSet*> sets = bars->barSets();
            for (qsizetype i = 0; i < sets.size() && spec.bars && i < spec.bars->values.size(); ++i)
                sets[i]->replace(static_cast<int>(i), spec.bars->values[i]);
            continue;
        }
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (xy == nullptr)
            continue;
        const QVariant index = xy->property(kLineIndex);
        const QVariant reference = xy->property(kReferenceIndex);
        if (reference.isValid() && reference.toInt() < spec.references.size()) {
            xy->replace(horizontalPoints(x_min, x_max, spec.references[reference.toInt()].y));
        } else if (xy->property(kBarValues).toBool() && spec.bars) {
            QList<QPointF> points;
            for (qsizetype i = 0; i < spec.bars->values.size(); ++i)
                points.append(QPointF(static_cast<double>(i), spec.bars->values[i]));
            xy->replace(points);
        } else if (index.isValid() && index.toInt() < spec.lines.size()) {
            const LineSpec& line = spec.lines[index.toInt()];
            xy->replace(line.points);
            // Dense lines drop their dash pattern (see the spec); it comes back on zooming in.
            if (qobject_cast<QLineSeries*>(xy) != nullptr && xy->pen().style() != line.style)
                xy->setPen(linePen(xy->pen().color(), line.width, line.style));
        } else if (xy->property(kCursor).toBool()) {
            QList<QPointF> points;
            if (spec.cursor)
                points = {QPointF(*spec.cursor, spec.y.min), QPointF(*spec.cursor, spec.y.max)};
            xy->replace(points);
        }
    }
    const QList<QAbstractAxis*> horizontal = chart->axes(Qt::Horizontal);
    if (!spec.bars && !horizontal.isEmpty()) {
        if (auto* x = qobject_cast<QValueAxis*>(horizontal.front()))
            applyRange(x, spec.x);
    }
    const QList<QAbstractAxis*> vertical = chart->axes(Qt::Vertical);
    for (QAbstractAxis* axis : vertical) {
        if (auto* value = qobject_cast<QValueAxis*>(axis)) {
            const bool right = value->alignment() == Qt::AlignRight;
            applyRange(value, right && spec.y2 ? *spec.y2 : spec.y);
        } else if (auto* categories = qobject_cast<QCategoryAxis*>(axis)) {
            if (axis->alignment() == Qt::AlignLeft)
                applyMagnitudeLabels(categories, spec.y);
            else
                categories->setRange(spec.y.min, spec.y.max);
        }
    }
}

void ChartBuilder::setCompact(QChart* chart, const ChartSpec& spec, const ChartTheme& theme,
                              bool compact) {
    chart->setTitle(titleHtml(spec, theme, compact));
    chart->legend()->setAlignment(compact ? Qt::AlignRight : Qt::AlignBottom);
    chart->setMargins(compact ? QMargins(2, 0, 4, 0) : QMargins(6, 2, 10, 2));
    // Qt keeps each entry's text as it was cut to fit under the plot; giving the labels again
    // lays them out for the legend's new place.
    for (QLegendMarker* marker : chart->legend()->markers())
        marker->setLabel(marker->label());
}

void ChartBuilder::setGroupVisible(QChart* chart, const QString& group, bool visible) {
    for (QAbstractSeries* series : chart->series()) {
        if (groupOf(series) != group)
            continue;
        series->setVisible(visible);
        // Qt hides the legend entry of a hidden series; keep it, dimmed, so it can be clicked
        // back on.
        const bool in_legend = series->property(kInLegend).toBool();
        for (QLegendMarker* marker : chart->legend()->markers(series)) {
            marker->setVisible(in_legend);
            QColor label = marker->labelBrush().color();
            label.setAlphaF(visible ? 1.0f : 0.35f);
            marker->setLabelBrush(label);
            QPen pen = marker->pen();
            QColor line = pen.color();
            line.setAlphaF(visible ? 1.0f : 0.25f);
            pen.setColor(line);
            marker->setPen(pen);
        }
    }
}

QString ChartBuilder::groupOf(const QObject* series) {
    return series == nullptr ? QString() : series->property(kGroup).toString();
}

}  // namespace ratelab::ui
