#include "charts/sweep_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include "charts/chart_theme.h"

namespace ratelab::ui {

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void SweepView::showSpec(SweepPlotSpec spec) {
    spec_ = std::move(spec);
    hovered_.reset();
    update();
}

std::optional<int> SweepView::pointAt(QPointF position) const {
    return SweepPlotGeometry(spec_, QRectF(rect())).hit(position);
}

void SweepView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintSweepPlot(painter, QRectF(rect()), spec_, ChartTheme::screen(palette(), font()), hovered_);
}

void SweepView::mouseMoveEvent(QMouseEvent* event) {
    const std::optional<int> point = pointAt(event->position());
    if (point != hovered_) {
        hovered_ = point;
        update();
    }
    if (!point) {
        QToolTip::hideText();
        setCursor(Qt::ArrowCursor);
        return;
    }
    setCursor(Qt::PointingHandCursor);
    const int i = *point;
    QString where =
        QStringLiteral("%1 = %2").arg(spec_.x_title, spec_.x_labels.value(i / spec_.rows()));
    if (spec_.isHeatmap())
        where += QStringLiteral("<br>%1 = %2")
                     .arg(spec_.y_title, spec_.y_labels.value(i % spec_.rows()));
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1<br><b>%2: %3</b><br><i>Click to use this setting.</i>")
                           .arg(where, spec_.value_title, spec_.value_texts.value(i)),
                       this);
}

void SweepView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    if (const std::optional<int> point = pointAt(event->position()))
        Q_EMIT pointClicked(*point);
}

void SweepView::leaveEvent(QEvent*) {
    hovered_.reset();
    update();
}

void SweepView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Export Chart…"), this, &SweepView::exportImageRequested);
    menu.addAction(tr("Export Sweep as CSV…"), this, &SweepView::exportCsvRequested);
    menu.exec(event->globalPos());
}

}  // namespace ratelab::ui
