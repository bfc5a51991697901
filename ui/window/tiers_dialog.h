#pragma once

#include <QDialog>
#include <optional>

#include "ratelab/model.h"
#include "window/made_or_why.h"

class QLabel;
class QTableWidget;

namespace ratelab::ui {

class Session;

/// Edit > Tiers: the keys with limits of their own. Each row is a key, its L and W, and its
/// parameters for any algorithm, written as `--lane` writes a lane ("token_bucket:capacity=8",
/// several separated by ";"). Applying them is one undo step; a problem (a key twice, the
/// default key, a parameter out of its bounds) is answered in the dialog, which stays open.
class TiersDialog : public QDialog {
    Q_OBJECT

public:
    enum Column { kKey, kLimit, kWindow, kParameters, kColumnCount };

    explicit TiersDialog(Session* session, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    /// Adds a row: the first key of the trace without a tier, at the base L and W.
    void addTier();
    /// Removes the selected row.
    void removeTier();
    /// The parameters the rows describe, or nothing when a row is wrong: error() says which.
    std::optional<Params> params() const;
    QString error() const;

    void accept() override;

private:
    /// The parameters, or why they cannot be.
    MadeOrWhy<Params> make() const;
    void addRow(const std::string& key, const Limits& limits);

    Session* session_;
    QTableWidget* table_;
    QLabel* error_;
};

/// "token_bucket:capacity=8; leaky_bucket:queue_size=2": a tier's overrides as the Tiers dialog
/// writes them, algorithms in id order.
QString overridesText(const AlgorithmParams& overrides);

}  // namespace ratelab::ui
