#pragma once

#include <QDialog>
#include <QSize>
#include <QString>

#include "charts/chart_render.h"
#include "charts/chart_spec.h"
#include "charts/figure.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ratelab::ui {

/// What the export dialog asked for.
struct ExportRequest {
    ExportView view = ExportView::Load;
    ChartKind figure_chart = ChartKind::Load;  ///< the chart a figure shows
    ImageFormat format = ImageFormat::Png;
    QSize size{800, 450};  ///< logical pixels (points in a PDF)
    int scale = 2;         ///< PNG only: 1x, 2x or 3x
    QString title;         ///< replaces the default title when not empty
    QString path;
};

/// Chooses what to export (a chart, the timeline or a figure), a format, a size and a file.
/// Sizes are remembered per kind of view, and scale, format and folder too, between sessions.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    /// `with_timeline`: offer the timeline and the figure (they need the app's timeline).
    ExportDialog(ExportView view, bool with_timeline, QWidget* parent = nullptr);

    ExportRequest request() const;
    void accept() override;

private:
    ExportView currentView() const;
    void viewChanged();
    void updateFileName();
    void browse();

    QComboBox* view_;
    QComboBox* figure_chart_;
    QComboBox* format_;
    QSpinBox* width_;
    QSpinBox* height_;
    QComboBox* scale_;
    QLineEdit* title_;
    QLineEdit* path_;
};

}  // namespace ratelab::ui
