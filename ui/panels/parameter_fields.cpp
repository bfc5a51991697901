#include "panels/parameter_fields.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <algorithm>

namespace ratelab::ui {

namespace {

const QString kBadValueStyle = QStringLiteral("border: 1px solid #D55E00");

QString text(const ParamValue& value) {
    return QString::fromStdString(to_text(value));
}

}  // namespace

ParameterFields::ParameterFields(const AlgorithmInfo& algorithm, QFormLayout* form, QWidget* owner,
                                 Edited edited, Problem problem)
    : QObject(owner),
      form_(form),
      owner_(owner),
      edited_(std::move(edited)),
      problem_(std::move(problem)) {
    int position = 0;
    for (const ParameterInfo& parameter : algorithm.parameters) {
        if (parameter.kind == ParamKind::flag || parameter.kind == ParamKind::choice) {
            addList(parameter, position++);
        } else {
            addLineEdit(parameter, position++);
        }
    }
}

QString ParameterFields::label(const ParameterInfo& parameter) {
    const QString name = QCoreApplication::translate("Parameter", parameter.name.c_str());
    const std::string unit(unit_name(parameter.unit));
    return unit.empty()
               ? name
               : tr("%1 (%2)").arg(name, QCoreApplication::translate("Unit", unit.c_str()));
}

QString ParameterFields::tip(const ParameterInfo& parameter) {
    QString tip = tr("%1; default %2")
                      .arg(QCoreApplication::translate("Parameter", parameter.description.c_str()),
                           QString::fromStdString(parameter.default_rule.text));
    if (parameter.kind == ParamKind::rational) {
        tip += tr(". Exact: write a fraction such as 5/2. Empty for the default.");
    } else if (parameter.kind == ParamKind::whole) {
        tip += tr(". A whole number from %1 to %2. Empty for the default.")
                   .arg(QString::fromStdString(parameter.min.to_string()),
                        QString::fromStdString(parameter.max.to_string()));
    }
    return tip;
}

void ParameterFields::report(const QObject* field, const QString& message) {
    // One message line serves every field: a field that is fine again only takes back its own
    // message, not another field's.
    if (!message.isEmpty()) {
        troubled_ = field;
    } else if (troubled_ != field) {
        return;
    } else {
        troubled_ = nullptr;
    }
    problem_(message);
}

void ParameterFields::show(const ParamValues& values, const Limits& base,
                           const ParamValues* inherited) {
    troubled_ = nullptr;  // the fields now show what is in effect
    values_ = values;
    for (const auto& refresh : refreshers_) {
        refresh(base, inherited);
    }
}

namespace {

/// What applies when the field is empty, in words: "default L/W = 2/5" or "Advanced: 8".
QString fallbackText(const ParameterInfo& parameter, const Limits& base,
                     const ParamValues* inherited) {
    if (inherited != nullptr) {
        if (const auto it = inherited->find(parameter.id); it != inherited->end()) {
            return ParameterFields::tr("as in Advanced: %1").arg(text(it->second));
        }
    }
    return ParameterFields::tr("default %1 = %2")
        .arg(QString::fromStdString(parameter.default_rule.text),
             text(parameter.default_for(base.context())));
}

}  // namespace

void ParameterFields::addList(const ParameterInfo& parameter, int position) {
    auto* box = new QComboBox(owner_);
    box->setToolTip(tip(parameter));
    form_->addRow(label(parameter), box);
    std::vector<ParamValue> options = {ParamValue(true), ParamValue(false)};
    if (parameter.kind == ParamKind::choice) {
        options.assign(parameter.choices.begin(), parameter.choices.end());
    }
    refreshers_.push_back([this, box, options, parameter](const Limits& base,
                                                          const ParamValues* inherited) {
        const QSignalBlocker block(box);
        box->clear();
        box->addItem(fallbackText(parameter, base, inherited));
        for (const ParamValue& option : options) {
            box->addItem(text(option));
        }
        const auto set = values_.find(parameter.id);
        const auto at = set == values_.end()
                            ? options.end()
                            : std::find(options.begin(), options.end(), set->second);
        box->setCurrentIndex(at == options.end() ? 0 : 1 + static_cast<int>(at - options.begin()));
    });
    connect(box, &QComboBox::activated, this, [this, options, parameter, position](int index) {
        edited_(parameter.id,
                index <= 0
                    ? std::nullopt
                    : std::optional<ParamValue>(options[static_cast<std::size_t>(index - 1)]),
                position);
    });
}

void ParameterFields::addLineEdit(const ParameterInfo& parameter, int position) {
    auto* edit = new QLineEdit(owner_);
    edit->setToolTip(tip(parameter));
    edit->setClearButtonEnabled(true);
    form_->addRow(label(parameter), edit);
    refreshers_.push_back(
        [this, edit, parameter](const Limits& base, const ParamValues* inherited) {
            edit->setPlaceholderText(fallbackText(parameter, base, inherited));
            const auto set = values_.find(parameter.id);
            edit->setText(set == values_.end() ? QString() : text(set->second));
            edit->setStyleSheet({});
        });
    // Checked as it is typed, so that the help comes before the value is committed.
    connect(edit, &QLineEdit::textEdited, this, [this, edit, parameter](const QString& typed) {
        const QString trimmed = typed.trimmed();
        const auto parsed = parse_value(parameter, trimmed.toStdString());
        const auto* problem = std::get_if<std::string>(&parsed);
        const bool bad = !trimmed.isEmpty() && problem != nullptr;
        edit->setStyleSheet(bad ? kBadValueStyle : QString());
        report(edit, bad ? QString::fromStdString(*problem) : QString());
    });
    // An empty field means the default, which is never wrong. The clear button empties it
    // without a textEdited signal, so the emptiness is watched for itself.
    connect(edit, &QLineEdit::textChanged, this, [this, edit](const QString& now) {
        if (now.trimmed().isEmpty()) {
            edit->setStyleSheet({});
            report(edit, QString());
        }
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, parameter, position] {
        const QString trimmed = edit->text().trimmed();
        std::optional<ParamValue> value;
        if (!trimmed.isEmpty()) {
            auto parsed = parse_value(parameter, trimmed.toStdString());
            if (const auto* problem = std::get_if<std::string>(&parsed)) {
                edit->setStyleSheet(kBadValueStyle);
                report(edit, QString::fromStdString(*problem));
                return;
            }
            value = std::get<ParamValue>(std::move(parsed));
        }
        const auto set = values_.find(parameter.id);
        const std::optional<ParamValue> before =
            set == values_.end() ? std::nullopt : std::optional<ParamValue>(set->second);
        if (value != before) {
            edited_(parameter.id, value, position);
        }
    });
}

}  // namespace ratelab::ui
