#include "window/new_trace_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>
#include <map>

#include "panels/tick_spin_box.h"
#include "ratelab/io/generators.h"
#include "ratelab/limits.h"
#include "session/document_files.h"

namespace ratelab::ui {

namespace {

/// The pattern chosen in the traffic box, or null for an empty trace.
const io::PatternInfo* patternAt(int index) {
    const auto& all = io::patterns();
    return index >= 1 && index <= static_cast<int>(all.size())
               ? &all[static_cast<std::size_t>(index - 1)]
               : nullptr;
}

}  // namespace

NewTraceDialog::NewTraceDialog(QWidget* parent)
    : QDialog(parent),
      traffic_(new QComboBox(this)),
      summary_(new QLabel(this)),
      limit_(new QSpinBox(this)),
      window_(new TickSpinBox(this)),
      tick_ms_(new QSpinBox(this)),
      duration_(new TickSpinBox(this)),
      seed_(new QSpinBox(this)),
      form_(new QFormLayout),
      error_(new QLabel(this)) {
    setWindowTitle(tr("New Trace"));
    setMinimumWidth(480);
    traffic_->setObjectName(QStringLiteral("newTraffic"));
    traffic_->addItem(tr("Empty: click the top row to add requests"));
    for (const io::PatternInfo& pattern : io::patterns())
        traffic_->addItem(QString::fromStdString(pattern.id));
    summary_->setWordWrap(true);
    // Room for a two-line summary from the start: a form's rows do not grow with a wrapped
    // label's text once shown.
    summary_->setMinimumHeight(2 * summary_->fontMetrics().lineSpacing() + 2);
    summary_->setObjectName(QStringLiteral("newSummary"));

    limit_->setRange(1, static_cast<int>(bounds::kMaxLimit));
    limit_->setValue(4);
    window_->setRange(1, bounds::kMaxWindow);
    window_->setValue(10);
    window_->showAsTicks();
    tick_ms_->setRange(1, 86'400'000);
    tick_ms_->setValue(1000);
    tick_ms_->setSuffix(tr(" ms"));
    tick_ms_->setGroupSeparatorShown(true);
    tick_ms_->setToolTip(
        tr("How long one tick is, for showing seconds and for the library "
           "presets, which think in seconds"));
    duration_->setRange(1, bounds::kMaxTick);
    duration_->setValue(40);
    duration_->showAsTicks();
    duration_->setToolTip(tr("How many ticks the timeline shows before any request is added"));
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(1);
    seed_->setToolTip(tr("The same pattern, values and seed always give the same requests"));

    form_->addRow(tr("&Traffic:"), traffic_);
    form_->addRow(summary_);  // across both columns: a pattern's summary is a sentence
    form_->addRow(tr("&L (limit):"), limit_);
    form_->addRow(tr("&W (window):"), window_);
    form_->addRow(tr("Tick &length:"), tick_ms_);
    form_->addRow(tr("Timeline &shows:"), duration_);
    form_->addRow(tr("S&eed:"), seed_);
    first_parameter_row_ = form_->rowCount();
    error_->setObjectName(QStringLiteral("newError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #B0003A"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    connect(buttons, &QDialogButtonBox::accepted, this, &NewTraceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NewTraceDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(error_);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(traffic_, &QComboBox::currentIndexChanged, this, &NewTraceDialog::showParameters);
    showParameters();
}

QLineEdit* NewTraceDialog::parameterField(const QString& name) const {
    for (QLineEdit* field : fields_) {
        if (field->objectName() == name)
            return field;
    }
    return nullptr;
}

void NewTraceDialog::showParameters() {
    while (form_->rowCount() > first_parameter_row_)
        form_->removeRow(first_parameter_row_);
    fields_.clear();
    error_->clear();
    const io::PatternInfo* pattern = patternAt(traffic_->currentIndex());
    // An empty trace has no seed to use; a pattern's own length says what the timeline shows.
    seed_->setEnabled(pattern != nullptr);
    duration_->setEnabled(pattern == nullptr);
    if (pattern == nullptr) {
        summary_->setText(tr("No requests yet: add them by clicking the timeline's top row."));
        layout()->activate();
        adjustSize();
        return;
    }
    summary_->setText(QString::fromStdString(pattern->summary));
    for (const io::PatternParameter& parameter : pattern->parameters) {
        if (parameter.name == "limit" || parameter.name == "window")
            continue;  // the L and W fields above
        auto* field = new QLineEdit(QString::fromStdString(parameter.default_value), this);
        field->setObjectName(QString::fromStdString(parameter.name));
        field->setToolTip(QString::fromStdString(parameter.help));
        field->setPlaceholderText(QString::fromStdString(parameter.default_value));
        // "per_window" reads "Per window:".
        QString label =
            QString::fromStdString(parameter.name).replace(QLatin1Char('_'), QLatin1Char(' '));
        label[0] = label[0].toUpper();
        form_->addRow(label + QLatin1Char(':'), field);
        fields_ << field;
    }
    layout()->activate();
    adjustSize();  // room for the rows the pattern brought
}

MadeOrWhy<SessionDocument> NewTraceDialog::make() const {
    const io::PatternInfo* pattern = patternAt(traffic_->currentIndex());
    SessionDocument document;
    if (pattern == nullptr) {
        document = SessionDocument::empty();
        document.duration = duration_->value();
    } else {
        // Patterns shape their traffic by L and W too (a burst of L at a window's boundary).
        std::map<std::string, std::string> values = {{"limit", std::to_string(limit_->value())},
                                                     {"window", std::to_string(window_->value())}};
        for (const QLineEdit* field : fields_) {
            if (!field->text().trimmed().isEmpty())
                values[field->objectName().toStdString()] = field->text().trimmed().toStdString();
        }
        try {
            document = fromTraceDocument(io::generate_pattern(
                pattern->id, values, static_cast<std::uint64_t>(seed_->value())));
        } catch (const io::GeneratorError& failure) {
            return QString::fromStdString(failure.what());
        }
    }
    document.params.base.limit = limit_->value();
    document.params.base.window = window_->value();
    document.tick_ms = tick_ms_->value();
    set_tick_ms(document.params, document.tick_ms);
    return document;
}

std::optional<SessionDocument> NewTraceDialog::document() const {
    return madeValue(make());
}

QString NewTraceDialog::error() const {
    return whyNot(make());
}

void NewTraceDialog::accept() {
    auto made = make();
    if (const auto* problem = std::get_if<QString>(&made)) {
        error_->setText(*problem);  // the dialog stays, with what the user typed
        return;
    }
    created_ = std::move(std::get<SessionDocument>(made));
    QDialog::accept();
}

}  // namespace ratelab::ui
