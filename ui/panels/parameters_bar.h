#pragma once

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace ratelab::ui {

class TickSpinBox;

class Session;

/// The main controls: the limit L, the window W and the scenario chooser.
class ParametersBar : public QWidget {
    Q_OBJECT

public:
    explicit ParametersBar(Session* session, QWidget* parent = nullptr);

    QSpinBox* limitBox() const { return limit_; }
    TickSpinBox* windowBox() const { return window_; }
    QComboBox* scenarioBox() const { return scenario_; }

    /// Shows `names` (with `summaries` as tooltips) in the scenario chooser, `current` selected,
    /// without emitting.
    void setScenarios(const QStringList& names, const QStringList& summaries, int current);
    void setCurrentScenario(int index);
    /// Back to the entry shown before the user's pick (a switch that was cancelled or failed).
    void restoreScenario() { setCurrentScenario(shown_scenario_); }

Q_SIGNALS:
    /// The user picked entry `index` of the scenario chooser.
    void scenarioChosen(int index);

private:
    void showParams();
    /// Whether a value typed into L or W is taken at each keystroke or when typing ends, by the
    /// size of the simulation it starts.
    void trackTyping();

    Session* session_;
    QSpinBox* limit_;
    TickSpinBox* window_;
    QComboBox* scenario_;
    int shown_scenario_ = -1;  ///< the entry last put there by the app, not by a pick
};

}  // namespace ratelab::ui
