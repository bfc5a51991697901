#pragma once

#include <QWidget>
#include <functional>
#include <optional>

#include "ratelab/model.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ratelab::ui {

class Session;

/// The per-algorithm overrides of the defaults derived from L and W, and the "rejections
/// count" option. An empty field means "use the default", which is shown as a hint.
class AdvancedPanel : public QWidget {
    Q_OBJECT

public:
    explicit AdvancedPanel(Session* session, QWidget* parent = nullptr);

    QCheckBox* rejectionsCountBox() const { return rejections_count_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showProblemsLegibly();
    using CountField = std::optional<std::int64_t> Overrides::*;
    using RateField = std::optional<Rational> Overrides::*;

    QSpinBox* addCountField(const QString& label, const QString& tip, CountField field, int key);
    QLineEdit* addRateField(const QString& label, const QString& tip, RateField field, int key);
    void applyOverrides(const Overrides& overrides, const QString& text, int key);
    void showParams();

    Session* session_;
    QCheckBox* rejections_count_;
    QLabel* problem_;
    QLabel* tiers_;
    QFormLayout* form_;
    std::vector<std::function<void()>> refreshers_;  ///< one per field, shows the session's value
};

}  // namespace ratelab::ui
