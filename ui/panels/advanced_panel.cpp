#include "panels/advanced_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "panels/param_keys.h"
#include "ratelab/limits.h"
#include "session/session.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

namespace {

QString rationalText(const Rational& value) {
    return QString::fromStdString(value.to_string());
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()), parent);
    label->setContentsMargins(0, 6, 0, 0);
    return label;
}

}  // namespace

AdvancedPanel::AdvancedPanel(Session* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      rejections_count_(new QCheckBox(tr("&Rejected requests count"), this)),
      problem_(new QLabel(this)),
      tiers_(new QLabel(this)),
      form_(new QFormLayout) {
    setObjectName(QStringLiteral("advancedPanel"));
    setFocusProxy(rejections_count_);
    rejections_count_->setToolTip(
        tr("Window algorithms count rejected requests against the allowance too, so a client "
           "that keeps retrying never gets back in"));
    problem_->setWordWrap(true);
    showProblemsLegibly();
    problem_->hide();
    tiers_->setWordWrap(true);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(rejections_count_);
    layout->addLayout(form_);
    layout->addWidget(problem_);
    layout->addWidget(tiers_);
    auto* defaults = new QPushButton(tr("Use &defaults"), this);
    defaults->setToolTip(tr("Clear every override: all algorithms derive from L and W again"));
    layout->addWidget(defaults, 0, Qt::AlignLeft);
    layout->addStretch(1);

    form_->addRow(sectionTitle(tr("Token bucket"), this));
    addCountField(tr("Capacity"), tr("Tokens the bucket holds at most; default L"),
                  &Overrides::bucket_capacity, kCapacityKey);
    addRateField(tr("Refill rate"), tr("Tokens added per tick, e.g. 2/5; default L/W"),
                 &Overrides::refill_rate, kRefillRateKey);
    form_->addRow(sectionTitle(tr("Leaky bucket"), this));
    addCountField(tr("Queue size"), tr("Cost units that may wait in the queue; default L"),
                  &Overrides::queue_size, kQueueSizeKey);
    addRateField(tr("Drain interval"), tr("Ticks between two released cost units; default W/L"),
                 &Overrides::drain_interval, kDrainIntervalKey);
    form_->addRow(sectionTitle(tr("GCRA"), this));
    addCountField(tr("Burst"), tr("Requests allowed back to back; default L"),
                  &Overrides::gcra_burst, kGcraBurstKey);
    addRateField(tr("Emission interval"), tr("Ticks per cost unit; default W/L"),
                 &Overrides::emission_interval, kEmissionIntervalKey);

    connect(rejections_count_, &QCheckBox::toggled, this, [this](bool on) {
        Params params = session_->params();
        params.rejections_count = on;
        session_->setParams(params, on ? tr("Count rejections") : tr("Ignore rejections"),
                            kNoMerge);
    });
    connect(defaults, &QPushButton::clicked, this,
            [this] { applyOverrides(Overrides{}, tr("Use default parameters"), kNoMerge); });
    connect(session_, &Session::paramsChanged, this, &AdvancedPanel::showParams);
    showParams();
}

void AdvancedPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        showProblemsLegibly();
    }
}

/// Problems are written in the rejection colour, adjusted to the palette so they stay readable on
/// a dark one too.
void AdvancedPanel::showProblemsLegibly() {
    QPalette colours = problem_->palette();
    colours.setColor(QPalette::WindowText,
                     timeline_palette::legibleOn(timeline_palette::kRejected,
                                                 palette().color(QPalette::Window)));
    problem_->setPalette(colours);
}

QSpinBox* AdvancedPanel::addCountField(const QString& label, const QString& tip, CountField field,
                                       int key) {
    auto* box = new QSpinBox(this);
    box->setRange(0, static_cast<int>(bounds::kMaxLimit));
    box->setToolTip(tip);
    box->setAccelerated(true);
    form_->addRow(label, box);
    refreshers_.push_back([this, box, field] {
        const QSignalBlocker block(box);
        box->setSpecialValueText(tr("default (%1)").arg(session_->params().base.limit));
        box->setValue(static_cast<int>((session_->params().base.overrides.*field).value_or(0)));
    });
    connect(box, &QSpinBox::valueChanged, this, [this, field, key, label](int value) {
        Overrides overrides = session_->params().base.overrides;
        overrides.*field = value == 0 ? std::nullopt : std::optional<std::int64_t>(value);
        applyOverrides(overrides, tr("Set %1").arg(label.toLower()), key);
    });
    return box;
}

QLineEdit* AdvancedPanel::addRateField(const QString& label, const QString& tip, RateField field,
                                       int key) {
    auto* edit = new QLineEdit(this);
    edit->setToolTip(tip + tr(". Exact: write a fraction such as 5/2. Empty for the default."));
    edit->setClearButtonEnabled(true);
    form_->addRow(label, edit);
    const bool per_tick = key == kRefillRateKey;
    refreshers_.push_back([this, edit, field, per_tick] {
        const Limits& base = session_->params().base;
        const Rational fallback =
            per_tick ? Rational(base.limit, base.window) : Rational(base.window, base.limit);
        edit->setPlaceholderText(tr("default %1").arg(rationalText(fallback)));
        const auto& value = base.overrides.*field;
        edit->setText(value ? rationalText(*value) : QString());
        edit->setStyleSheet({});
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, field, key, label] {
        const QString text = edit->text().trimmed();
        Overrides overrides = session_->params().base.overrides;
        if (text.isEmpty()) {
            overrides.*field = std::nullopt;
        } else if (const auto value = Rational::parse(text.toStdString())) {
            overrides.*field = *value;
        } else {
            edit->setStyleSheet(QStringLiteral("border: 1px solid #D55E00"));
            problem_->setText(tr("%1: \"%2\" is not a number or a fraction such as 5/2")
                                  .arg(label, text.toHtmlEscaped()));
            problem_->show();
            return;
        }
        if (overrides.*field != session_->params().base.overrides.*field) {
            applyOverrides(overrides, tr("Set %1").arg(label.toLower()), key);
        }
    });
    return edit;
}

void AdvancedPanel::applyOverrides(const Overrides& overrides, const QString& text, int key) {
    Params params = session_->params();
    params.base.overrides = overrides;
    const QString problem = session_->setParams(params, text, key);
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    if (!problem.isEmpty()) {
        showParams();  // put the fields back to what is in effect
        problem_->show();
    }
}

void AdvancedPanel::showParams() {
    const Params& params = session_->params();
    {
        const QSignalBlocker block(rejections_count_);
        rejections_count_->setChecked(params.rejections_count);
    }
    for (const auto& refresh : refreshers_) {
        refresh();
    }
    problem_->hide();
    QStringList tiers;
    for (const auto& [key, limits] : params.keys) {
        tiers << tr("%1: L = %2, W = %3")
                     .arg(QString::fromStdString(key).toHtmlEscaped())
                     .arg(limits.limit)
                     .arg(limits.window);
    }
    tiers_->setText(
        tiers.isEmpty()
            ? QString()
            : tr("<b>Key tiers</b> (from the file)<br>%1").arg(tiers.join(QStringLiteral("<br>"))));
    tiers_->setVisible(!tiers.isEmpty());
}

}  // namespace ratelab::ui
