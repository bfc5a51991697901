#include "panels/eviction_row.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>

#include "charts/tick_text.h"
#include "ratelab/limits.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {

namespace {

QString number(std::int64_t n) {
    return QLocale().toString(static_cast<qint64>(n));
}

}  // namespace

EvictionRow::EvictionRow(QWidget* parent)
    : QWidget(parent),
      kind_(new QComboBox(this)),
      amount_(new QSpinBox(this)),
      summary_(new QLabel(this)) {
    setObjectName(QStringLiteral("evictionRow"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("&Idle keys:"), this);
    label->setBuddy(kind_);
    kind_->setObjectName(QStringLiteral("evictionKind"));
    kind_->addItem(tr("keep every key"), static_cast<int>(Eviction::Kind::keep_all));
    kind_->addItem(tr("drop after idle ticks"), static_cast<int>(Eviction::Kind::idle));
    kind_->addItem(tr("keep the most recent keys"), static_cast<int>(Eviction::Kind::lru));
    kind_->setToolTip(
        tr("What a limiter that cannot keep every key's state would do: drop a "
           "key's state after it has been idle a while, or keep only the most "
           "recently used keys. Its next request then meets a fresh state."));
    amount_->setObjectName(QStringLiteral("evictionAmount"));
    amount_->setRange(1, 1'000'000'000);
    amount_->setValue(20);
    amount_->setGroupSeparatorShown(true);
    amount_->setEnabled(false);
    summary_->setObjectName(QStringLiteral("evictionSummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label);
    layout->addWidget(kind_);
    layout->addWidget(amount_);
    layout->addWidget(summary_, 1);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(amount_, &QSpinBox::valueChanged, this, [this] { recompute(); });
}

Eviction EvictionRow::eviction() const {
    Eviction out;
    out.kind = static_cast<Eviction::Kind>(kind_->currentData().toInt());
    if (out.kind == Eviction::Kind::idle)
        out.idle_ticks = amount_->value();
    else if (out.kind == Eviction::Kind::lru)
        out.max_keys = amount_->value();
    return out;
}

void EvictionRow::setEviction(const Eviction& eviction) {
    const QSignalBlocker quiet_kind(kind_);
    const QSignalBlocker quiet_amount(amount_);
    kind_->setCurrentIndex(kind_->findData(static_cast<int>(eviction.kind)));
    if (eviction.kind == Eviction::Kind::idle)
        amount_->setValue(
            static_cast<int>(std::min<Tick>(eviction.idle_ticks, amount_->maximum())));
    else if (eviction.kind == Eviction::Kind::lru)
        amount_->setValue(
            static_cast<int>(std::min<std::int64_t>(eviction.max_keys, amount_->maximum())));
    recompute();
}

void EvictionRow::compare(std::shared_ptr<const SimulationResult> result, std::size_t lane) {
    result_ = std::move(result);
    lane_ = lane;
    recompute();
}

void EvictionRow::recompute() {
    const Eviction chosen = eviction();
    amount_->setEnabled(chosen.kind != Eviction::Kind::keep_all);
    const int amount = amount_->value();
    amount_->setSuffix(chosen.kind != Eviction::Kind::lru ? ticksSuffix(amount)
                       : amount == 1                      ? tr(" key")
                                                          : tr(" keys"));
    if (computed_for_ == result_ && computed_lane_ == lane_ && computed_eviction_ == chosen)
        return;
    computed_for_ = result_;
    computed_lane_ = lane_;
    computed_eviction_ = chosen;
    figures_.reset();
    if (chosen.kind == Eviction::Kind::keep_all || !result_ || lane_ >= result_->runs.size()) {
        summary_->setText(tr("Every key's state is kept, as in the lanes."));
        return;
    }
    const std::size_t requests = result_->trace->requests.size();
    if (requests > kMostRequests) {
        summary_->setText(tr("Too many requests to decide again here; use ratelab-cli simulate "
                             "--evict %1.")
                              .arg(QString::fromStdString(to_string(chosen))));
        return;
    }
    if (result_->runs[lane_].decisions.size() != requests) {
        summary_->setText(tr("This run kept no decisions to compare with."));
        return;
    }
    const EvictionSchedule schedule = eviction_schedule(*result_->trace, chosen);
    figures_ = evict_lane(*result_, lane_, schedule);
    const EvictionLane& f = *figures_;
    QString text = tr("Over the whole trace: %1 evictions, at most %2 keys held.")
                       .arg(number(f.evictions), number(schedule.peak_held));
    if (f.early_evictions > 0) {
        text += QLatin1Char(' ') +
                tr("%1 dropped a state not yet back to a fresh one (first: key \"%2\" at tick %3).")
                    .arg(number(f.early_evictions),
                         QString::fromStdString(f.first_early->first).toHtmlEscaped(),
                         number(f.first_early->second));
    }
    text += QLatin1Char(' ');
    text +=
        f.changed.empty()
            ? tr("No decision changes.")
            : tr("<b>%1 requests decided otherwise</b>: %2 more accepted, %3 more rejected%4.")
                  .arg(
                      number(static_cast<std::int64_t>(f.changed.size())), number(f.extra_accepted),
                      number(f.extra_rejected),
                      f.other_changes > 0
                          ? tr(", %1 with another delay or retry time").arg(number(f.other_changes))
                          : QString());
    summary_->setText(text);
}

}  // namespace ratelab::ui
