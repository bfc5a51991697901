#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/registry.h"

class QFormLayout;
class QWidget;

namespace ratelab::ui {

/// The fields of the parameters one algorithm declares, added to a form: a line edit for a whole
/// number or a fraction (checked as it is typed), a list for yes/no and for choices. Each label
/// carries the unit; an empty field or the first list entry means "the default", whose value is
/// the field's hint. The Advanced panel and the Lanes panel both build their forms from it.
class ParameterFields : public QObject {
    Q_OBJECT

public:
    /// A committed field: the parameter's id and its value, or nothing for the default.
    using Edited = std::function<void(const std::string& parameter,
                                      const std::optional<ParamValue>& value, int position)>;
    /// The text being typed is not a valid value (an empty message once that field is valid or
    /// empty again).
    using Problem = std::function<void(const QString& message)>;

    ParameterFields(const AlgorithmInfo& algorithm, QFormLayout* form, QWidget* owner,
                    Edited edited, Problem problem);

    /// Shows the values that are set and, as hints, what applies without them: the defaults for
    /// `base`'s L and W, or, when given, `inherited`'s values (a lane inherits the Advanced
    /// panel's overrides).
    void show(const ParamValues& values, const Limits& base,
              const ParamValues* inherited = nullptr);

    /// "Capacity (tokens)".
    static QString label(const ParameterInfo& parameter);
    /// The tooltip: what it means, its default rule and how to write a value.
    static QString tip(const ParameterInfo& parameter);

private:
    void addLineEdit(const ParameterInfo& parameter, int position);
    /// Passes `message` about `field` on to the Problem callback; an empty one only from the
    /// field whose message is shown.
    void report(const QObject* field, const QString& message);
    void addList(const ParameterInfo& parameter, int position);

    QFormLayout* form_;
    QWidget* owner_;
    Edited edited_;
    Problem problem_;
    ParamValues values_;
    const QObject* troubled_ = nullptr;  ///< the field whose problem is shown
    /// One per field: shows `values_`, and the hint for what applies when it is empty.
    std::vector<std::function<void(const Limits&, const ParamValues*)>> refreshers_;
};

}  // namespace ratelab::ui
