#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <optional>

#include "session/frame_model.h"

namespace ratelab::ui {

/// One row per algorithm: its state at the current tick and what it has let through so far.
/// Every figure comes from the core (the revealed part of the frame, and state_at).
class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { kAlgorithm, kState, kAccepted, kRejected, kWorstBurst, kMaxDelay, kColumnCount };

    explicit ComparisonModel(QObject* parent = nullptr);

    void setFrame(const Frame& frame);
    /// The key whose state is shown (requests of other keys have their own limiter state), as
    /// the selection chose it; nothing: the key of the last request decided (else the first).
    void setKey(std::optional<KeyId> key);
    /// The key the state column shows: always one that made a request, when any did.
    KeyId shownKey() const;
    /// The backgrounds the table draws rows on, so that coloured text stays legible on them.
    void setRowBackgrounds(const QColor& base, const QColor& alternate);
    /// The algorithm id of `row`.
    std::string idAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

Q_SIGNALS:
    /// The state column's header names a new tick or key: repaint the header (the one header
    /// change not announced by headerDataChanged, which would lay the whole table out again).
    void clockHeaderChanged();

private:
    QVariant display(const AlgorithmRun& run, const AlgorithmRun& revealed, int column) const;
    QVariant toolTip(const AlgorithmRun& run, const AlgorithmRun& revealed, int column) const;
    bool queues(const AlgorithmRun& run) const;

    Frame frame_;
    std::optional<KeyId> key_;
    QColor over_limit_text_;
    std::vector<QString> states_;  ///< the state column, computed once per frame
};

}  // namespace ratelab::ui
