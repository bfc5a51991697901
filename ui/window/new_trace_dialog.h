#pragma once

#include <QDialog>
#include <QList>
#include <optional>

#include "session/session_document.h"
#include "window/made_or_why.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ratelab::ui {

class TickSpinBox;

/// File > New: an empty trace with its limits, timeline length and tick length, or traffic made
/// by one of the generators (`ratelab-cli generate`) with its parameters and seed. The form is
/// built from the patterns' declarations (io::patterns()), so a new pattern needs no change here.
class NewTraceDialog : public QDialog {
    Q_OBJECT

public:
    explicit NewTraceDialog(QWidget* parent = nullptr);

    /// The document the fields describe, or nothing when a value is wrong: error() says which.
    std::optional<SessionDocument> document() const;
    QString error() const;
    /// The document made when the user pressed Create.
    const std::optional<SessionDocument>& created() const { return created_; }

    // For tests and the keyboard: the fields.
    QComboBox* trafficBox() const { return traffic_; }
    QSpinBox* limitBox() const { return limit_; }
    TickSpinBox* windowBox() const { return window_; }
    QSpinBox* tickMsBox() const { return tick_ms_; }
    TickSpinBox* durationBox() const { return duration_; }
    QSpinBox* seedBox() const { return seed_; }
    /// The field of pattern parameter `name`, or null when the chosen traffic has none.
    QLineEdit* parameterField(const QString& name) const;

    void accept() override;

private:
    void showParameters();
    /// The document, or why it cannot be made.
    MadeOrWhy<SessionDocument> make() const;

    QComboBox* traffic_;
    QLabel* summary_;
    QSpinBox* limit_;
    TickSpinBox* window_;
    QSpinBox* tick_ms_;
    TickSpinBox* duration_;
    QSpinBox* seed_;
    QFormLayout* form_;
    int first_parameter_row_ = 0;  ///< the pattern's parameters start here
    QList<QLineEdit*> fields_;
    QLabel* error_;
    std::optional<SessionDocument> created_;
};

}  // namespace ratelab::ui
