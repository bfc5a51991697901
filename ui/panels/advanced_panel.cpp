#include "panels/advanced_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "charts/algorithm_names.h"
#include "panels/param_keys.h"
#include "panels/parameter_fields.h"
#include "ratelab/limits.h"
#include "session/session.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

namespace {

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

    int first_key = kFirstOverrideKey;
    for (const AlgorithmInfo* algorithm : Registry::instance().all()) {
        if (algorithm->parameters.empty()) {
            continue;
        }
        form_->addRow(sectionTitle(algorithmName(algorithm->id), this));
        const std::string id = algorithm->id;
        const QString name = algorithmName(id);  // the registry's entries live as long as it
        auto* fields = new ParameterFields(
            *algorithm, form_, this,
            [this, algorithm, name, first_key](const std::string& parameter,
                                               const std::optional<ParamValue>& value,
                                               int position) {
                const ParameterInfo* info = find_parameter(algorithm->parameters, parameter);
                applyOverride(
                    algorithm->id, parameter, value,
                    tr("Set %1 %2").arg(name, QString::fromStdString(info->name).toLower()),
                    first_key + position);
            },
            [this, id](const QString& problem) {
                // Each algorithm's fields clear only their own message.
                if (problem.isEmpty() && field_problem_of_ != id)
                    return;
                field_problem_of_ = problem.isEmpty() ? std::string() : id;
                showProblem(problem);
            });
        fields_.emplace_back(id, fields);
        first_key += static_cast<int>(algorithm->parameters.size());
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
    // Put the fields back to what is in effect: after a refused change, and after one that
    // changed nothing (Use defaults when only a bad value was typed), which the session does
    // not announce.
    showParams();
    showProblem(problem);
}

void AdvancedPanel::showProblem(const QString& problem) {
    if (problem.isEmpty())
        field_problem_of_.clear();
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
}

void AdvancedPanel::showParams() {
    const Params& params = session_->params();
    {
        const QSignalBlocker block(rejections_count_);
        rejections_count_->setChecked(params.rejections_count);
    }
    for (const auto& [algorithm, fields] : fields_) {
        const auto set = params.base.overrides.find(algorithm);
        fields->show(set == params.base.overrides.end() ? ParamValues{} : set->second, params.base);
    }
    showProblem(QString());
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
