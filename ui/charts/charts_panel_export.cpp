// ChartsPanel's exports: a chart, the timeline or a figure as an image, the chart on show to the
// clipboard, and the decisions and the report as streamed files.
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>

#include "charts/chart_render.h"
#include "charts/charts_panel.h"
#include "charts/export_dialog.h"
#include "charts/export_file.h"
#include "ratelab/io/decisions_csv.h"
#include "ratelab/io/report.h"

namespace ratelab::ui {

void ChartsPanel::exportChart() {
    if (!result_)
        return;
    ExportDialog dialog(viewOf(currentChart()), static_cast<bool>(timeline_), this);
    dialog.setPreview(
        [this](const ExportRequest& chosen) { return exportPainter(chosen, nullptr); });
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const QString error = exportTo(dialog.request()); !error.isEmpty())
        QMessageBox::critical(this, tr("Export"), error);
}

PaintFunction ChartsPanel::exportPainter(const ExportRequest& chosen, QString* title) const {
    if (!result_)
        return {};
    const int columns = chosen.size.width() * chosen.scale;
    if (const auto chart = chartOf(chosen.view)) {
        // A chart goes out as it is shown: the same span and the same clock.
        ChartInput shown = input(columns);
        shown.device_pixel_ratio = chosen.scale;
        ChartSpec spec = buildChartSpec(*chart, shown);
        if (!chosen.title.isEmpty())
            spec.title = chosen.title;
        if (title != nullptr)
            *title = spec.title;
        return printedChart(spec);
    }
    FigureRequest figure;
    figure.view = chosen.view;
    figure.result = result_;
    figure.scenario = scenario_;
    figure.title = chosen.title;
    figure.figure_chart = chosen.figure_chart;
    figure.keys = shownKeyIds();  // as on screen: the charts, the table and the timeline
    figure.notes = notes_;
    figure.split_by_key = split_by_key_;
    figure.columns = columns;
    figure.device_pixel_ratio = chosen.scale;
    figure.timeline = timeline_;
    if (figure.view == ExportView::Figure)
        figure.series = seriesNow();  // those on show: the same keys, and computed once
    if (title != nullptr)
        *title = figureTitle(figure);
    return figurePainter(figure);
}

QString ChartsPanel::exportTo(const ExportRequest& chosen) {
    if (!result_)
        return tr("nothing to export yet");
    QString title;
    const PaintFunction paint = exportPainter(chosen, &title);
    const QString error =
        writeImageFile(paint, chosen.format, chosen.size, chosen.scale, title, chosen.path);
    if (error.isEmpty())
        Q_EMIT exported(
            tr("Exported “%1” to %2").arg(title, QDir::toNativeSeparators(chosen.path)));
    return error;
}

void ChartsPanel::copyChartImage() {
    if (!result_)
        return;
    const QSettings settings;
    const QSize size(settings.value(QStringLiteral("export/chart/width"), 800).toInt(),
                     settings.value(QStringLiteral("export/chart/height"), 450).toInt());
    ChartInput shown = input(size.width() * 2);
    shown.device_pixel_ratio = 2.0;
    const ChartSpec spec = buildChartSpec(currentChart(), shown);
    QApplication::clipboard()->setImage(renderImage(printedChart(spec), size, 2));
}

void ChartsPanel::exportDecisions() {
    exportStreamed(tr("Export Decisions"), QStringLiteral("decisions.csv"), tr("CSV files (*.csv)"),
                   tr("Exported the decisions to %1"),
                   [this](std::ostream& out) { io::write_decisions_csv(out, *result_); });
}

void ChartsPanel::exportReport() {
    // As ratelab-cli simulate writes it: a report of millions of decisions never sits in
    // memory whole.
    exportStreamed(tr("Export Report"), QStringLiteral("report.json"), tr("JSON files (*.json)"),
                   tr("Exported the report to %1"),
                   [this](std::ostream& out) { io::write_report(out, *result_); });
}

void ChartsPanel::exportStreamed(const QString& caption, const QString& name, const QString& filter,
                                 const QString& done,
                                 const std::function<void(std::ostream&)>& write) {
    if (!result_)
        return;
    const QString path = QFileDialog::getSaveFileName(this, caption, name, filter);
    if (path.isEmpty())
        return;
    // Streamed, and saved as documents are: a full disk leaves an earlier export as it was.
    const QString problem = exportStream(path, write);
    if (!problem.isEmpty()) {
        QMessageBox::critical(this, caption, tr("Cannot export to %1: %2").arg(path, problem));
        return;
    }
    Q_EMIT exported(done.arg(QDir::toNativeSeparators(path)));
}

}  // namespace ratelab::ui
