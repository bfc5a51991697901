#include "panels/advanced_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "charts/algorithm_names.h"
#include "panels/param_keys.h"
#include "ratelab/limits.h"
#include "session/session.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

namespace {

/// "Capacity (tokens)".
QString parameterLabel(const ParameterInfo& parameter) {
    const QString name = QCoreApplication::translate("Parameter", parameter.name.c_str());
    const std::string_view unit = unit_name(parameter.unit);
    return unit.empty() ? name
                        : AdvancedPanel::tr("%1 (%2)").arg(
                              name, QCoreApplication::translate("Unit", std::string(unit).c_str()));
}

QString parameterTip(const ParameterInfo& parameter) {
    QString tip = AdvancedPanel::tr("%1; default %2")
                      .arg(QCoreApplication::translate("Parameter", parameter.description.c_str()),
                           QString::fromStdString(parameter.default_rule.text));
    if (parameter.kind == ParamKind::rational) {
        tip += AdvancedPanel::tr(". Exact: write a fraction such as 5/2. Empty for the default.");
    } else if (parameter.kind == ParamKind::whole) {
        tip += AdvancedPanel::tr(". A whole number from %1 to %2. Empty for the default.")
                   .arg(QString::fromStdString(parameter.min.to_string()),
                        QString::fromStdString(parameter.max.to_string()));
    }
    return tip;
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

    int key = kFirstOverrideKey;
    for (const AlgorithmInfo* algorithm : Registry::instance().all()) {
        if (algorithm->parameters.empty()) {
            continue;
        }
        form_->addRow(sectionTitle(algorithmName(algorithm->id), this));
        for (const ParameterInfo& parameter : algorithm->parameters) {
            addField(*algorithm, parameter, key++);
        }
    }

    connect(rejections_count_, &QCheckBox::toggled, this, [this](bool on) {
        Params params = session_->params();
        params.rejections_count = on;
        session_->setParams(params, on ? tr("Count rejections") : tr("Ignore rejections"),
                            kNoMerge);
    });
    connect(defaults, &QPushButton::clicked, this,
            [this] { applyOverrides({}, tr("Use default parameters"), kNoMerge); });
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

void AdvancedPanel::addField(const AlgorithmInfo& algorithm, const ParameterInfo& parameter,
                             int key) {
    const QString label = parameterLabel(parameter);
    const QString tip = parameterTip(parameter);
    const std::string algorithm_id = algorithm.id;
    const std::string parameter_id = parameter.id;
    const QString undo_text = tr("Set %1").arg(QString::fromStdString(parameter.name).toLower());
    const auto current = [this, algorithm_id, parameter_id]() -> std::optional<ParamValue> {
        const AlgorithmParams& overrides = session_->params().base.overrides;
        const auto values = overrides.find(algorithm_id);
        if (values == overrides.end()) {
            return std::nullopt;
        }
        const auto value = values->second.find(parameter_id);
        return value == values->second.end() ? std::nullopt
                                             : std::optional<ParamValue>(value->second);
    };
    if (parameter.kind == ParamKind::flag || parameter.kind == ParamKind::choice) {
        auto* box = new QComboBox(this);
        box->setToolTip(tip);
        form_->addRow(label, box);
        std::vector<ParamValue> options = {ParamValue(true), ParamValue(false)};
        if (parameter.kind == ParamKind::choice) {
            options.assign(parameter.choices.begin(), parameter.choices.end());
        }
        refreshers_.push_back([this, box, options, parameter, current] {
            const QSignalBlocker block(box);
            box->clear();
            box->addItem(tr("default (%1)")
                             .arg(QString::fromStdString(to_text(
                                 parameter.default_for(session_->params().base.context())))));
            for (const ParamValue& option : options) {
                box->addItem(QString::fromStdString(to_text(option)));
            }
            const auto value = current();
            const auto at =
                value ? std::find(options.begin(), options.end(), *value) : options.end();
            box->setCurrentIndex(at == options.end() ? 0
                                                     : 1 + static_cast<int>(at - options.begin()));
        });
        connect(box, &QComboBox::activated, this,
                [this, options, algorithm_id, parameter_id, undo_text, key](int index) {
                    applyOverride(algorithm_id, parameter_id,
                                  index <= 0 ? std::nullopt
                                             : std::optional<ParamValue>(
                                                   options[static_cast<std::size_t>(index - 1)]),
                                  undo_text, key);
                });
        return;
    }
    auto* edit = new QLineEdit(this);
    edit->setToolTip(tip);
    edit->setClearButtonEnabled(true);
    form_->addRow(label, edit);
    refreshers_.push_back([this, edit, parameter, current] {
        const ParamValue fallback = parameter.default_for(session_->params().base.context());
        edit->setPlaceholderText(tr("default %1 = %2")
                                     .arg(QString::fromStdString(parameter.default_rule.text),
                                          QString::fromStdString(to_text(fallback))));
        const auto value = current();
        edit->setText(value ? QString::fromStdString(to_text(*value)) : QString());
        edit->setStyleSheet({});
    });
    // Checked as it is typed, so the help comes before the value is committed.
    connect(edit, &QLineEdit::textEdited, this, [this, edit, parameter](const QString& typed) {
        const QString text = typed.trimmed();
        const auto parsed = parse_value(parameter, text.toStdString());
        const auto* problem = std::get_if<std::string>(&parsed);
        const bool bad = !text.isEmpty() && problem != nullptr;
        edit->setStyleSheet(bad ? QStringLiteral("border: 1px solid #D55E00") : QString());
        showProblem(bad ? QString::fromStdString(*problem) : QString());
    });
    connect(edit, &QLineEdit::editingFinished, this,
            [this, edit, parameter, algorithm_id, parameter_id, undo_text, key, current] {
                const QString text = edit->text().trimmed();
                std::optional<ParamValue> value;
                if (!text.isEmpty()) {
                    auto parsed = parse_value(parameter, text.toStdString());
                    if (const auto* problem = std::get_if<std::string>(&parsed)) {
                        edit->setStyleSheet(QStringLiteral("border: 1px solid #D55E00"));
                        showProblem(QString::fromStdString(*problem));
                        return;
                    }
                    value = std::get<ParamValue>(std::move(parsed));
                }
                if (value != current()) {
                    applyOverride(algorithm_id, parameter_id, value, undo_text, key);
                }
            });
}

bool AdvancedPanel::applyOverride(const std::string& algorithm, const std::string& parameter,
                                  const std::optional<ParamValue>& value, const QString& text,
                                  int key) {
    AlgorithmParams overrides = session_->params().base.overrides;
    if (value) {
        overrides[algorithm][parameter] = *value;
    } else if (const auto it = overrides.find(algorithm); it != overrides.end()) {
        it->second.erase(parameter);
        if (it->second.empty()) {
            overrides.erase(it);
        }
    }
    applyOverrides(overrides, text, key);
    return problem_->isHidden();
}

void AdvancedPanel::applyOverrides(const AlgorithmParams& overrides, const QString& text, int key) {
    Params params = session_->params();
    params.base.overrides = overrides;
    const QString problem = session_->setParams(params, text, key);
    if (!problem.isEmpty()) {
        showParams();  // put the fields back to what is in effect
    }
    showProblem(problem);
}

void AdvancedPanel::showProblem(const QString& problem) {
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
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
