#include "panels/keys_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "charts/dock_presence.h"
#include "panels/eviction_row.h"
#include "panels/keys_model.h"

namespace ratelab::ui {

KeysPanel::KeysPanel(QWidget* parent)
    : QWidget(parent),
      model_(new KeysModel(this)),
      lanes_(new QComboBox(this)),
      summary_(new QLabel(this)),
      cost_(new QLabel(this)),
      estimate_keys_(new QSpinBox(this)),
      eviction_(new EvictionRow(this)),
      table_(new QTableView(this)) {
    presence_ = new DockPresence(this, [this] {
        if (stale_)
            apply();
    });
    setObjectName(QStringLiteral("keysPanel"));
    auto* top = new QHBoxLayout;
    top_ = top;
    auto* label = new QLabel(tr("&Lane:"), this);
    label->setBuddy(lanes_);
    lanes_->setObjectName(QStringLiteral("keysLane"));
    lanes_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    lanes_->setToolTip(tr("Whose decisions the table shows"));
    summary_->setObjectName(QStringLiteral("keysSummary"));
    summary_->setWordWrap(true);
    top->addWidget(label);
    top->addWidget(lanes_);
    top->addSpacing(12);
    top->addWidget(summary_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
    // What the keys' states cost, and what they would at a number of keys the user sets.
    auto* bottom = new QHBoxLayout;
    cost_->setObjectName(QStringLiteral("keysStateCost"));
    cost_->setWordWrap(true);
    auto* at = new QLabel(tr("&Estimate for:"), this);
    at->setBuddy(estimate_keys_);
    estimate_keys_->setObjectName(QStringLiteral("keysEstimate"));
    estimate_keys_->setRange(1, 1'000'000'000);
    estimate_keys_->setValue(10'000'000);
    estimate_keys_->setGroupSeparatorShown(true);
    estimate_keys_->setSuffix(tr(" keys"));
    estimate_keys_->setToolTip(tr("How many keys the estimate of the state's memory is for"));
    bottom->addWidget(cost_, 1);
    bottom->addWidget(at);
    bottom->addWidget(estimate_keys_);
    layout->addLayout(bottom);
    layout->addWidget(eviction_);
    connect(estimate_keys_, &QSpinBox::valueChanged, this, [this] { apply(); });

    table_->setObjectName(QStringLiteral("keysTable"));
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSortIndicator(KeysModel::kRejected, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(KeysModel::kKey, QHeaderView::Stretch);
    model_->setBackground(table_->palette().color(QPalette::Base));

    connect(lanes_, &QComboBox::currentIndexChanged, this, [this](int lane) {
        if (lane >= 0) {
            model_->setLane(static_cast<std::size_t>(lane));
            apply();
        }
    });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const std::optional<KeyId> key = model_->keyAt(current.row());
                if (key != selected_) {
                    selected_ = key;
                    Q_EMIT keySelected(key);
                }
            });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        std::vector<KeyId> chosen;
        for (const QModelIndex& row : table_->selectionModel()->selectedRows()) {
            if (const std::optional<KeyId> key = model_->keyAt(row.row()))
                chosen.push_back(*key);
        }
        std::sort(chosen.begin(), chosen.end());
        if (chosen == chosen_)
            return;
        chosen_ = std::move(chosen);
        QStringList names;
        for (const KeyId key : chosen_)
            names.append(QString::fromStdString(pending_.result->trace->key_name(key)));
        Q_EMIT keysChosen(names);
    });
}

void KeysPanel::setFrame(const Frame& frame) {
    pending_ = frame;
    stale_ = true;
    if (presence_->isShown()) {
        apply();
    }
}

void KeysPanel::setTiersAction(QAction* action) {
    auto* button = new QToolButton(this);
    button->setObjectName(QStringLiteral("keysTiers"));
    button->setDefaultAction(action);
    top_->addWidget(button);
}

void KeysPanel::setLane(int lane) {
    if (lane >= 0 && lane < lanes_->count()) {
        lanes_->setCurrentIndex(lane);
    }
}

void KeysPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    presence_->follow();
    if (stale_) {
        apply();
    }
}

void KeysPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        model_->setBackground(table_->palette().color(QPalette::Base));
    }
}

void KeysPanel::fillLanes() {
    const SimulationResult* result = pending_.result.get();
    QStringList names;
    for (std::size_t lane = 0; result != nullptr && lane < result->runs.size(); ++lane) {
        names << laneName(result->runs[lane].id, result->runs[lane].label);
    }
    QStringList shown;
    for (int i = 0; i < lanes_->count(); ++i) {
        shown << lanes_->itemText(i);
    }
    if (names == shown) {
        return;
    }
    const int current = std::max(0, lanes_->currentIndex());
    const QSignalBlocker quiet(lanes_);
    lanes_->clear();
    lanes_->addItems(names);
    lanes_->setCurrentIndex(std::min(current, static_cast<int>(names.size()) - 1));
    model_->setLane(static_cast<std::size_t>(std::max(0, lanes_->currentIndex())));
}

void KeysPanel::apply() {
    stale_ = false;
    fillLanes();
    model_->setFrame(pending_);
    // The selection follows its keys through the re-sorted rows.
    if (selected_ || !chosen_.empty()) {
        QItemSelectionModel* selection = table_->selectionModel();
        const QSignalBlocker quiet(selection);
        QItemSelection rows;
        for (const KeyId key : chosen_) {
            if (const int row = model_->rowOf(key); row >= 0)
                rows.select(model_->index(row, 0), model_->index(row, model_->columnCount() - 1));
        }
        selection->select(rows, QItemSelectionModel::ClearAndSelect);
        if (const int row = selected_ ? model_->rowOf(*selected_) : -1; row >= 0)
            selection->setCurrentIndex(model_->index(row, 0), QItemSelectionModel::NoUpdate);
    }
    const LaneKeys* lane = nullptr;
    if (pending_.keys && model_->lane() < pending_.keys->size() &&
        (*pending_.keys)[model_->lane()]) {
        lane = &*(*pending_.keys)[model_->lane()];
    }
    if (!pending_.result) {
        summary_->clear();
    } else if (pending_.counting && pending_.count_failed) {
        summary_->setText(
            tr("The keys could not be counted up to the clock (see the status "
               "bar). The table shows figures from before."));
    } else if (pending_.counting && pending_.earlier_settings) {
        // Before "kept no decisions": the figures on show may be of other lanes.
        summary_->setText(
            tr("Counting the keys for the new settings… The table shows the "
               "figures from before the change."));
    } else if (lane == nullptr) {
        summary_->setText(tr("This run kept no decisions, so its keys cannot be counted."));
    } else {
        int over = 0;
        for (const KeyFigures& key : lane->keys) {
            over += key.over_limit() ? 1 : 0;
        }
        const int keys = static_cast<int>(lane->keys.size());
        const QString counted = keys == 1 ? tr("1 key so far") : tr("%1 keys so far").arg(keys);
        summary_->setText(
            pending_.counting
                ? tr("Counting the keys up to the clock… The table shows an earlier clock's.")
            : over == 0 ? tr("%1, none over its own limit.").arg(counted)
            : over == 1 ? tr("%1; 1 over its own limit.").arg(counted)
                        : tr("%1; %2 over their own limits.").arg(counted).arg(over));
    }
    showCost();
    // What the keys so far cost is of an earlier clock too, until they are counted: greyed.
    cost_->setEnabled(!pending_.counting);
    eviction_->compare(pending_.result, model_->lane());
}

void KeysPanel::showCost() {
    const std::optional<StateCost>& cost = model_->stateCost();
    if (!cost) {
        cost_->setText(model_->counted() ? tr("This lane does not say what its state holds.")
                                         : QString());
        return;
    }
    // Numbers of 8 bytes, as most implementations keep them.
    const auto bytes = [](double numbers) {
        return QLocale().formattedDataSize(static_cast<qint64>(std::min(numbers * 8.0, 9e18)), 1,
                                           QLocale::DataSizeSIFormat);
    };
    const auto numbers = [](double n) {
        return QLocale().toString(static_cast<qint64>(std::min(n, 9e18)));
    };
    QString text =
        tr("Each key's state: %1. The keys so far held at most %2 numbers (%3).")
            .arg(QString::fromStdString(cost->size.what), numbers(static_cast<double>(cost->total)),
                 bytes(static_cast<double>(cost->total)));
    const double keys = estimate_keys_->value();
    if (cost->most_per_key) {
        const double most = keys * static_cast<double>(*cost->most_per_key);
        text += QLatin1Char(' ') +
                tr("%1 keys could hold up to %2 numbers (%3).")
                    .arg(QLocale().toString(keys, 'f', 0), numbers(most), bytes(most));
    } else {
        text += QLatin1Char(' ') +
                tr("Remembering rejected requests too, a log has no bound: a key that keeps "
                   "sending keeps growing it.");
    }
    cost_->setText(text);
}

}  // namespace ratelab::ui
