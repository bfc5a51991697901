#include "panels/parameters_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <limits>

#include "panels/param_keys.h"
#include "panels/tick_spin_box.h"
#include "ratelab/limits.h"
#include "session/session.h"
#include "session/simulation_run.h"

namespace ratelab::ui {

ParametersBar::ParametersBar(Session* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      limit_(new QSpinBox(this)),
      window_(new TickSpinBox(this)),
      scenario_(new QComboBox(this)) {
    limit_->setObjectName(QStringLiteral("limitBox"));
    limit_->setRange(1, static_cast<int>(bounds::kMaxLimit));
    limit_->setToolTip(tr("Limit L: the cost each algorithm may let through per window (Alt+L)"));
    limit_->setAccelerated(true);
    window_->setObjectName(QStringLiteral("windowBox"));
    window_->setRange(1, bounds::kMaxWindow);
    window_->showAsTicks();
    window_->setToolTip(tr("Window W: the span, in ticks, that the limit applies to (Alt+W)"));
    window_->setAccelerated(true);
    scenario_->setObjectName(QStringLiteral("scenarioBox"));
    scenario_->setToolTip(tr("Load a bundled scenario or a generated pattern (Alt+S)"));
    scenario_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    scenario_->setMinimumContentsLength(14);
    scenario_->setPlaceholderText(tr("Choose a scenario…"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    const auto add_labelled = [&](const QString& text, QWidget* field) {
        auto* label = new QLabel(text, this);
        label->setBuddy(field);
        label->setToolTip(field->toolTip());
        layout->addWidget(label);
        layout->addWidget(field);
        layout->addSpacing(10);
    };
    add_labelled(tr("&L"), limit_);
    add_labelled(tr("&W"), window_);
    add_labelled(tr("&Scenario"), scenario_);

    connect(limit_, &QSpinBox::valueChanged, this, [this](int value) {
        Params params = session_->params();
        params.base.limit = value;
        session_->setParams(params, tr("Set L = %1").arg(value), kLimitKey);
    });
    connect(window_, &TickSpinBox::valueChanged, this, [this](qint64 value) {
        Params params = session_->params();
        params.base.window = value;
        session_->setParams(params, tr("Set W = %1").arg(value), kWindowKey);
    });
    connect(scenario_, &QComboBox::activated, this, &ParametersBar::scenarioChosen);
    connect(session_, &Session::paramsChanged, this, &ParametersBar::showParams);
    connect(session_, &Session::resultChanged, this, &ParametersBar::trackTyping);
    showParams();
    trackTyping();
}

void ParametersBar::trackTyping() {
    // Each digit typed is a new L or W, and simulated at once: live on a small trace. On a big
    // one each simulation goes behind a progress dialog that holds input back, and the next
    // digit would be lost, so the value is taken when typing ends (Enter, or leaving the field);
    // the arrows still change it at once.
    const bool live = !simulatesInBackground(session_->trace(), session_->params());
    limit_->setKeyboardTracking(live);
    window_->setKeyboardTracking(live);
}

void ParametersBar::showParams() {
    const QSignalBlocker block_limit(limit_);
    const QSignalBlocker block_window(window_);
    limit_->setValue(static_cast<int>(session_->params().base.limit));
    window_->setValue(session_->params().base.window);
}

void ParametersBar::setScenarios(const QStringList& names, const QStringList& summaries,
                                 int current) {
    const QSignalBlocker block(scenario_);
    scenario_->clear();
    scenario_->addItems(names);
    for (int i = 0; i < summaries.size() && i < names.size(); ++i) {
        scenario_->setItemData(i, summaries[i], Qt::ToolTipRole);
    }
    scenario_->setCurrentIndex(current);
    shown_scenario_ = current;
}

void ParametersBar::setCurrentScenario(int index) {
    const QSignalBlocker block(scenario_);
    scenario_->setCurrentIndex(index);
    shown_scenario_ = index;
}

}  // namespace ratelab::ui
