#include "charts/charts_panel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QScopeGuard>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "charts/chart_axes.h"
#include "charts/chart_hover.h"
#include "charts/chart_series.h"
#include "charts/chart_view.h"
#include "charts/dock_presence.h"
#include "charts/palette.h"
#include "ratelab/key_figures.h"
#include "session/frame_model.h"

namespace ratelab::ui {
namespace {

std::size_t slot(ChartKind kind) {
    return static_cast<std::size_t>(kind);
}

QString tabLabel(ChartKind kind) {
    switch (kind) {
        case ChartKind::Load:
            return ChartsPanel::tr("&Load");
        case ChartKind::Cumulative:
            return ChartsPanel::tr("&Cumulative");
        case ChartKind::Queue:
            return ChartsPanel::tr("&Queue");
        case ChartKind::Bucket:
            return ChartsPanel::tr("&Bucket Level");
        case ChartKind::Worst:
            return ChartsPanel::tr("&Worst Burst");
    }
    return QString();
}

QString tabTip(ChartKind kind) {
    switch (kind) {
        case ChartKind::Load:
            return ChartsPanel::tr("Accepted cost in the last W ticks, against L and 2L");
        case ChartKind::Cumulative:
            return ChartsPanel::tr("Accepted and rejected cost so far");
        case ChartKind::Queue:
            return ChartsPanel::tr("The leaky bucket's queue and each request's delay");
        case ChartKind::Bucket:
            return ChartsPanel::tr("Token-bucket tokens and GCRA allowance");
        case ChartKind::Worst:
            return ChartsPanel::tr("Each algorithm's worst W-tick burst");
    }
    return QString();
}

/// What a chart shows while its series are being computed, or when they could not be.
ChartSpec placeholderSpec(ChartKind kind, const Trace& trace, const QString& note) {
    ChartSpec spec;
    spec.kind = kind;
    spec.title = tabTip(kind);
    spec.note = note;
    const double from =
        trace.requests.empty() ? 0.0 : static_cast<double>(trace.requests.front().tick);
    const double to =
        trace.requests.empty() ? 1.0 : static_cast<double>(trace.requests.back().tick) + 1.0;
    spec.x = AxisSpec{ChartsPanel::tr("Tick"), from, to, niceStep(to - from, 10, 1.0)};
    spec.y = AxisSpec{QString(), 0.0, 1.0, 1.0};
    return spec;
}

}  // namespace

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent),
      tabs_(new QTabWidget(this)),
      key_chooser_(new QComboBox(this)),
      series_(new ChartSeries(this)),
      presence_(new DockPresence(this, [this] { refreshCurrent(); })) {
    tabs_->setDocumentMode(true);
    for (const ChartKind kind : kAllChartKinds) {
        auto* view = new ChartView(kind);
        views_[slot(kind)] = view;
        const int index = tabs_->addTab(view, tabLabel(kind));
        tabs_->setTabToolTip(index, tabTip(kind));
        view->setHoverText([this, kind](double x) { return hoverText(kind, x); });
        // Queued: the view reports a new width from inside its own layout.
        connect(
            view, &ChartView::plotResized, this,
            [this, kind] {
                // A plot a little narrower than the one drawn for shows the same: on ten
                // million requests, decimating again takes a tenth of a second.
                if (columnsFor(kind) == drawn_columns_[slot(kind)])
                    return;
                stale_[slot(kind)] = true;
                if (currentChart() == kind)
                    refresh(kind);
            },
            Qt::QueuedConnection);
        connect(view, &ChartView::exportChartRequested, this, [this](ChartKind chosen) {
            setCurrentChart(chosen);
            exportChart();
        });
        connect(view, &ChartView::copyChartRequested, this, [this](ChartKind chosen) {
            setCurrentChart(chosen);
            copyChartImage();
        });
        connect(view, &ChartView::exportDecisionsRequested, this, &ChartsPanel::exportDecisions);
        connect(view, &ChartView::exportReportRequested, this, &ChartsPanel::exportReport);
    }
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        refreshCurrent();
        Q_EMIT currentChartChanged(currentChart());
    });
    const auto action = [this](const QString& text, const QKeySequence& keys, const QString& tip,
                               void (ChartsPanel::*slot)()) {
        auto* created = new QAction(text, this);
        created->setShortcut(keys);
        created->setToolTip(
            keys.isEmpty() ? tip : tr("%1 (%2)").arg(tip, keys.toString(QKeySequence::NativeText)));
        connect(created, &QAction::triggered, this, slot);
        export_actions_.append(created);
    };
    action(tr("E&xport Chart or Figure…"), QKeySequence(Qt::CTRL | Qt::Key_E),
           tr("Save a chart, the timeline or a figure as PNG, SVG or PDF, in a print theme"),
           &ChartsPanel::exportChart);
    action(tr("Cop&y Chart Image"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
           tr("Copy the chart on show to the clipboard as an image"), &ChartsPanel::copyChartImage);
    action(tr("Export &Decisions as CSV…"), QKeySequence(),
           tr("Save every decision, one row per request and algorithm"),
           &ChartsPanel::exportDecisions);
    action(tr("Export &Report as JSON…"), QKeySequence(),
           tr("Save the simulation report, the same as ratelab-cli simulate prints"),
           &ChartsPanel::exportReport);

    key_chooser_->setObjectName(QStringLiteral("chartKeys"));
    key_chooser_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    key_chooser_->setMaximumWidth(fontMetrics().averageCharWidth() * 36);
    key_chooser_->setToolTip(
        tr("Which keys the charts count. One key is drawn against its own tier's L and W; "
           "several are summed. Selecting keys on the Keys tab chooses them too."));
    key_chooser_->hide();
    connect(key_chooser_, &QComboBox::activated, this,
            [this](int index) { setShownKeys(key_chooser_->itemData(index).toStringList()); });
    tabs_->setCornerWidget(key_chooser_, Qt::TopRightCorner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    stale_.fill(true);
    connect(series_, &ChartSeries::computed, this, &ChartsPanel::markAllStale);
}

ChartsPanel::~ChartsPanel() = default;

void ChartsPanel::setResult(std::shared_ptr<const SimulationResult> result) {
    if (result == result_)
        return;
    result_ = std::move(result);
    whole_.fill(std::nullopt);
    series_->drop();
    fillKeyChooser();
    markAllStale();
}

void ChartsPanel::setShownKeys(const QStringList& names) {
    if (names == shown_keys_)
        return;
    shown_keys_ = names;
    whole_.fill(std::nullopt);
    series_->drop();
    // Listed again: the chooser names a choice of several keys in an entry of its own.
    listed_trace_.reset();
    listed_keys_.clear();
    fillKeyChooser();
    markAllStale();
    Q_EMIT shownKeysChanged(shown_keys_);
}

void ChartsPanel::fillKeyChooser() {
    const std::shared_ptr<const Trace> shown = result_ ? result_->trace : nullptr;
    const Trace* trace = shown.get();
    // An edit keeps the trace's keys: the list stays, in the order of when it was made.
    if (shown == listed_trace_.lock() ||
        (trace && !listed_keys_.empty() && trace->keys == listed_keys_)) {
        listed_trace_ = shown;
        return;
    }
    listed_trace_ = shown;
    listed_keys_ = trace ? trace->keys : std::vector<std::string>();
    const QSignalBlocker quiet(key_chooser_);
    key_chooser_->clear();
    key_chooser_->addItem(tr("All keys"), QStringList());
    std::vector<std::size_t> counts(listed_keys_.size(), 0);
    if (trace && listed_keys_.size() > 1) {
        for (const Request& r : trace->requests)
            ++counts[r.key];
    }
    std::vector<KeyId> order;
    for (KeyId k = 0; k < counts.size(); ++k) {
        if (counts[k] > 0)
            order.push_back(k);
    }
    key_chooser_->setVisible(order.size() > 1);
    if (order.size() < 2)
        return;
    // The busiest keys first, and only so many, so that a trace of a million keys lists what
    // is worth a look; the Keys tab chooses any other.
    constexpr std::size_t kListed = 50;
    const std::size_t listed = std::min(kListed, order.size());
    const auto shown_end = order.begin() + static_cast<std::ptrdiff_t>(listed);
    std::partial_sort(order.begin(), shown_end, order.end(), [&](KeyId a, KeyId b) {
        return counts[a] != counts[b] ? counts[a] > counts[b] : listed_keys_[a] < listed_keys_[b];
    });
    QStringList resolved;
    for (const QString& name : shown_keys_) {
        if (trace->find_key(name.toStdString()))
            resolved.append(name);
    }
    if (resolved.size() > 1) {
        QStringList names;
        for (const QString& name : resolved)
            names.append(keyName(name.toStdString()));
        key_chooser_->addItem(tr("%n keys: %1", nullptr, static_cast<int>(resolved.size()))
                                  .arg(names.join(QStringLiteral(", "))),
                              resolved);
    }
    const auto add_key = [&](KeyId k) {
        key_chooser_->addItem(keyName(listed_keys_[k]),
                              QStringList{QString::fromStdString(listed_keys_[k])});
    };
    for (auto it = order.begin(); it != shown_end; ++it)
        add_key(*it);
    if (resolved.size() == 1) {
        const KeyId k = *trace->find_key(resolved.front().toStdString());
        if (std::find(order.begin(), shown_end, k) == shown_end)
            add_key(k);
    }
    key_chooser_->setCurrentIndex(std::max(0, key_chooser_->findData(resolved)));
}

void ChartsPanel::setFrame(const Frame& frame) {
    setResult(frame.result);
    setCurrentTick(frame.now);
}

void ChartsPanel::setCurrentTick(Tick tick) {
    if (now_ == tick)
        return;
    now_ = tick;
    markAllStale();
}

void ChartsPanel::clearCurrentTick() {
    now_.reset();
    markAllStale();
}

void ChartsPanel::setVisibleRange(double from, double to) {
    // The timeline draws tick t across the cell [t, t + 1) with its requests at the centre;
    // the charts put tick t at x = t, so the same pixels show the span shifted by half a tick.
    const std::pair<double, double> range{from - 0.5, to - 0.5};
    if (!(to > from) || range_ == range)
        return;
    range_ = range;
    markAllStale();
}

void ChartsPanel::resetVisibleRange() {
    range_.reset();
    markAllStale();
}

ChartKind ChartsPanel::currentChart() const {
    return static_cast<ChartView*>(tabs_->currentWidget())->kind();
}

void ChartsPanel::setCurrentChart(ChartKind kind) {
    tabs_->setCurrentWidget(views_[slot(kind)]);
}

ChartView* ChartsPanel::view(ChartKind kind) const {
    return views_[slot(kind)];
}

std::shared_ptr<const ResultSeries> ChartsPanel::series() const {
    return series_->get(result_, result_ ? shownKeyIds() : std::vector<KeyId>());
}

std::shared_ptr<const ResultSeries> ChartsPanel::seriesNow() const {
    // An export of a big trace may wait for its series for a few seconds.
    const bool waits = series_->computing();
    if (waits)
        QApplication::setOverrideCursor(Qt::WaitCursor);
    const auto restore = qScopeGuard([waits] {
        if (waits)
            QApplication::restoreOverrideCursor();
    });
    return series_->wait(result_, result_ ? shownKeyIds() : std::vector<KeyId>());
}

bool ChartsPanel::computingSeries() const {
    return series_->computing();
}

std::vector<KeyId> ChartsPanel::shownKeyIds() const {
    std::vector<KeyId> keys;
    for (const QString& name : shown_keys_) {
        if (const auto key = result_->trace->find_key(name.toStdString()))
            keys.push_back(*key);
    }
    return keys;
}

ChartInput ChartsPanel::input(int columns) const {
    ChartInput input;
    input.result = result_;
    input.series = seriesNow();
    input.columns = columns;
    input.now = now_;
    if (input.series) {
        std::tie(input.from, input.to) = range_.value_or(chartTimeSpan(*input.series));
    }
    return input;
}

void ChartsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    presence_->follow();
    refreshCurrent();
}

void ChartsPanel::markAllStale() {
    stale_.fill(true);
    refreshCurrent();
}

void ChartsPanel::refreshCurrent() {
    refresh(currentChart());
}

void ChartsPanel::refresh(ChartKind kind) {
    // A hidden panel stays stale and catches up when it is shown.
    if (!result_ || !stale_[slot(kind)] || !presence_->isShown())
        return;
    ChartView* view = views_[slot(kind)];
    if (!series()) {
        // A big trace: its series are computed on a thread, and the chart says so meanwhile.
        const Trace& trace = *result_->trace;
        if (!series_->error().isEmpty()) {
            view->showSpec(placeholderSpec(
                kind, trace, tr("The charts could not be drawn: %1").arg(series_->error())));
            stale_[slot(kind)] = false;
            return;
        }
        view->showSpec(placeholderSpec(kind, trace,
                                       tr("Drawing the charts of %L1 requests…")
                                           .arg(static_cast<qulonglong>(trace.requests.size()))));
        return;  // still stale: drawn when the series are computed
    }
    drawn_columns_[slot(kind)] = columnsFor(kind);
    const ChartInput shown = input(drawn_columns_[slot(kind)]);
    if (kind == ChartKind::Worst || !now_) {
        view->showSpec(buildChartSpec(kind, shown));
    } else {
        std::optional<WholeSpec>& whole = whole_[slot(kind)];
        if (!whole || whole->result != result_.get() || whole->columns != shown.columns ||
            whole->from != shown.from || whole->to != shown.to) {
            ChartInput everything = shown;
            everything.now.reset();
            whole = WholeSpec{buildChartSpec(kind, everything), result_.get(), shown.columns,
                              shown.from, shown.to};
        }
        ChartSpec spec = whole->spec;
        cutAtTick(spec, *now_);
        view->showSpec(spec);
    }
    stale_[slot(kind)] = false;
}

int ChartsPanel::columnsFor(ChartKind kind) const {
    const int wanted = views_[slot(kind)]->plotColumns();
    const int drawn = drawn_columns_[slot(kind)];
    // What was drawn for up to a third more columns (the legend taking its room, say) stays.
    return drawn >= wanted && drawn * 3 <= wanted * 4 ? drawn : wanted;
}

QString ChartsPanel::hoverText(ChartKind kind, double x) const {
    if (!result_ || !series())
        return QString();
    return chartHoverText(kind, input(1), x, views_[slot(kind)]->hiddenGroups());
}

}  // namespace ratelab::ui
