#include "panels/keys_model.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "charts/tick_text.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

KeysModel::KeysModel(QObject* parent)
    : QAbstractTableModel(parent), over_limit_text_(timeline_palette::kBurstOver) {}

void KeysModel::setBackground(const QColor& base) {
    over_limit_text_ = timeline_palette::legibleOn(timeline_palette::kBurstOver, base);
    if (rowCount() > 0) {
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1),
                           {Qt::ForegroundRole});
    }
}

const LaneKeys* KeysModel::figures() const {
    if (!frame_.keys || lane_ >= frame_.keys->size() || !(*frame_.keys)[lane_]) {
        return nullptr;
    }
    return &*(*frame_.keys)[lane_];
}

void KeysModel::setFrame(const Frame& frame) {
    beginResetModel();
    frame_ = frame;
    if (frame_.result && lane_ >= frame_.result->runs.size()) {
        lane_ = 0;
    }
    order();
    endResetModel();
}

void KeysModel::setLane(std::size_t lane) {
    if (lane == lane_) {
        return;
    }
    beginResetModel();
    lane_ = lane;
    order();
    endResetModel();
}

void KeysModel::sort(int column, Qt::SortOrder order_by) {
    Q_EMIT layoutAboutToBeChanged();
    sort_column_ = column;
    sort_order_ = order_by;
    order();
    Q_EMIT layoutChanged();
}

void KeysModel::order() {
    rows_.clear();
    cost_.reset();
    const LaneKeys* lane = figures();
    if (lane == nullptr) {
        return;
    }
    cost_ = state_cost(*frame_.result, lane_, *lane, KeyScope{frame_.decided, {}});
    rows_.resize(lane->keys.size());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        rows_[i] = i;
    }
    // How far a key's worst burst is over its own limit, as a comparable fraction.
    const auto relative = [](const KeyFigures& a, const KeyFigures& b) {
        return static_cast<Int128>(a.worst_burst.cost) * b.limit <
               static_cast<Int128>(b.worst_burst.cost) * a.limit;
    };
    const auto& keys = lane->keys;
    const Trace& trace = *frame_.result->trace;
    const auto less = [&](std::size_t a, std::size_t b) {
        const KeyFigures& x = keys[a];
        const KeyFigures& y = keys[b];
        switch (sort_column_) {
            case kTier:
                return std::pair(x.limit * y.window, x.window) <
                       std::pair(y.limit * x.window, y.window);
            case kRequests:
                return x.requests < y.requests;
            case kAccepted:
                return x.totals.accepted_cost < y.totals.accepted_cost;
            case kRejected:
                return x.totals.rejected_cost < y.totals.rejected_cost;
            case kWorstBurst:
                return relative(x, y);
            case kState:
                return cost_ && cost_->peaks[a] < cost_->peaks[b];
            default:
                return trace.key_name(x.key) < trace.key_name(y.key);
        }
    };
    // Ties keep the keys in name order (the core's), whichever way the column sorts.
    if (sort_order_ == Qt::AscendingOrder) {
        std::stable_sort(rows_.begin(), rows_.end(), less);
    } else {
        std::stable_sort(rows_.begin(), rows_.end(),
                         [&](std::size_t a, std::size_t b) { return less(b, a); });
    }
}

std::optional<KeyId> KeysModel::keyAt(int row) const {
    const LaneKeys* lane = figures();
    if (lane == nullptr || row < 0 || static_cast<std::size_t>(row) >= rows_.size()) {
        return std::nullopt;
    }
    return lane->keys[rows_[static_cast<std::size_t>(row)]].key;
}

int KeysModel::rowOf(KeyId key) const {
    const LaneKeys* lane = figures();
    for (std::size_t row = 0; lane != nullptr && row < rows_.size(); ++row) {
        if (lane->keys[rows_[row]].key == key) {
            return static_cast<int>(row);
        }
    }
    return -1;
}

int KeysModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int KeysModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant KeysModel::data(const QModelIndex& index, int role) const {
    const LaneKeys* lane = figures();
    if (!index.isValid() || lane == nullptr || index.row() >= rowCount()) {
        return {};
    }
    const KeyFigures& key = lane->keys[rows_[static_cast<std::size_t>(index.row())]];
    const Params& params = frame_.result->params;
    const std::string& name = frame_.result->trace->key_name(key.key);
    const bool tiered = params.keys.find(name) != params.keys.end();
    const auto count = [](std::int64_t requests, std::int64_t cost) {
        return requests == cost ? QString::number(requests)
                                : tr("%1 (cost %2)").arg(requests).arg(cost);
    };
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case kKey:
                    return keyName(name);
                case kTier:
                    return tiered ? tr("%1 per %2").arg(key.limit).arg(ticksText(key.window))
                                  : tr("%1 per %2 (default)")
                                        .arg(key.limit)
                                        .arg(ticksText(key.window));
                case kRequests:
                    return QString::number(key.requests);
                case kAccepted:
                    return count(key.totals.accepted, key.totals.accepted_cost);
                case kRejected:
                    return count(key.totals.rejected, key.totals.rejected_cost);
                case kWorstBurst:
                    return key.over_limit()
                               ? tr("%1 > %2").arg(key.worst_burst.cost).arg(key.limit)
                               : tr("%1 of %2").arg(key.worst_burst.cost).arg(key.limit);
                case kState:
                    if (!cost_) {
                        return QStringLiteral("\u2014");
                    }
                    return QString::number(
                        cost_->peaks[rows_[static_cast<std::size_t>(index.row())]]);
                default:
                    return {};
            }
        case Qt::ToolTipRole:
            if (index.column() == kWorstBurst) {
                if (key.worst_burst.cost == 0) {
                    return tr("Nothing of this key accepted yet");
                }
                return tr("The most cost of this key let through in any %1 so far: %2, from "
                          "t = %3, against its own L = %4")
                    .arg(ticksText(key.window))
                    .arg(key.worst_burst.cost)
                    .arg(QString::fromStdString(key.worst_burst.start.to_short(2)))
                    .arg(key.limit);
            }
            if (index.column() == kState) {
                return cost_ ? tr("The most numbers this key's state held at once: %1")
                                   .arg(QString::fromStdString(cost_->size.what))
                             : tr("This lane's state grows with its requests and is counted from "
                                  "its decisions, which this run did not keep");
            }
            if (index.column() == kTier) {
                return tiered ? tr("This key's own tier")
                              : tr("No tier of its own: the trace's limits");
            }
            return {};
        case Qt::TextAlignmentRole:
            return index.column() >= kRequests ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (frame_.counting) {
                // The keys and figures of an earlier clock, until those of this one are counted.
                return QBrush(QGuiApplication::palette().color(QPalette::PlaceholderText));
            }
            if (index.column() == kWorstBurst && key.over_limit()) {
                return QBrush(over_limit_text_);
            }
            return {};
        case Qt::FontRole:
            if (index.column() == kWorstBurst && key.over_limit()) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        default:
            return {};
    }
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case kKey:
            return tr("Key");
        case kTier:
            return tr("Limit");
        case kRequests:
            return tr("Requests");
        case kAccepted:
            return tr("Accepted");
        case kRejected:
            return tr("Rejected");
        case kWorstBurst:
            return tr("Worst burst against its L");
        case kState:
            return tr("State (numbers)");
        default:
            return {};
    }
}

}  // namespace ratelab::ui
