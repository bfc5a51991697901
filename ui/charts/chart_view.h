#pragma once

#include <QChartView>
#include <QSet>
#include <functional>

#include "charts/chart_spec.h"

class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsTextItem;

namespace ratelab::ui {

/// One live chart: shows a ChartSpec in the screen theme, refilling its series when only the
/// values change, with a hover crosshair, legend entries that show and hide series, and a
/// context menu for exporting.
class ChartView : public QChartView {
    Q_OBJECT

public:
    /// Rich text describing the values at chart x; empty for nothing.
    using HoverText = std::function<QString(double x)>;

    explicit ChartView(ChartKind kind, QWidget* parent = nullptr);
    ~ChartView() override;

    QSize sizeHint() const override;
    ChartKind kind() const { return kind_; }
    const ChartSpec& spec() const { return spec_; }
    void showSpec(const ChartSpec& spec);
    void setHoverText(HoverText text) { hover_text_ = std::move(text); }
    /// Pixel columns of the plot area: the decimation budget.
    int plotColumns() const;
    /// The groups (algorithm ids) hidden through the legend.
    const QSet<QString>& hiddenGroups() const { return hidden_; }
    void setGroupHidden(const QString& group, bool hidden);

Q_SIGNALS:
    void exportChartRequested(ratelab::ui::ChartKind kind);
    void copyChartRequested(ratelab::ui::ChartKind kind);
    void exportDecisionsRequested();
    void exportReportRequested();
    /// The plot area changed width: series should be decimated again.
    void plotResized();

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    /// Short views drop the note and move the legend beside the plot.
    bool wantsCompact() const { return height() < 380 && width() > height() * 2; }
    void applyCompact();
    void connectLegend();
    void hideCrosshair();
    void showCrosshair(QPointF position);

    ChartKind kind_;
    ChartSpec spec_;
    bool has_spec_ = false;
    QSet<QString> hidden_;
    HoverText hover_text_;
    QGraphicsLineItem* crosshair_ = nullptr;
    QGraphicsRectItem* label_box_ = nullptr;
    QGraphicsTextItem* label_ = nullptr;
    int last_columns_ = 0;
    bool compact_ = false;
};

}  // namespace ratelab::ui
