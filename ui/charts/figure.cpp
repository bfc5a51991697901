#include "charts/figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStringList>
#include <stdexcept>

#include "charts/chart_specs.h"
#include "charts/chart_theme.h"
#include "charts/comparison_table.h"

namespace ratelab::ui {
namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class FigureText {
    Q_DECLARE_TR_FUNCTIONS(Figure)
};

constexpr ExportView kViews[] = {ExportView::Load,   ExportView::Cumulative, ExportView::Queue,
                                 ExportView::Bucket, ExportView::Worst,      ExportView::Timeline,
                                 ExportView::Figure};

// Figure geometry, in logical pixels.
constexpr double kMargin = 18.0;
constexpr double kGap = 14.0;
/// Room right of the timeline for the chart's reference labels ("2L = 8").
constexpr double kChartLabelRoom = 64.0;
/// A chart's title and note above its plot, and axis labels, axis title and legend below it.
constexpr double kChartTop = 64.0;
constexpr double kChartBottom = 92.0;

/// The whole trace in timeline cells: tick t spans [t, t + 1).
std::pair<double, double> timelineSpan(const SimulationResult& result) {
    SeriesOptions options;
    options.only_span = true;
    return defaultTimeSpan(compute_series(result, options));
}

/// The whole trace's chart input over `columns` pixel columns, from the request's series when
/// it has them.
ChartInput wholeInput(const FigureRequest& request, int columns) {
    return request.series ? wholeTraceInput(request.result, request.series, columns)
                          : wholeTraceInput(request.result, columns, request.keys);
}

PrintedTimelineOptions printedOptions(const FigureRequest& request) {
    return PrintedTimelineOptions{request.keys, request.notes, request.split_by_key};
}

PaintFunction timelinePainter(const FigureRequest& request) {
    const auto [from, to] = timelineSpan(*request.result);
    return [request, from, to](QPainter& painter, const QRectF& target) {
        painter.fillRect(target, Qt::white);
        request.timeline(painter, target, request.result, from, to, printedOptions(request));
    };
}

void paintFigure(QPainter& painter, const QRectF& target, const FigureRequest& request) {
    const ChartTheme theme = ChartTheme::print();
    const auto [from, to] = timelineSpan(*request.result);
    painter.fillRect(target, Qt::white);
    const double left = target.left() + kMargin;
    const double width = target.width() - 2 * kMargin;
    double y = target.top() + kMargin;

    QFont title_font = theme.title_font;
    title_font.setPixelSize(theme.title_font.pixelSize() + 4);
    painter.setFont(title_font);
    painter.setPen(theme.text);
    const double title_height = QFontMetricsF(title_font).height();
    painter.drawText(QRectF(left, y, width, title_height), Qt::AlignLeft | Qt::AlignVCenter,
                     figureTitle(request));
    y += title_height + kGap;

    QFont caption_font = theme.note_font;
    caption_font.setItalic(true);
    const double caption_height = QFontMetricsF(caption_font).height() + kGap;
    const double table_height = comparisonTableHeight(*request.result, theme);
    const double free = target.bottom() - kMargin - y - table_height - caption_height - 2 * kGap;
    const double timeline_height = std::max(120.0, free * 0.54);
    const double chart_height = std::max(160.0, free - timeline_height);

    const QRectF plot =
        request.timeline(painter, QRectF(left, y, width - kChartLabelRoom, timeline_height),
                         request.result, from, to, printedOptions(request));
    y += timeline_height + kGap;
    paintComparisonTable(painter, QRectF(left, y, width - kChartLabelRoom, table_height),
                         *request.result, theme, request.keys);
    y += table_height + kGap;

    // The chart's x axis lines up with the timeline's: tick t at its cell's centre.
    ChartInput input = wholeInput(request, request.columns);
    input.device_pixel_ratio = request.device_pixel_ratio;
    input.from = from - 0.5;
    input.to = to - 0.5;
    const ChartSpec spec = buildChartSpec(request.figure_chart, input);
    const QRectF chart_rect(target.left(), y, target.width(), chart_height);
    const QRectF plot_area(plot.left() - chart_rect.left(), kChartTop, plot.width(),
                           chart_height - kChartTop - kChartBottom);
    paintChart(painter, chart_rect, spec, theme, plot_area);
    y += chart_height;

    painter.setFont(caption_font);
    painter.setPen(theme.muted_text);
    painter.drawText(QRectF(left, y, width, caption_height), Qt::AlignLeft | Qt::AlignVCenter,
                     figureCaption(request));
}

}  // namespace

QString exportViewName(ExportView view) {
    if (const auto chart = chartOf(view))
        return chartKindName(*chart);
    return view == ExportView::Timeline ? QStringLiteral("timeline") : QStringLiteral("figure");
}

std::optional<ExportView> exportViewFromName(const QString& name) {
    for (const ExportView view : kViews) {
        if (exportViewName(view) == name)
            return view;
    }
    return std::nullopt;
}

std::optional<ChartKind> chartOf(ExportView view) {
    switch (view) {
        case ExportView::Load:
            return ChartKind::Load;
        case ExportView::Cumulative:
            return ChartKind::Cumulative;
        case ExportView::Queue:
            return ChartKind::Queue;
        case ExportView::Bucket:
            return ChartKind::Bucket;
        case ExportView::Worst:
            return ChartKind::Worst;
        case ExportView::Timeline:
        case ExportView::Figure:
            break;
    }
    return std::nullopt;
}

ExportView viewOf(ChartKind chart) {
    for (const ExportView view : kViews) {
        if (chartOf(view) == chart)
            return view;
    }
    return ExportView::Load;
}

QSize defaultExportSize(ExportView view) {
    switch (view) {
        case ExportView::Timeline:
            return {1000, 440};
        case ExportView::Figure:
            return {1000, 1150};
        default:
            return {800, 450};
    }
}

QString drawableText(const QString& text) {
    if (text.size() <= kMaxDrawnTextLength)
        return text;
    QString cut = text.left(kMaxDrawnTextLength);
    if (cut.back().isHighSurrogate())
        cut.chop(1);
    return cut + QChar(0x2026);
}

QString figureTitle(const FigureRequest& request) {
    if (!request.title.isEmpty())
        return drawableText(request.title);
    if (const auto chart = chartOf(request.view)) {
        return buildChartSpec(*chart, wholeInput(request, 16)).title;
    }
    return request.scenario.isEmpty() ? FigureText::tr("Six rate limiters, one trace")
                                      : drawableText(request.scenario);
}

QString figureCaption(const FigureRequest& request) {
    const Limits& limits = request.result->params.base;
    const QString name =
        request.scenario.isEmpty() ? FigureText::tr("This trace") : drawableText(request.scenario);
    QString caption =
        FigureText::tr("%1, L = %2, W = %3").arg(name).arg(limits.limit).arg(limits.window);
    if (request.keys.empty())
        return caption;
    QStringList names;
    for (const KeyId key : request.keys) {
        if (key < request.result->trace->keys.size())
            names << QStringLiteral("\u201c%1\u201d")
                         .arg(drawableText(
                             QString::fromStdString(request.result->trace->key_name(key))));
    }
    return names.size() == 1
               ? FigureText::tr("%1, key %2 only").arg(caption, names.front())
               : FigureText::tr("%1, keys %2").arg(caption, names.join(QStringLiteral(", ")));
}

PaintFunction figurePainter(const FigureRequest& request) {
    if (!request.result)
        throw std::invalid_argument("nothing to draw: no simulation result");
    if (const auto chart = chartOf(request.view)) {
        ChartInput input = wholeInput(request, request.columns);
        input.device_pixel_ratio = request.device_pixel_ratio;
        ChartSpec spec = buildChartSpec(*chart, input);
        if (!request.title.isEmpty())
            spec.title = drawableText(request.title);
        return printedChart(spec);
    }
    if (!request.timeline)
        throw std::invalid_argument("this build cannot draw the timeline");
    if (request.view == ExportView::Timeline)
        return timelinePainter(request);
    return [request](QPainter& painter, const QRectF& target) {
        paintFigure(painter, target, request);
    };
}

}  // namespace ratelab::ui
