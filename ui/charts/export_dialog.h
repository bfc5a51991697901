#pragma once

#include <QDialog>
#include <QSize>
#include <QString>

#include "charts/chart_render.h"
#include "charts/chart_spec.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ratelab::ui {

/// What the export dialog asked for.
struct ExportRequest {
    ChartKind chart = ChartKind::Load;
    ImageFormat format = ImageFormat::Png;
    QSize size{800, 450};  ///< logical pixels (points in a PDF)
    int scale = 2;         ///< PNG only: 1x, 2x or 3x
    QString title;         ///< replaces the chart's own title when not empty
    QString path;
};

/// Chooses a chart, a format, a size and a file. Sizes, scale, format and folder are remembered
/// between sessions.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    ExportDialog(ChartKind chart, const QString& suggested_name, QWidget* parent = nullptr);

    ExportRequest request() const;
    void accept() override;

private:
    void updateScaleAndSuffix();
    void browse();

    QComboBox* chart_;
    QComboBox* format_;
    QSpinBox* width_;
    QSpinBox* height_;
    QComboBox* scale_;
    QLineEdit* title_;
    QLineEdit* path_;
};

}  // namespace ratelab::ui
