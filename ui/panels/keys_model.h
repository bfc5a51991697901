#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <vector>

#include "session/frame_model.h"

namespace ratelab::ui {

/// One row per key that made a request so far: its tier and, for one chosen lane, what that
/// lane accepted and rejected of it and its worst burst against the key's own limit. Rows
/// start with the noisiest keys (most rejected cost); any column sorts.
class KeysModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { kKey, kTier, kRequests, kAccepted, kRejected, kWorstBurst, kState, kColumnCount };

    explicit KeysModel(QObject* parent = nullptr);

    void setFrame(const Frame& frame);
    /// The lane whose figures the rows show.
    void setLane(std::size_t lane);
    std::size_t lane() const { return lane_; }
    /// The background rows are drawn on, so that the over-limit colour stays legible on it.
    void setBackground(const QColor& base);
    /// The key on `row`, or nothing.
    std::optional<KeyId> keyAt(int row) const;
    /// The row showing `key`, or -1.
    int rowOf(KeyId key) const;
    /// False when the lane kept no decisions to count its keys from (several keys of a huge
    /// trace without them): the table is empty then and says why.
    bool counted() const { return figures() != nullptr; }
    /// What the lane's key states cost so far, when it can be counted (state_cost()).
    const std::optional<StateCost>& stateCost() const { return cost_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    const LaneKeys* figures() const;
    void order();

    Frame frame_;
    std::size_t lane_ = 0;
    std::optional<StateCost> cost_;
    std::vector<std::size_t> rows_;  ///< indexes into the lane's LaneKeys::keys, in shown order
    int sort_column_ = kRejected;
    Qt::SortOrder sort_order_ = Qt::DescendingOrder;
    QColor over_limit_text_;
};

}  // namespace ratelab::ui
