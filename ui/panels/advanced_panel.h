#pragma once

#include <QWidget>
#include <functional>
#include <optional>

#include "ratelab/model.h"
#include "ratelab/registry.h"

class QCheckBox;
class QFormLayout;
class QLabel;

namespace ratelab::ui {

class ParameterFields;
class Session;

/// The per-algorithm overrides of the defaults derived from L and W, and the "rejections
/// count" option. The fields are made from the parameters each algorithm declares (its
/// AlgorithmInfo::parameters), with their units; an empty field means "use the default", which
/// is shown as a hint, and a value is checked as it is typed.
class AdvancedPanel : public QWidget {
    Q_OBJECT

public:
    explicit AdvancedPanel(Session* session, QWidget* parent = nullptr);

    QCheckBox* rejectionsCountBox() const { return rejections_count_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showProblemsLegibly();
    /// Sets (or, with nothing, clears) one override; returns false if it was refused.
    bool applyOverride(const std::string& algorithm, const std::string& parameter,
                       const std::optional<ParamValue>& value, const QString& text, int key);
    void applyOverrides(const AlgorithmParams& overrides, const QString& text, int key);
    void showProblem(const QString& problem);
    void showParams();

    Session* session_;
    QCheckBox* rejections_count_;
    QLabel* problem_;
    /// The algorithm whose field's problem problem_ shows; empty for none or another problem.
    std::string field_problem_of_;
    QLabel* tiers_;
    QFormLayout* form_;
    /// The fields of each algorithm with parameters, by algorithm id.
    std::vector<std::pair<std::string, ParameterFields*>> fields_;
};

}  // namespace ratelab::ui
