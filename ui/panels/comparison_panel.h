#pragma once

#include <QTableView>

namespace ratelab::ui {

class ComparisonModel;

/// The comparison table. Selecting a row picks that algorithm for the timeline highlight and the
/// Learn panel.
class ComparisonPanel : public QTableView {
    Q_OBJECT

public:
    explicit ComparisonPanel(QWidget* parent = nullptr);

    ComparisonModel* comparisonModel() const { return model_; }
    QSize sizeHint() const override;

public Q_SLOTS:
    void selectRow(int row);

Q_SIGNALS:
    /// A row was selected (-1: none).
    void rowSelected(int row);

protected:
    void changeEvent(QEvent* event) override;

private:
    ComparisonModel* model_;
};

}  // namespace ratelab::ui
