#pragma once

#include <QWidget>
#include <optional>
#include <vector>

#include "session/frame_model.h"

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTableView;

namespace ratelab::ui {

class KeysModel;
class DockPresence;
class EvictionRow;

/// The Keys panel: every key that made a request so far, its limit, and what one chosen lane
/// did with it, the worst burst held to the key's own L. Noisy keys come first; selecting a key
/// shows its state in the comparison table.
class KeysPanel : public QWidget {
    Q_OBJECT

public:
    explicit KeysPanel(QWidget* parent = nullptr);

    KeysModel* keysModel() const { return model_; }
    QTableView* table() const { return table_; }
    EvictionRow* evictionRow() const { return eviction_; }
    /// Shows a button for `action` (Edit > Tiers) beside the lane chooser.
    void setTiersAction(QAction* action);

public Q_SLOTS:
    /// Follows the clock; while the panel is hidden, only the latest frame is kept.
    void setFrame(const ratelab::ui::Frame& frame);
    /// Shows the figures of lane `lane` (as the comparison table's selected row).
    void setLane(int lane);

Q_SIGNALS:
    /// A key was selected in the table; nothing when the selection was cleared.
    void keySelected(std::optional<ratelab::KeyId> key);
    /// The keys selected in the table (several with Ctrl or Shift), by name; empty when none
    /// is: what the charts then count.
    void keysChosen(const QStringList& names);

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void apply();
    void fillLanes();
    void showCost();

    KeysModel* model_;
    QComboBox* lanes_;
    QLabel* summary_;
    QLabel* cost_;
    QSpinBox* estimate_keys_;
    EvictionRow* eviction_;
    QHBoxLayout* top_;
    QTableView* table_;
    Frame pending_;
    bool stale_ = false;
    DockPresence* presence_ =
        nullptr;  ///< the table follows the frame only while its tab is raised
    std::optional<KeyId> selected_;
    std::vector<KeyId> chosen_;  ///< every selected key, kept through re-sorted rows
};

}  // namespace ratelab::ui
