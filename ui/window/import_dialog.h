#pragma once

#include <QDialog>
#include <optional>

#include "ratelab/io/importers.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;
class QWidget;

namespace ratelab::ui {

/// File > Import: the options of an import of a CSV file or an access log, with a preview of
/// the head of the file as they read it (the layout detected, the first requests, the lines
/// skipped and why), then the whole import behind a progress bar that can be cancelled.
class ImportDialog : public QDialog {
    Q_OBJECT

public:
    /// The preview reads this much of the file.
    static constexpr std::size_t kPreviewBytes = 256 * 1024;

    ImportDialog(const QString& path, QWidget* parent = nullptr);

    /// The options as the dialog's fields set them.
    io::ImportOptions options() const;
    /// What the preview read, or nothing when it failed (previewError() says why).
    const std::optional<io::ImportResult>& preview() const { return preview_; }
    QString previewError() const { return error_; }
    /// Imports the whole file with the current options, behind a progress dialog. Nothing when
    /// it failed or was cancelled; `error` then says why (empty for a cancel).
    std::optional<io::ImportResult> importAll(QString& error);

public Q_SLOTS:
    /// Reads the head of the file again with the current options.
    void refreshPreview();

private:
    void showPreview();
    void updateFormatFields();

    QString path_;
    QComboBox* format_;
    QComboBox* delimiter_;
    QComboBox* header_;
    QLineEdit* time_column_;
    QLineEdit* key_column_;
    QLineEdit* cost_column_;
    QComboBox* time_unit_;
    QComboBox* log_key_;
    QSpinBox* tick_ms_;
    QWidget* csv_fields_;
    QWidget* log_fields_;
    QLabel* layout_;
    QTableWidget* requests_;
    QPlainTextEdit* skipped_;
    QDialogButtonBox* buttons_;
    std::optional<io::ImportResult> preview_;
    QString error_;
};

}  // namespace ratelab::ui
