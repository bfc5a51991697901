#pragma once

#include <QWidget>
#include <optional>

#include "charts/sweep_plot.h"

namespace ratelab::ui {

/// The Sweep panel's live chart: paints a SweepPlotSpec in the screen theme, tells the value of
/// the point under the mouse, and reports clicks on points.
class SweepView : public QWidget {
    Q_OBJECT

public:
    explicit SweepView(QWidget* parent = nullptr);

    void showSpec(SweepPlotSpec spec);
    const SweepPlotSpec& spec() const { return spec_; }
    /// The point under `position` (widget coordinates), as a click there would choose it.
    std::optional<int> pointAt(QPointF position) const;
    QSize sizeHint() const override { return {640, 300}; }
    QSize minimumSizeHint() const override { return {240, 60}; }

Q_SIGNALS:
    void pointClicked(int point);
    void exportImageRequested();
    void exportCsvRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    SweepPlotSpec spec_;
    std::optional<int> hovered_;
};

}  // namespace ratelab::ui
