#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>
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
    /// Counts only the requests of these keys, by name (the charts' choice): accepted,
    /// rejected, the worst burst (the worst of them against its own L) and the longest delay.
    /// Empty, or none of them in the trace: every key.
    void setShownKeys(const QStringList& names);
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
    /// Lane `lane`'s figures of the keys on show, or null when every key is.
    const LaneKeys* shownLane(std::size_t lane) const;
    /// The burst lane `lane` is judged by: of the keys on show, or the lane's headline.
    JudgedBurst judged(std::size_t lane) const;
    Totals totals(std::size_t lane, const AlgorithmRun& revealed) const;
    /// shown_lanes_ for the frame and the names.
    void filterKeys();
    /// ", key pro" or ", 2 keys": what the counted columns' headers add for the keys on show.
    QString keysShown() const;

    Frame frame_;
    std::optional<KeyId> key_;
    QColor over_limit_text_;
    std::vector<QString> states_;  ///< the state column, computed once per frame
    QStringList shown_names_;
    std::size_t shown_count_ = 0;  ///< how many of shown_names_ the trace has
    /// Per lane, the key figures of the keys on show (once per frame); empty: every key.
    std::vector<std::optional<LaneKeys>> shown_lanes_;
};

}  // namespace ratelab::ui
