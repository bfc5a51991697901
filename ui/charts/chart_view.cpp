#include "charts/chart_view.h"

#include <QAbstractSeries>
#include <QContextMenuEvent>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QMenu>
#include <QMouseEvent>
#include <QTextDocument>
#include <cmath>

#include "charts/chart_builder.h"
#include "charts/chart_theme.h"

namespace ratelab::ui {
namespace {

/// Any series, to map between pixels and values on the chart's main axes.
QAbstractSeries* referenceSeries(QChart* chart) {
    const QList<QAbstractSeries*> all = chart->series();
    return all.isEmpty() ? nullptr : all.front();
}

}  // namespace

ChartView::ChartView(ChartKind kind, QWidget* parent) : QChartView(parent), kind_(kind) {
    setRenderHint(QPainter::Antialiasing, true);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    // Small enough to share a tab group with the comparison table without making it taller;
    // sizeHint() says what a chart wants when it is shown.
    setMinimumSize(320, 140);
    setFrameShape(QFrame::NoFrame);
    setContextMenuPolicy(Qt::DefaultContextMenu);

    crosshair_ = new QGraphicsLineItem;
    label_box_ = new QGraphicsRectItem;
    label_ = new QGraphicsTextItem(label_box_);
    crosshair_->setZValue(1000);
    label_box_->setZValue(1001);
    scene()->addItem(crosshair_);
    scene()->addItem(label_box_);
    hideCrosshair();
}

ChartView::~ChartView() = default;

QSize ChartView::sizeHint() const {
    return {640, 260};
}

void ChartView::showSpec(const ChartSpec& spec) {
    const bool refill = has_spec_ && spec.sameShape(spec_) && chart() != nullptr;
    spec_ = spec;
    has_spec_ = true;
    if (refill) {
        ChartBuilder::refill(chart(), spec_);
    } else {
        rebuild();
    }
}

void ChartView::rebuild() {
    if (!has_spec_)
        return;
    const ChartTheme theme = ChartTheme::screen(palette(), font());
    QChart* old = chart();
    QChart* fresh = ChartBuilder::build(spec_, theme);
    // The plot area settles during layout: decimate again once its width is known.
    connect(fresh, &QChart::plotAreaChanged, this, [this] {
        const int columns = plotColumns();
        if (columns != last_columns_) {
            last_columns_ = columns;
            Q_EMIT plotResized();
        }
    });
    setChart(fresh);
    delete old;
    for (const QString& group : std::as_const(hidden_))
        ChartBuilder::setGroupVisible(chart(), group, false);
    connectLegend();
    compact_ = wantsCompact();
    if (compact_)
        ChartBuilder::setCompact(chart(), spec_, theme, true);
    const QColor line = theme.visible(chart_colors::kCursor);
    crosshair_->setPen(QPen(line, 1.0, Qt::SolidLine));
    label_box_->setBrush(theme.dark ? QColor(0x20, 0x20, 0x20, 235) : QColor(255, 255, 255, 240));
    label_box_->setPen(QPen(theme.axis_line, 1.0));
    label_->setDefaultTextColor(theme.text);
    label_->setFont(theme.label_font);
    hideCrosshair();
}

void ChartView::connectLegend() {
    for (QLegendMarker* marker : chart()->legend()->markers()) {
        connect(marker, &QLegendMarker::clicked, this, [this, marker] {
            const QString group = ChartBuilder::groupOf(marker->series());
            if (!group.isEmpty())
                setGroupHidden(group, !hidden_.contains(group));
        });
    }
}

void ChartView::setGroupHidden(const QString& group, bool hidden) {
    if (hidden)
        hidden_.insert(group);
    else
        hidden_.remove(group);
    if (chart() != nullptr)
        ChartBuilder::setGroupVisible(chart(), group, !hidden);
}

int ChartView::plotColumns() const {
    const double width = chart() != nullptr ? chart()->plotArea().width() : 0.0;
    return std::max(64, static_cast<int>(width > 1.0 ? width : this->width() * 0.85));
}

void ChartView::hideCrosshair() {
    crosshair_->setVisible(false);
    label_box_->setVisible(false);
}

void ChartView::showCrosshair(QPointF position) {
    QAbstractSeries* series = referenceSeries(chart());
    const QRectF plot = chart()->plotArea();
    if (series == nullptr || !hover_text_ || !plot.contains(position)) {
        hideCrosshair();
        return;
    }
    const QPointF value = chart()->mapToValue(position, series);
    // Snap to the nearest tick (or bar): that is what the values describe.
    const double snapped = std::round(value.x());
    const QString text = hover_text_(snapped);
    if (text.isEmpty()) {
        hideCrosshair();
        return;
    }
    const double x = spec_.bars ? position.x() : chart()->mapToPosition({snapped, 0}, series).x();
    crosshair_->setLine(x, plot.top(), x, plot.bottom());
    crosshair_->setVisible(!spec_.bars && x >= plot.left() && x <= plot.right());
    label_->setHtml(text);
    const QSizeF size = label_->document()->size();
    // Beside the cursor, on whichever side has room.
    double left = x + 10.0;
    if (left + size.width() > plot.right())
        left = x - 10.0 - size.width();
    const double top = std::clamp(position.y() - size.height() / 2, plot.top(),
                                  std::max(plot.top(), plot.bottom() - size.height()));
    label_box_->setRect(QRectF(QPointF(0, 0), size));
    label_box_->setPos(left, top);
    label_box_->setVisible(true);
}

void ChartView::mouseMoveEvent(QMouseEvent* event) {
    QChartView::mouseMoveEvent(event);
    if (chart() != nullptr)
        showCrosshair(chart()->mapFromScene(mapToScene(event->position().toPoint())));
}

void ChartView::leaveEvent(QEvent* event) {
    hideCrosshair();
    QChartView::leaveEvent(event);
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Export Chart..."), this, [this] { Q_EMIT exportChartRequested(kind_); });
    menu.addAction(tr("Copy Chart Image"), this, [this] { Q_EMIT copyChartRequested(kind_); });
    menu.addSeparator();
    menu.addAction(tr("Export Decisions as CSV..."), this,
                   [this] { Q_EMIT exportDecisionsRequested(); });
    menu.addAction(tr("Export Report as JSON..."), this,
                   [this] { Q_EMIT exportReportRequested(); });
    if (!hidden_.isEmpty()) {
        menu.addSeparator();
        menu.addAction(tr("Show All Series"), this, [this] {
            const QSet<QString> hidden = hidden_;
            for (const QString& group : hidden)
                setGroupHidden(group, false);
        });
    }
    menu.exec(event->globalPos());
}

void ChartView::applyCompact() {
    compact_ = wantsCompact();
    if (chart() != nullptr && has_spec_)
        ChartBuilder::setCompact(chart(), spec_, ChartTheme::screen(palette(), font()), compact_);
}

void ChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    hideCrosshair();
    if (wantsCompact() != compact_)
        applyCompact();
    const int columns = plotColumns();
    if (columns != last_columns_) {
        last_columns_ = columns;
        Q_EMIT plotResized();
    }
}

void ChartView::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
}

}  // namespace ratelab::ui
