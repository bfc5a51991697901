#pragma once

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace ratelab::ui {

class Session;

/// The main controls: the limit L, the window W and the scenario chooser.
class ParametersBar : public QWidget {
    Q_OBJECT

public:
    explicit ParametersBar(Session* session, QWidget* parent = nullptr);

    QSpinBox* limitBox() const { return limit_; }
    QSpinBox* windowBox() const { return window_; }
    QComboBox* scenarioBox() const { return scenario_; }

    /// Shows `names` (with `summaries` as tooltips) in the scenario chooser, `current` selected,
    /// without emitting.
    void setScenarios(const QStringList& names, const QStringList& summaries, int current);
    void setCurrentScenario(int index);

Q_SIGNALS:
    /// The user picked entry `index` of the scenario chooser.
    void scenarioChosen(int index);

private:
    void showParams();

    Session* session_;
    QSpinBox* limit_;
    QSpinBox* window_;
    QComboBox* scenario_;
};

}  // namespace ratelab::ui
