#include "panels/comparison_model.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "charts/tick_text.h"
#include "timeline/decision_tooltip.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent), over_limit_text_(timeline_palette::kBurstOver) {}

void ComparisonModel::setRowBackgrounds(const QColor& base, const QColor& alternate) {
    using timeline_palette::legibleOn;
    const QColor text = legibleOn(legibleOn(timeline_palette::kBurstOver, base), alternate);
    if (text != over_limit_text_) {
        over_limit_text_ = text;
        if (rowCount() > 0) {
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1),
                               {Qt::ForegroundRole});
        }
    }
}

void ComparisonModel::setFrame(const Frame& frame) {
    const bool same_rows =
        frame_.result && frame.result && frame_.result->runs.size() == frame.result->runs.size();
    if (!same_rows) {
        beginResetModel();
    }
    // Only the headers that name the clock or W change. Any headerDataChanged makes the view lay
    // all its items out again and paint a second time, so it is sent only when W's header
    // changes; the clock's header, which changes at every step, only needs repainting.
    const QVariant old_state = headerData(kState, Qt::Horizontal, Qt::DisplayRole);
    const QVariant old_burst = headerData(kWorstBurst, Qt::Horizontal, Qt::DisplayRole);
    frame_ = frame;
    if (frame_.result && key_ && *key_ >= frame_.result->trace->keys.size()) {
        key_.reset();
    }
    filterKeys();
    states_.clear();
    if (frame_.result) {
        const KeyId key = shownKey();
        for (std::size_t lane = 0; lane < frame_.result->runs.size(); ++lane) {
            // Written as the decision tooltips write states, with ×, not the core's "x".
            states_.push_back(mathSigns(state_at(*frame_.result, lane, key, frame_.now).summary));
        }
    }
    if (same_rows) {
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1));
        if (headerData(kWorstBurst, Qt::Horizontal, Qt::DisplayRole) != old_burst) {
            Q_EMIT headerDataChanged(Qt::Horizontal, kWorstBurst, kWorstBurst);
        }
        if (headerData(kState, Qt::Horizontal, Qt::DisplayRole) != old_state) {
            Q_EMIT clockHeaderChanged();
        }
    } else {
        endResetModel();
    }
}

KeyId ComparisonModel::shownKey() const {
    if (key_ || !frame_.result || frame_.result->trace->requests.empty()) {
        return key_.value_or(0);
    }
    const auto& requests = frame_.result->trace->requests;
    return requests[frame_.decided > 0 ? std::min(frame_.decided, requests.size()) - 1 : 0].key;
}

void ComparisonModel::setShownKeys(const QStringList& names) {
    if (names == shown_names_)
        return;
    beginResetModel();  // the headers name the keys
    shown_names_ = names;
    filterKeys();
    endResetModel();
}

void ComparisonModel::filterKeys() {
    shown_lanes_.clear();
    shown_count_ = 0;
    if (shown_names_.isEmpty() || !frame_.result)
        return;
    const std::vector<char> mask = keyMask(*frame_.result->trace, shown_names_);
    shown_count_ = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
    shown_lanes_ = shownLaneKeys(frame_, mask);
    if (shown_lanes_.empty())
        shown_count_ = 0;  // no key figures to count them apart: every key
}

QString ComparisonModel::keysShown() const {
    if (shown_count_ == 1) {
        for (const QString& name : shown_names_) {
            if (frame_.result->trace->find_key(name.toStdString()))
                return tr(", key %1").arg(keyName(name.toStdString()));
        }
    }
    return tr(", %n keys", nullptr, static_cast<int>(shown_count_));
}

const LaneKeys* ComparisonModel::shownLane(std::size_t lane) const {
    return lane < shown_lanes_.size() && shown_lanes_[lane] ? &*shown_lanes_[lane] : nullptr;
}

JudgedBurst ComparisonModel::judged(std::size_t lane) const {
    return judgedAmong(frame_, lane, shownLane(lane));
}

Totals ComparisonModel::totals(std::size_t lane, const AlgorithmRun& revealed) const {
    const LaneKeys* shown = shownLane(lane);
    return shown != nullptr ? sum_totals(*shown) : revealed.totals;
}

void ComparisonModel::setKey(std::optional<KeyId> key) {
    if (key != key_) {
        key_ = key;
        setFrame(Frame(frame_));
    }
}

std::string ComparisonModel::idAt(int row) const {
    if (!frame_.result || row < 0 || row >= rowCount()) {
        return {};
    }
    return frame_.result->runs[static_cast<std::size_t>(row)].id;
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !frame_.result ? 0 : static_cast<int>(frame_.result->runs.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

bool ComparisonModel::queues(const AlgorithmRun& run) const {
    // Declared by the algorithm, so a queue that has accepted nothing yet still counts.
    return run.releases;
}

QVariant ComparisonModel::display(const AlgorithmRun& run, const AlgorithmRun& revealed,
                                  int column) const {
    const std::size_t lane = static_cast<std::size_t>(&run - frame_.result->runs.data());
    const Totals totals = this->totals(lane, revealed);
    const auto count = [](std::int64_t requests, std::int64_t cost) {
        return requests == cost ? QString::number(requests)
                                : tr("%1 (cost %2)").arg(requests).arg(cost);
    };
    switch (column) {
        case kAlgorithm:
            return laneName(run.id, run.label);
        case kState:
            return states_[lane];
        case kAccepted:
            return count(totals.accepted, totals.accepted_cost);
        case kRejected:
            return count(totals.rejected, totals.rejected_cost);
        case kWorstBurst: {
            const JudgedBurst burst = judged(lane);
            // One key: the number alone, under a header that names W and L. Several: whose
            // burst, over its own W, against its own L.
            if (!frame_.severalKeys() && burst.limit != 0) {
                return QString::number(revealed.worst_burst.cost);
            }
            return judgedBurstText(*frame_.result, burst, frame_.severalKeys());
        }
        case kMaxDelay:
            // Before a queue has accepted anything there is no delay to report, as for an
            // algorithm that never queues: "0 ticks" would claim that requests passed at once.
            return queues(run) && totals.accepted > 0
                       ? ticksAndSeconds(totals.max_delay, frame_.tick_ms)
                       : QStringLiteral("—");
        default:
            return {};
    }
}

QVariant ComparisonModel::toolTip(const AlgorithmRun& run, const AlgorithmRun& revealed,
                                  int column) const {
    const Params& params = frame_.result->params;
    switch (column) {
        case kAlgorithm:
            return algorithmSummary(revealed.id);
        case kWorstBurst: {
            const std::size_t lane = static_cast<std::size_t>(&run - frame_.result->runs.data());
            const JudgedBurst judged = this->judged(lane);
            const Burst& burst = judged.burst;
            if (burst.cost == 0) {
                return tr("Nothing accepted yet");
            }
            const Rational end = burst.start + Rational(judged.window);
            const QString from = QString::fromStdString(burst.start.to_short(2));
            const QString to = QString::fromStdString(end.to_short(2));
            if (!frame_.severalKeys()) {
                return tr("The most cost let through in any %1 so far: %2, from t = %3 to "
                          "%4 (L = %5)")
                    .arg(ticksText(judged.window))
                    .arg(burst.cost)
                    .arg(from, to)
                    .arg(judged.limit != 0 ? judged.limit : params.base.limit);
            }
            const QString sum = tr("Summed over every key: %1 in %2.")
                                    .arg(revealed.worst_burst.cost)
                                    .arg(ticksText(params.base.window));
            if (judged.limit == 0) {
                return tr("Each key's own figures need the decisions, which this run did not "
                          "keep. %1")
                    .arg(sum);
            }
            return tr("Each key is held to its own limit. The worst so far, relative to its "
                      "limit: key %1, %2 in %3 from t = %4 to %5, against its L = %6. %7")
                .arg(keyName(frame_.result->trace->key_name(*judged.key)))
                .arg(burst.cost)
                .arg(ticksText(judged.window))
                .arg(from, to)
                .arg(judged.limit)
                .arg(sum);
        }
        case kMaxDelay:
            if (!queues(run)) {
                return tr("This algorithm decides at once and never makes a request wait");
            }
            if (totals(static_cast<std::size_t>(&run - frame_.result->runs.data()), revealed)
                    .accepted == 0) {
                return tr("Nothing accepted yet");
            }
            return tr("The longest time an accepted request waited in a queue so far");
        case kState:
            return tr("The limiter's state after every request up to t = %1").arg(frame_.now);
        default:
            return {};
    }
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !frame_.result || index.row() >= rowCount()) {
        return {};
    }
    const AlgorithmRun& run = frame_.result->runs[static_cast<std::size_t>(index.row())];
    const AlgorithmRun* revealed = frame_.revealedRun(static_cast<std::size_t>(index.row()));
    if (!revealed) {
        return {};
    }
    const bool over_limit = judged(static_cast<std::size_t>(index.row())).over_limit();
    switch (role) {
        case Qt::DisplayRole:
            return display(run, *revealed, index.column());
        case Qt::ToolTipRole:
            return toolTip(run, *revealed, index.column());
        case Qt::TextAlignmentRole:
            return index.column() >= kAccepted ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (frame_.counting && index.column() >= kAccepted) {
                // Of an earlier clock, until those of this one are counted.
                return QBrush(QGuiApplication::palette().color(QPalette::PlaceholderText));
            }
            if (index.column() == kWorstBurst && over_limit) {
                return QBrush(over_limit_text_);
            }
            return {};
        case Qt::FontRole:
            if ((index.column() == kWorstBurst && over_limit) || index.column() == kAlgorithm) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        default:
            return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const Tick window = frame_.result ? frame_.result->params.base.window : 0;
    switch (section) {
        case kAlgorithm:
            return tr("Algorithm");
        case kState:
            if (frame_.severalKeys()) {
                return tr("State at t = %1, key %2")
                    .arg(frame_.now)
                    .arg(keyName(frame_.result->trace->key_name(shownKey())));
            }
            return tr("State at t = %1").arg(frame_.now);
        case kAccepted:
            return shown_count_ == 0 ? tr("Accepted") : tr("Accepted%1").arg(keysShown());
        case kRejected:
            return shown_count_ == 0 ? tr("Rejected") : tr("Rejected%1").arg(keysShown());
        case kWorstBurst:
            if (frame_.severalKeys()) {
                return tr("Worst burst, key against its own L");
            }
            return tr("Worst %1-tick burst").arg(window);
        case kMaxDelay:
            return tr("Longest delay");
        default:
            return {};
    }
}

}  // namespace ratelab::ui
