#pragma once

#include <QWidget>
#include <memory>
#include <optional>

#include "ratelab/eviction.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace ratelab {
struct SimulationResult;
}

namespace ratelab::ui {

/// The Keys panel's "drop idle keys" row: an eviction (keep every key, drop a key after T idle
/// ticks, or keep at most M keys) and what it would change for one lane over the whole trace:
/// evictions, those before the state had returned to a fresh one's, and the requests decided
/// otherwise (core: evict_lane()).
class EvictionRow : public QWidget {
    Q_OBJECT

public:
    explicit EvictionRow(QWidget* parent = nullptr);

    /// The simulation and the lane to compare; recomputed only when either, or the eviction,
    /// changes.
    void compare(std::shared_ptr<const SimulationResult> result, std::size_t lane);
    /// The eviction chosen (keep_all until the user picks another).
    Eviction eviction() const;
    void setEviction(const Eviction& eviction);
    /// The last comparison, when an eviction other than keep_all is chosen and the trace is
    /// small enough to decide again here.
    const std::optional<EvictionLane>& figures() const { return figures_; }
    QLabel* summary() const { return summary_; }

    /// Larger traces are left to `ratelab-cli simulate --evict`: the row decides again on the
    /// main thread.
    static constexpr std::size_t kMostRequests = 250'000;

private:
    void recompute();

    QComboBox* kind_;
    QSpinBox* amount_;
    QLabel* summary_;
    std::shared_ptr<const SimulationResult> result_;
    std::size_t lane_ = 0;
    std::optional<EvictionLane> figures_;
    /// What figures_ were computed from.
    std::shared_ptr<const SimulationResult> computed_for_;
    std::size_t computed_lane_ = 0;
    std::optional<Eviction> computed_eviction_;
};

}  // namespace ratelab::ui
