#pragma once

#include <QDialog>
#include <QImage>
#include <QSize>
#include <QString>
#include <functional>

#include "charts/chart_render.h"
#include "charts/chart_spec.h"
#include "charts/figure.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

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

/// How a request would be drawn, for the preview; an empty function when there is nothing to draw.
using ExportPreview = std::function<PaintFunction(const ExportRequest&)>;

/// Chooses what to export (a chart, the timeline or a figure), a format, a size and a file.
/// Sizes are remembered per kind of view, and scale, format and folder too, between sessions.
/// With a preview, it shows what the file will hold, scaled down, as the choices change.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    /// `with_timeline`: offer the timeline and the figure (they need the app's timeline).
    ExportDialog(ExportView view, bool with_timeline, QWidget* parent = nullptr);

    ExportRequest request() const;
    void accept() override;
    /// Shows a preview drawn by `preview` beside the choices.
    void setPreview(ExportPreview preview);
    /// The preview for the current choices, drawn now (the dialog redraws it shortly after
    /// each change); a null image without a preview.
    QImage previewImage() const;

private:
    ExportView currentView() const;
    void viewChanged();
    void updateFileName();
    void browse();
    void showPreview();

    QComboBox* view_;
    QComboBox* figure_chart_;
    QComboBox* format_;
    QSpinBox* width_;
    QSpinBox* height_;
    QComboBox* scale_;
    QLineEdit* title_;
    QLineEdit* path_;
    QLabel* preview_;
    QTimer* preview_timer_;
    ExportPreview preview_painter_;
};

}  // namespace ratelab::ui
