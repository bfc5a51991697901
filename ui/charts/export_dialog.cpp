#include "charts/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace ratelab::ui {
namespace {

// Settings keys, so the dialog opens as it was left.
const QString kWidth = QStringLiteral("export/width");
const QString kHeight = QStringLiteral("export/height");
const QString kScale = QStringLiteral("export/scale");
const QString kFormat = QStringLiteral("export/format");
const QString kFolder = QStringLiteral("export/folder");

QString chartLabel(ChartKind kind) {
    switch (kind) {
        case ChartKind::Load:
            return ExportDialog::tr("Load");
        case ChartKind::Cumulative:
            return ExportDialog::tr("Cumulative");
        case ChartKind::Queue:
            return ExportDialog::tr("Queue");
        case ChartKind::Bucket:
            return ExportDialog::tr("Bucket level");
        case ChartKind::Worst:
            return ExportDialog::tr("Worst burst");
    }
    return QString();
}

QSpinBox* sizeBox(int value, const QString& tip) {
    auto* box = new QSpinBox;
    box->setRange(200, 8000);
    box->setSingleStep(50);
    box->setSuffix(ExportDialog::tr(" px"));
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

}  // namespace

ExportDialog::ExportDialog(ChartKind chart, const QString& suggested_name, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Export Chart"));
    const QSettings settings;

    chart_ = new QComboBox;
    for (const ChartKind kind : kAllChartKinds)
        chart_->addItem(chartLabel(kind), static_cast<int>(kind));
    chart_->setCurrentIndex(chart_->findData(static_cast<int>(chart)));
    chart_->setToolTip(tr("Which chart to export"));

    format_ = new QComboBox;
    format_->addItem(tr("PNG image"), QStringLiteral("png"));
    format_->addItem(tr("SVG drawing (text stays text)"), QStringLiteral("svg"));
    format_->addItem(tr("PDF page (fonts embedded)"), QStringLiteral("pdf"));
    format_->setCurrentIndex(
        std::max(0, format_->findData(settings.value(kFormat, QStringLiteral("png")))));
    format_->setToolTip(tr("File format; every format uses a light print theme"));

    width_ =
        sizeBox(settings.value(kWidth, 800).toInt(), tr("Width in pixels at 1x (points in a PDF)"));
    height_ = sizeBox(settings.value(kHeight, 450).toInt(),
                      tr("Height in pixels at 1x (points in a PDF)"));
    scale_ = new QComboBox;
    for (int scale = 1; scale <= 3; ++scale)
        scale_->addItem(tr("%1x").arg(scale), scale);
    scale_->setCurrentIndex(std::clamp(settings.value(kScale, 2).toInt(), 1, 3) - 1);
    scale_->setToolTip(
        tr("PNG only: pixels per logical pixel, 2x for sharp images on "
           "high-density screens and in print"));

    title_ = new QLineEdit;
    title_->setPlaceholderText(tr("The chart's own title"));
    title_->setToolTip(tr("Replaces the chart's title in the exported image"));

    path_ = new QLineEdit;
    const QString folder = settings.value(kFolder, QDir::homePath()).toString();
    path_->setText(QDir(folder).filePath(suggested_name));
    path_->setToolTip(tr("Where to save the file"));
    auto* browse_button = new QPushButton(tr("Browse..."));
    browse_button->setToolTip(tr("Choose the file"));
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(path_, 1);
    file_row->addWidget(browse_button);

    auto* size_row = new QHBoxLayout;
    size_row->addWidget(width_);
    size_row->addWidget(new QLabel(QStringLiteral("\u00D7")));
    size_row->addWidget(height_);
    size_row->addWidget(scale_);

    auto* form = new QFormLayout;
    form->addRow(tr("&Chart:"), chart_);
    form->addRow(tr("&Format:"), format_);
    form->addRow(tr("&Size:"), size_row);
    form->addRow(tr("&Title:"), title_);
    form->addRow(tr("F&ile:"), file_row);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    connect(browse_button, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateScaleAndSuffix);
    connect(chart_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateScaleAndSuffix);
    updateScaleAndSuffix();
}

ExportRequest ExportDialog::request() const {
    ExportRequest request;
    request.chart = static_cast<ChartKind>(chart_->currentData().toInt());
    request.format =
        imageFormatFromName(format_->currentData().toString()).value_or(ImageFormat::Png);
    request.size = QSize(width_->value(), height_->value());
    request.scale = scale_->currentData().toInt();
    request.title = title_->text().trimmed();
    request.path = path_->text().trimmed();
    return request;
}

void ExportDialog::updateScaleAndSuffix() {
    const QString suffix = format_->currentData().toString();
    scale_->setEnabled(suffix == QStringLiteral("png"));
    // Keep the file name in step with the chart and the format.
    QFileInfo info(path_->text());
    const QString stem = QStringLiteral("ratelab-") +
                         chartKindName(static_cast<ChartKind>(chart_->currentData().toInt()));
    const QString base = info.completeBaseName().startsWith(QStringLiteral("ratelab-"))
                             ? stem
                             : info.completeBaseName();
    path_->setText(info.dir().filePath(base + QLatin1Char('.') + suffix));
}

void ExportDialog::browse() {
    const QString suffix = format_->currentData().toString();
    const QString chosen =
        QFileDialog::getSaveFileName(this, tr("Export Chart"), path_->text(),
                                     tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

void ExportDialog::accept() {
    const ExportRequest chosen = request();
    if (chosen.path.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose a file to save to."));
        return;
    }
    QSettings settings;
    settings.setValue(kWidth, chosen.size.width());
    settings.setValue(kHeight, chosen.size.height());
    settings.setValue(kScale, chosen.scale);
    settings.setValue(kFormat, imageFormatName(chosen.format));
    settings.setValue(kFolder, QFileInfo(chosen.path).absolutePath());
    QDialog::accept();
}

}  // namespace ratelab::ui
