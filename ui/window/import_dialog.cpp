#include "window/import_dialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <atomic>
#include <exception>
#include <thread>

#include "charts/algorithm_names.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::ui {
namespace {

/// Thrown from the progress callback to stop a cancelled import.
struct ImportCancelled {};

QString fromUtf8(const std::string& text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// The format a file's name suggests: CSV for .csv, .tsv and .txt, else a combined log.
int guessedFormat(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("csv") || suffix == QLatin1String("tsv") ||
                   suffix == QLatin1String("txt")
               ? 0
               : 2;
}

QString delimiterName(char delimiter) {
    switch (delimiter) {
        case '\t':
            return ImportDialog::tr("tab");
        case ',':
            return ImportDialog::tr("comma");
        case ';':
            return ImportDialog::tr("semicolon");
        case '|':
            return ImportDialog::tr("bar (|)");
        default:
            return QStringLiteral("\"%1\"").arg(QLatin1Char(delimiter));
    }
}

}  // namespace

ImportDialog::ImportDialog(const QString& path, QWidget* parent)
    : QDialog(parent),
      path_(path),
      format_(new QComboBox(this)),
      delimiter_(new QComboBox(this)),
      header_(new QComboBox(this)),
      time_column_(new QLineEdit(this)),
      key_column_(new QLineEdit(this)),
      cost_column_(new QLineEdit(this)),
      time_unit_(new QComboBox(this)),
      log_key_(new QComboBox(this)),
      tick_ms_(new QSpinBox(this)),
      csv_fields_(new QWidget(this)),
      log_fields_(new QWidget(this)),
      layout_(new QLabel(this)),
      requests_(new QTableWidget(this)),
      skipped_(new QPlainTextEdit(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setObjectName(QStringLiteral("importDialog"));
    setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));

    format_->setObjectName(QStringLiteral("importFormat"));
    format_->addItems({tr("CSV (a time column, optional key and cost columns)"),
                       tr("Common Log Format (Apache, nginx)"),
                       tr("Combined Log Format (with referer and user agent)")});
    format_->setCurrentIndex(guessedFormat(path));
    delimiter_->setObjectName(QStringLiteral("importDelimiter"));
    delimiter_->addItems({tr("Detect"), tr("comma"), tr("semicolon"), tr("tab"), tr("bar (|)")});
    header_->setObjectName(QStringLiteral("importHeader"));
    header_->addItems({tr("Detect"), tr("Yes"), tr("No")});
    for (QLineEdit* column : {time_column_, key_column_, cost_column_}) {
        column->setPlaceholderText(tr("detect (a name or a number)"));
    }
    time_column_->setObjectName(QStringLiteral("importTimeColumn"));
    key_column_->setObjectName(QStringLiteral("importKeyColumn"));
    cost_column_->setObjectName(QStringLiteral("importCostColumn"));
    time_unit_->setObjectName(QStringLiteral("importTimeUnit"));
    time_unit_->addItems({tr("Detect"), tr("epoch seconds"), tr("epoch milliseconds"),
                          tr("ISO 8601 (2024-03-01T12:00:00Z)")});
    log_key_->setObjectName(QStringLiteral("importLogKey"));
    log_key_->addItems({QStringLiteral("host"), QStringLiteral("ident"), QStringLiteral("user"),
                        QStringLiteral("request"), QStringLiteral("method"), QStringLiteral("path"),
                        QStringLiteral("status"), QStringLiteral("referer"),
                        QStringLiteral("user_agent"), QStringLiteral("none")});
    log_key_->setToolTip(tr("The log field each request's key comes from"));
    tick_ms_->setObjectName(QStringLiteral("importTickMs"));
    tick_ms_->setRange(static_cast<int>(io::kMinTickMs), static_cast<int>(io::kMaxTickMs));
    tick_ms_->setValue(1000);
    tick_ms_->setSuffix(tr(" ms"));
    tick_ms_->setGroupSeparatorShown(true);
    tick_ms_->setToolTip(tr("How long one tick is: real times become whole ticks of this length"));

    auto* csv = new QFormLayout(csv_fields_);
    csv->setContentsMargins(0, 0, 0, 0);
    csv->addRow(tr("&Delimiter:"), delimiter_);
    csv->addRow(tr("&Header line:"), header_);
    csv->addRow(tr("T&ime column:"), time_column_);
    csv->addRow(tr("&Key column:"), key_column_);
    csv->addRow(tr("C&ost column:"), cost_column_);
    csv->addRow(tr("Time &format:"), time_unit_);
    auto* log = new QFormLayout(log_fields_);
    log->setContentsMargins(0, 0, 0, 0);
    log->addRow(tr("&Key field:"), log_key_);

    auto* form = new QFormLayout;
    form->addRow(tr("Fo&rmat:"), format_);
    form->addRow(csv_fields_);
    form->addRow(log_fields_);
    form->addRow(tr("&Tick length:"), tick_ms_);

    layout_->setObjectName(QStringLiteral("importLayout"));
    layout_->setWordWrap(true);
    layout_->setTextFormat(Qt::PlainText);
    requests_->setObjectName(QStringLiteral("importRequests"));
    requests_->setColumnCount(3);
    requests_->setHorizontalHeaderLabels({tr("Tick"), tr("Key"), tr("Cost")});
    requests_->verticalHeader()->hide();
    requests_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    requests_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    requests_->setMinimumHeight(160);
    skipped_->setObjectName(QStringLiteral("importSkipped"));
    skipped_->setReadOnly(true);
    skipped_->setMaximumHeight(90);
    skipped_->setPlaceholderText(tr("No line skipped"));
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("&Import"));

    auto* main = new QVBoxLayout(this);
    main->addWidget(new QLabel(tr("File: %1").arg(QDir::toNativeSeparators(path)), this));
    main->addLayout(form);
    main->addWidget(new QLabel(tr("<b>Preview</b> (the first %1 of the file)")
                                   .arg(QLocale().formattedDataSize(kPreviewBytes)),
                               this));
    main->addWidget(layout_);
    main->addWidget(requests_, 1);
    main->addWidget(new QLabel(tr("Skipped lines:"), this));
    main->addWidget(skipped_);
    main->addWidget(buttons_);
    resize(620, 640);

    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Typing in a column field previews once the typing pauses.
    auto* typing = new QTimer(this);
    typing->setSingleShot(true);
    typing->setInterval(300);
    connect(typing, &QTimer::timeout, this, &ImportDialog::refreshPreview);
    for (QLineEdit* column : {time_column_, key_column_, cost_column_}) {
        connect(column, &QLineEdit::textChanged, typing, qOverload<>(&QTimer::start));
    }
    for (QComboBox* combo : {format_, delimiter_, header_, time_unit_, log_key_}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &ImportDialog::refreshPreview);
    }
    connect(tick_ms_, &QSpinBox::valueChanged, typing, qOverload<>(&QTimer::start));
    refreshPreview();
}

io::ImportOptions ImportDialog::options() const {
    io::ImportOptions options;
    options.format = std::array{io::ImportFormat::kCsv, io::ImportFormat::kCommonLog,
                                io::ImportFormat::kCombinedLog}[static_cast<std::size_t>(
        std::max(0, format_->currentIndex()))];
    options.tick_ms = tick_ms_->value();
    if (delimiter_->currentIndex() > 0) {
        options.delimiter = std::array{
            ',', ';', '\t', '|'}[static_cast<std::size_t>(delimiter_->currentIndex() - 1)];
    }
    if (header_->currentIndex() > 0) {
        options.header = header_->currentIndex() == 1;
    }
    options.time_column = time_column_->text().trimmed().toStdString();
    options.key_column = key_column_->text().trimmed().toStdString();
    options.cost_column = cost_column_->text().trimmed().toStdString();
    options.time_unit = std::array{
        io::TimeUnit::kAuto, io::TimeUnit::kSeconds, io::TimeUnit::kMilliseconds,
        io::TimeUnit::kIso8601}[static_cast<std::size_t>(std::max(0, time_unit_->currentIndex()))];
    options.log_key = log_key_->currentText().toStdString();
    options.skipped_to_keep = 20;
    return options;
}

void ImportDialog::updateFormatFields() {
    const bool csv = format_->currentIndex() == 0;
    csv_fields_->setVisible(csv);
    log_fields_->setVisible(!csv);
    if (format_->currentIndex() == 1 && log_key_->currentIndex() >= 7) {
        log_key_->setCurrentIndex(0);  // the common format has no referer or user agent
    }
}

void ImportDialog::refreshPreview() {
    updateFormatFields();
    preview_.reset();
    error_.clear();
    try {
        preview_ = io::import_file_head(path_.toStdString(), options(), kPreviewBytes);
    } catch (const io::ImportError& error) {
        error_ = fromUtf8(error.what());
    } catch (const std::exception& error) {
        error_ = fromUtf8(error.what());
    }
    showPreview();
}

void ImportDialog::showPreview() {
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(preview_.has_value());
    requests_->setRowCount(0);
    skipped_->clear();
    if (!preview_) {
        layout_->setText(tr("Cannot import with these settings: %1").arg(error_));
        layout_->setStyleSheet(QStringLiteral("color: #B3261E"));
        return;
    }
    layout_->setStyleSheet(QString());
    const io::ImportResult& result = *preview_;
    const io::ImportLayout& read = result.layout;
    QString how;
    if (format_->currentIndex() == 0) {
        how = tr("Read as: %1-separated, %2; times from %3 (%4); keys from %5; costs from %6.")
                  .arg(delimiterName(read.delimiter),
                       read.header ? tr("line 1 names the columns") : tr("no header line"),
                       fromUtf8(read.time_column),
                       read.time_format.empty() ? tr("none read") : fromUtf8(read.time_format),
                       read.key_column.empty() ? tr("nowhere (every request has the default key)")
                                               : fromUtf8(read.key_column),
                       read.cost_column.empty() ? tr("nowhere (cost 1)")
                                                : fromUtf8(read.cost_column));
    } else {
        how = tr("Read as an access log; keys from the %1 field.").arg(fromUtf8(read.log_key));
    }
    const Trace& trace = result.document.trace;
    const QString counts =
        tr("%1 lines read, %2 requests, %3 skipped%4. Tick 0 is %5; the last request falls on "
           "tick %6.")
            .arg(QLocale().toString(static_cast<qulonglong>(result.lines)),
                 QLocale().toString(static_cast<qulonglong>(result.imported)),
                 QLocale().toString(static_cast<qulonglong>(result.skipped)),
                 result.complete ? QString() : tr(" in the preview"),
                 QDateTime::fromMSecsSinceEpoch(result.origin_ms, Qt::UTC)
                     .toString(Qt::ISODateWithMs),
                 QLocale().toString(static_cast<qlonglong>(
                     trace.requests.empty() ? 0 : trace.requests.back().tick)));
    layout_->setText(how + QLatin1Char('\n') + counts);
    constexpr int kShownRequests = 50;
    const int rows = static_cast<int>(
        std::min<std::size_t>(trace.requests.size(), static_cast<std::size_t>(kShownRequests)));
    requests_->setRowCount(rows);
    for (int row = 0; row < rows; ++row) {
        const Request& request = trace.requests[static_cast<std::size_t>(row)];
        const auto cell = [&](int column, const QString& text, bool right) {
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(right ? Qt::AlignRight | Qt::AlignVCenter
                                         : Qt::AlignLeft | Qt::AlignVCenter);
            requests_->setItem(row, column, item);
        };
        cell(0, QString::number(request.tick), true);
        cell(1, keyName(trace.key_name(request.key)), false);
        cell(2, QString::number(request.cost), true);
    }
    QStringList lines;
    for (const io::SkippedLine& line : result.first_skipped) {
        lines << tr("line %1: %2").arg(line.line).arg(fromUtf8(line.reason));
    }
    if (result.skipped > result.first_skipped.size()) {
        lines << tr("… and %1 more").arg(result.skipped - result.first_skipped.size());
    }
    skipped_->setPlainText(lines.join(QLatin1Char('\n')));
}

std::optional<io::ImportResult> ImportDialog::importAll(QString& error) {
    error.clear();
    io::ImportOptions options = this->options();
    options.skipped_to_keep = 5;
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::uint64_t> total{0};
    options.progress = [&](const io::ImportProgress& progress) {
        bytes = progress.bytes;
        total = progress.total_bytes;
        if (stop)
            throw ImportCancelled();
    };
    std::optional<io::ImportResult> result;
    std::exception_ptr failure;
    std::atomic<bool> done{false};
    QEventLoop loop;
    const std::string path = path_.toStdString();
    std::thread worker([&] {
        try {
            result = io::import_file(path, options);
        } catch (...) {
            failure = std::current_exception();
        }
        done = true;
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    QProgressDialog dialog(tr("Importing %1…").arg(QFileInfo(path_).fileName()), tr("Cancel"), 0,
                           1000, this);
    dialog.setWindowTitle(tr("Importing"));
    dialog.setWindowModality(Qt::ApplicationModal);
    dialog.setMinimumDuration(400);
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    connect(&dialog, &QProgressDialog::canceled, &dialog, [&] {
        stop = true;
        dialog.setLabelText(tr("Stopping…"));
    });
    QTimer poll;
    connect(&poll, &QTimer::timeout, &dialog, [&] {
        if (done) {
            loop.quit();
            return;
        }
        const double part =
            total == 0 ? 0.0
                       : static_cast<double>(bytes.load()) / static_cast<double>(total.load());
        dialog.setValue(static_cast<int>(std::min(part, 1.0) * 999));
    });
    poll.start(50);
    while (!done)
        loop.exec();
    worker.join();
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const ImportCancelled&) {
            return std::nullopt;  // an empty error: cancelled
        } catch (const std::exception& thrown) {
            error = fromUtf8(thrown.what());
            return std::nullopt;
        }
    }
    return result;
}

}  // namespace ratelab::ui
