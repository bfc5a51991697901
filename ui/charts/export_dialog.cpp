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
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>

namespace ratelab::ui {
namespace {

// Settings keys, so the dialog opens as it was left.
const QString kScale = QStringLiteral("export/scale");
const QString kFormat = QStringLiteral("export/format");
const QString kFolder = QStringLiteral("export/folder");
// The box the preview is fitted into, in logical pixels.
constexpr QSize kPreviewBox(360, 260);

/// Charts, the timeline and figures have different shapes, so each remembers its own size.
QString sizeKey(ExportView view, const char* which) {
    const QString kind = chartOf(view) ? QStringLiteral("chart") : exportViewName(view);
    return QStringLiteral("export/%1/%2").arg(kind, QLatin1String(which));
}

QString viewLabel(ExportView view) {
    switch (view) {
        case ExportView::Load:
            return ExportDialog::tr("Load chart");
        case ExportView::Cumulative:
            return ExportDialog::tr("Cumulative chart");
        case ExportView::Queue:
            return ExportDialog::tr("Queue chart");
        case ExportView::Bucket:
            return ExportDialog::tr("Bucket level chart");
        case ExportView::Worst:
            return ExportDialog::tr("Worst burst chart");
        case ExportView::Timeline:
            return ExportDialog::tr("Timeline with its lanes");
        case ExportView::Figure:
            return ExportDialog::tr("Figure: timeline, table, chart and caption");
    }
    return QString();
}

QSpinBox* sizeBox(const QString& tip) {
    auto* box = new QSpinBox;
    box->setRange(200, 8000);
    box->setSingleStep(50);
    box->setSuffix(ExportDialog::tr(" px"));
    box->setToolTip(tip);
    return box;
}

}  // namespace

ExportDialog::ExportDialog(ExportView view, bool with_timeline, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Export"));
    const QSettings settings;

    view_ = new QComboBox;
    for (const ExportView each :
         {ExportView::Load, ExportView::Cumulative, ExportView::Queue, ExportView::Bucket,
          ExportView::Worst, ExportView::Timeline, ExportView::Figure}) {
        if (chartOf(each) || with_timeline)
            view_->addItem(viewLabel(each), static_cast<int>(each));
    }
    view_->setCurrentIndex(std::max(0, view_->findData(static_cast<int>(view))));
    view_->setToolTip(tr("What to export"));

    figure_chart_ = new QComboBox;
    for (const ChartKind kind : kAllChartKinds)
        figure_chart_->addItem(viewLabel(viewOf(kind)), static_cast<int>(kind));
    figure_chart_->setToolTip(tr("The chart the figure shows under its table"));

    format_ = new QComboBox;
    format_->addItem(tr("PNG image"), QStringLiteral("png"));
    format_->addItem(tr("SVG drawing (text stays text)"), QStringLiteral("svg"));
    format_->addItem(tr("PDF page (fonts embedded)"), QStringLiteral("pdf"));
    format_->setCurrentIndex(
        std::max(0, format_->findData(settings.value(kFormat, QStringLiteral("png")))));
    format_->setToolTip(tr("File format; every format uses a light print theme"));

    width_ = sizeBox(tr("Width in pixels at 1x (points in a PDF)"));
    height_ = sizeBox(tr("Height in pixels at 1x (points in a PDF)"));
    scale_ = new QComboBox;
    for (int scale = 1; scale <= 3; ++scale)
        scale_->addItem(tr("%1x").arg(scale), scale);
    scale_->setCurrentIndex(std::clamp(settings.value(kScale, 2).toInt(), 1, 3) - 1);
    scale_->setToolTip(
        tr("PNG only: pixels per logical pixel; 2x is sharp on high-density "
           "screens and in print"));

    title_ = new QLineEdit;
    title_->setPlaceholderText(tr("The default title"));
    title_->setToolTip(tr("Replaces the title in the exported image"));

    path_ = new QLineEdit;
    path_->setText(QDir(settings.value(kFolder, QDir::homePath()).toString())
                       .filePath(QStringLiteral("ratelab.png")));
    path_->setToolTip(tr("Where to save the file"));
    auto* browse_button = new QPushButton(tr("Browse…"));
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
    form->addRow(tr("&Export:"), view_);
    form->addRow(tr("C&hart in figure:"), figure_chart_);
    form->addRow(tr("&Format:"), format_);
    // A row that holds a layout gets a label without a buddy, which shows its "&" instead of
    // underlining the shortcut: these labels name the row's first field themselves.
    const auto labelFor = [](const QString& text, QWidget* buddy) {
        auto* label = new QLabel(text);
        label->setBuddy(buddy);
        return label;
    };
    form->addRow(labelFor(tr("&Size:"), width_), size_row);
    form->addRow(tr("&Title:"), title_);
    form->addRow(labelFor(tr("F&ile:"), path_), file_row);

    preview_ = new QLabel;
    preview_->setFixedSize(kPreviewBox);
    preview_->setAlignment(Qt::AlignCenter);
    preview_->setToolTip(tr("What the file will show, scaled down to fit here"));
    preview_->setVisible(false);
    preview_timer_ = new QTimer(this);
    preview_timer_->setSingleShot(true);
    preview_timer_->setInterval(150);  // after typing a size or a title settles
    connect(preview_timer_, &QTimer::timeout, this, &ExportDialog::showPreview);
    const auto later = [this] { preview_timer_->start(); };
    connect(figure_chart_, &QComboBox::currentIndexChanged, this, later);
    connect(width_, &QSpinBox::valueChanged, this, later);
    connect(height_, &QSpinBox::valueChanged, this, later);
    connect(title_, &QLineEdit::textChanged, this, later);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    auto* choices = new QHBoxLayout;
    choices->addLayout(form, 1);
    choices->addWidget(preview_, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(choices);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    connect(browse_button, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateFileName);
    connect(view_, &QComboBox::currentIndexChanged, this, &ExportDialog::viewChanged);
    viewChanged();
}

ExportView ExportDialog::currentView() const {
    return static_cast<ExportView>(view_->currentData().toInt());
}

void ExportDialog::viewChanged() {
    const ExportView view = currentView();
    const QSettings settings;
    const QSize defaults = defaultExportSize(view);
    width_->setValue(settings.value(sizeKey(view, "width"), defaults.width()).toInt());
    height_->setValue(settings.value(sizeKey(view, "height"), defaults.height()).toInt());
    figure_chart_->setEnabled(view == ExportView::Figure);
    updateFileName();
    preview_timer_->start();
}

ExportRequest ExportDialog::request() const {
    ExportRequest request;
    request.view = currentView();
    request.figure_chart = static_cast<ChartKind>(figure_chart_->currentData().toInt());
    request.format =
        imageFormatFromName(format_->currentData().toString()).value_or(ImageFormat::Png);
    request.size = QSize(width_->value(), height_->value());
    request.scale = scale_->currentData().toInt();
    request.title = title_->text().trimmed();
    request.path = path_->text().trimmed();
    return request;
}

void ExportDialog::updateFileName() {
    const QString suffix = format_->currentData().toString();
    scale_->setEnabled(suffix == QStringLiteral("png"));
    // Names this dialog suggested follow the view and the format; a name typed by hand stays.
    const QFileInfo info(path_->text());
    const QString base = info.completeBaseName().startsWith(QStringLiteral("ratelab"))
                             ? QStringLiteral("ratelab-") + exportViewName(currentView())
                             : info.completeBaseName();
    path_->setText(info.dir().filePath(base + QLatin1Char('.') + suffix));
}

void ExportDialog::browse() {
    const QString suffix = format_->currentData().toString();
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export"), path_->text(), tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

void ExportDialog::setPreview(ExportPreview preview) {
    preview_painter_ = std::move(preview);
    preview_->setVisible(static_cast<bool>(preview_painter_));
    showPreview();
}

QImage ExportDialog::previewImage() const {
    if (!preview_painter_)
        return {};
    const ExportRequest chosen = request();
    const PaintFunction paint = preview_painter_(chosen);
    const QSizeF size(chosen.size);
    if (!paint || size.isEmpty())
        return {};
    // Drawn at the file's own size and scaled down, so that the layout (what wraps, what is
    // left out for room) is the one the file gets.
    const QSizeF box = QSizeF(preview_->contentsRect().size()) - QSizeF(4, 4);
    const double factor = std::min(box.width() / size.width(), box.height() / size.height());
    const double ratio = devicePixelRatioF();
    QImage image((size * factor * ratio).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(factor, factor);
    paint(painter, QRectF(QPointF(0, 0), size));
    painter.end();
    return image;
}

void ExportDialog::showPreview() {
    preview_timer_->stop();
    if (!preview_painter_)
        return;
    const QImage image = previewImage();
    if (image.isNull())
        preview_->setText(tr("Nothing to preview"));
    else
        preview_->setPixmap(QPixmap::fromImage(image));
}

void ExportDialog::accept() {
    const ExportRequest chosen = request();
    if (chosen.path.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose a file to save to."));
        return;
    }
    QSettings settings;
    settings.setValue(sizeKey(chosen.view, "width"), chosen.size.width());
    settings.setValue(sizeKey(chosen.view, "height"), chosen.size.height());
    settings.setValue(kScale, chosen.scale);
    settings.setValue(kFormat, imageFormatName(chosen.format));
    settings.setValue(kFolder, QFileInfo(chosen.path).absolutePath());
    QDialog::accept();
}

}  // namespace ratelab::ui
