#include "fleet/fleet_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <thread>

#include "charts/dock_presence.h"
#include "charts/fleet_charts.h"
#include "fleet/fleet_view.h"
#include "panels/flow_layout.h"
#include "ratelab/limits.h"
#include "session/playback_clock.h"
#include "session/session.h"

namespace ratelab::ui {

namespace {

constexpr int kDebounceMs = 200;

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString refusal(const QString& problem) {
    return QStringLiteral("<span style='color:#B0003A'>%1</span>").arg(problem.toHtmlEscaped());
}

}  // namespace

/// One fleet run on its thread: what it was given, and what it found.
struct FleetPanel::Job {
    std::shared_ptr<const Trace> trace;
    Params params;
    Lane lane;
    FleetSettings settings;
    Tick end = 1;
    std::shared_ptr<const FleetResult> result;
    /// periodic_sync over a range of intervals, when it is one of the modes.
    std::vector<SyncOvershoot> by_sync;
    QString error;
    /// Set when a newer run supersedes this one: it stops within a few thousand requests.
    RunControl control;
    bool cancelled = false;
    std::thread thread;

    /// About a dozen intervals from 1 to twice the window (or the setting, if larger), closer
    /// together where they are small, the setting among them.
    std::vector<Tick> syncValues() const {
        const Tick top = std::max<Tick>({2 * params.base.window, settings.sync_every, 2});
        std::vector<Tick> values = {settings.sync_every};
        for (int k = 0; k <= 11; ++k)
            values.push_back(std::max<Tick>(
                1, static_cast<Tick>(std::llround(std::pow(static_cast<double>(top), k / 11.0)))));
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        return values;
    }

    void run() {
        try {
            result = simulate_fleet(trace, params, lane, settings, &control);
            const auto& modes = result->settings.modes;
            if (std::find(modes.begin(), modes.end(), FleetMode::periodic_sync) != modes.end())
                by_sync =
                    periodic_sync_overshoots(trace, params, lane, settings, syncValues(), &control);
        } catch (const SimulationCancelled&) {
            result.reset();  // superseded: nobody shows what it found
            cancelled = true;
        } catch (const std::exception& failure) {
            result.reset();
            error = QString::fromLocal8Bit(failure.what());
        }
    }
};

io::FleetFile FleetPanel::defaults() {
    io::FleetFile fleet;
    fleet.settings.servers = 4;
    fleet.settings.store_latency = 1;
    fleet.settings.sync_every = 5;
    return fleet;
}

FleetPanel::FleetPanel(Session* session, PlaybackClock* clock, QWidget* parent)
    : QWidget(parent),
      session_(session),
      lane_(new QComboBox(this)),
      servers_(new QSpinBox(this)),
      balancer_(new QComboBox(this)),
      latency_(new QSpinBox(this)),
      sync_(new QSpinBox(this)),
      lost_updates_(new QCheckBox(tr("Lost updates"), this)),
      outage_(new QCheckBox(tr("Store down"), this)),
      outage_start_(new QSpinBox(this)),
      outage_end_(new QSpinBox(this)),
      policy_(new QComboBox(this)),
      scale_(new QLineEdit(this)),
      status_(new QLabel(this)),
      view_(new FleetView(this)),
      scroll_(new QScrollArea(this)),
      charts_(new FleetCharts(this)),
      pages_(new QStackedWidget(this)),
      show_decisions_(new QToolButton(this)),
      show_charts_(new QToolButton(this)),
      export_(new QToolButton(this)),
      debounce_(new QTimer(this)) {
    presence_ = new DockPresence(this, [this] {
        if (stale_)
            schedule();
    });
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &FleetPanel::runNow);

    servers_->setRange(1, kMaxFleetServers);
    servers_->setToolTip(tr("Servers behind the balancer at tick 0"));
    for (QSpinBox* box : {latency_, sync_, outage_start_, outage_end_}) {
        box->setRange(0,
                      static_cast<int>(std::min<std::int64_t>(bounds::kMaxWindow, 1'000'000'000)));
        box->setAccelerated(true);
        box->setMaximumWidth(92);  // the range is huge, the values usually are not
    }
    for (QSpinBox* box : {servers_, latency_, sync_, outage_start_, outage_end_})
        box->setKeyboardTracking(false);  // one change when typing ends, not one per digit
    sync_->setMinimum(1);
    latency_->setSuffix(tr(" ticks"));
    latency_->setToolTip(tr("Ticks of one round trip to the shared store"));
    sync_->setToolTip(tr("periodic_sync: every server syncs with the store every this many ticks"));
    lost_updates_->setToolTip(
        tr("central_racy: a server's write replaces the key's state with what it read plus "
           "its own charge, so of two writes in flight the last to land wins"));
    outage_->setToolTip(tr("The shared store is down from the first tick to before the second"));
    outage_start_->setPrefix(tr("from "));
    outage_end_->setPrefix(tr("to "));
    for (const Balancer balancer : {Balancer::round_robin, Balancer::random, Balancer::key_hash})
        balancer_->addItem(text(balancer_name(balancer)), static_cast<int>(balancer));
    for (const OutagePolicy policy :
         {OutagePolicy::fail_open, OutagePolicy::fail_closed, OutagePolicy::fallback_local})
        policy_->addItem(text(outage_policy_name(policy)), static_cast<int>(policy));
    scale_->setPlaceholderText(tr("scale: TICK:N, …"));
    scale_->setToolTip(tr("Scale events: from TICK on the fleet has N servers, as in 20:8, 60:4"));
    scale_->setMinimumWidth(130);
    lane_->setToolTip(tr("The lane the fleet runs: an algorithm with its parameters"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long refusal gives way on a narrow window instead of widening the panel past it.
    status_->setMinimumWidth(60);
    lane_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    lane_->setMinimumContentsLength(10);

    // Two rows of controls, each wrapping on a narrow window instead of widening it: what the
    // fleet is (lane, servers, store) with the page it shows, then its modes, its events and
    // the status.
    const auto group = [this](std::initializer_list<QWidget*> widgets) {
        auto* box = new QWidget(this);
        auto* row = new QHBoxLayout(box);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(4);
        for (QWidget* widget : widgets)
            row->addWidget(widget);
        return box;
    };
    auto* first_row = new FlowLayout(nullptr, 10);
    first_row->addWidget(group({new QLabel(tr("Lane"), this), lane_}));
    first_row->addWidget(group({new QLabel(tr("Servers"), this), servers_, balancer_}));
    first_row->addWidget(group({new QLabel(tr("Store latency"), this), latency_, lost_updates_}));
    first_row->addWidget(group({new QLabel(tr("Sync every"), this), sync_}));
    show_decisions_->setText(tr("Decisions"));
    show_decisions_->setToolTip(tr("Each decision of each mode, the store and the servers"));
    show_charts_->setText(tr("Charts"));
    show_charts_->setToolTip(
        tr("Fleet-wide load against L, and what each mode decided "
           "otherwise than one limiter"));
    auto* page_group = new QButtonGroup(this);
    for (QToolButton* button : {show_decisions_, show_charts_}) {
        button->setCheckable(true);
        page_group->addButton(button);
    }
    show_decisions_->setChecked(true);
    connect(show_charts_, &QToolButton::toggled, this, &FleetPanel::showCharts);
    export_->setText(tr("Export"));
    export_->setToolTip(tr("Save the charts or the decisions as PNG, SVG or PDF"));
    export_->setPopupMode(QToolButton::InstantPopup);
    auto* export_menu = new QMenu(export_);
    connect(export_menu->addAction(tr("Charts…")), &QAction::triggered, this,
            [this] { exportChosen(FleetExport::Charts); });
    connect(export_menu->addAction(tr("Decisions as shown…")), &QAction::triggered, this,
            [this] { exportChosen(FleetExport::Decisions); });
    export_->setMenu(export_menu);
    first_row->addWidget(group({show_decisions_, show_charts_, export_}));
    auto* second_row = new FlowLayout(nullptr, 10);
    auto* modes = new QWidget(this);
    auto* mode_row = new QHBoxLayout(modes);
    mode_row->setContentsMargins(0, 0, 0, 0);
    mode_row->setSpacing(4);
    const std::vector<FleetMode> all = all_fleet_modes();
    for (std::size_t m = 0; m < all.size(); ++m) {
        auto* button = new QToolButton(this);
        button->setText(text(mode_name(all[m])));
        button->setCheckable(true);
        button->setToolTip(tr("Run the fleet in this placement mode"));
        modes_[m] = button;
        mode_row->addWidget(button);
        connect(button, &QToolButton::clicked, this,
                [this, mode = all[m]] { commit(tr("Fleet mode %1").arg(text(mode_name(mode)))); });
    }
    second_row->addWidget(modes);
    second_row->addWidget(group({outage_, outage_start_, outage_end_, policy_}));
    second_row->addWidget(scale_);
    second_row->addWidget(status_);
    scroll_->setWidget(view_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setMinimumHeight(60);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(first_row);
    layout->addLayout(second_row);
    // The decisions and the charts share the height a bottom dock has, one page at a time.
    pages_->addWidget(scroll_);
    pages_->addWidget(charts_);
    layout->addWidget(pages_, 1);

    connect(lane_, &QComboBox::activated, this, [this] { commit(tr("Fleet lane")); });
    connect(servers_, &QSpinBox::valueChanged, this, [this] { commit(tr("Fleet servers")); });
    connect(balancer_, &QComboBox::activated, this, [this] { commit(tr("Fleet balancer")); });
    connect(latency_, &QSpinBox::valueChanged, this, [this] { commit(tr("Store latency")); });
    connect(sync_, &QSpinBox::valueChanged, this, [this] { commit(tr("Sync interval")); });
    connect(lost_updates_, &QCheckBox::clicked, this, [this] { commit(tr("Lost updates")); });
    connect(outage_, &QCheckBox::clicked, this, [this] { commit(tr("Store outage")); });
    connect(outage_start_, &QSpinBox::valueChanged, this, [this] { commit(tr("Store outage")); });
    connect(outage_end_, &QSpinBox::valueChanged, this, [this] { commit(tr("Store outage")); });
    connect(policy_, &QComboBox::activated, this, [this] { commit(tr("Outage policy")); });
    connect(scale_, &QLineEdit::editingFinished, this, [this] {
        if (scale_->isModified())
            commit(tr("Scale events"));
        scale_->setModified(false);
    });
    connect(view_, &FleetView::modeChosen, this,
            [this](FleetMode mode) { Q_EMIT learnAbout("fleet_" + std::string(mode_name(mode))); });
    connect(clock, &PlaybackClock::nowChanged, view_, &FleetView::setNow);
    connect(clock, &PlaybackClock::nowChanged, charts_, [this](Tick now) { charts_->setNow(now); });
    connect(session_, &Session::fleetChanged, this, [this] {
        showSettings();
        schedule();
    });
    connect(session_, &Session::resultChanged, this, [this] {
        showSettings();  // the lanes may have changed
        schedule();
    });
    showSettings();
}

FleetPanel::~FleetPanel() {
    // Each thread refers to its job only, but the queued call back to the panel must not
    // outlive it: every run is told to stop, and waited for.
    if (running_)
        retired_.push_back(running_);
    for (const std::shared_ptr<Job>& job : retired_)
        job->control.stop = true;
    for (const std::shared_ptr<Job>& job : retired_) {
        if (job->thread.joinable())
            job->thread.join();
    }
}

QToolButton* FleetPanel::modeButton(FleetMode mode) const {
    return modes_[static_cast<std::size_t>(mode)];
}

QSize FleetPanel::sizeHint() const {
    const QSize hint = QWidget::sizeHint();
    return {hint.width(), hint.height() - pages_->sizeHint().height() +
                              std::max(view_->sizeHint().height(), 260) + 2};
}

void FleetPanel::showCharts(bool charts) {
    (charts ? show_charts_ : show_decisions_)->setChecked(true);
    pages_->setCurrentIndex(charts ? 1 : 0);
}

void FleetPanel::setVisibleRange(double from, double to) {
    view_->setVisibleRange(from, to);
}

QString FleetPanel::exportTo(FleetExport what, const QString& path) {
    if (!view_->result())
        return tr("there is no fleet run to export yet");
    const auto format = imageFormatFromName(QFileInfo(path).suffix());
    if (!format)
        return tr("say .png, .svg or .pdf at the end of the file name");
    const bool charts = what == FleetExport::Charts;
    const PaintFunction paint =
        charts ? fleetChartsPainter(
                     charts_->loadSpec(),
                     charts_->showsSync() ? std::optional(charts_->syncSpec()) : std::nullopt,
                     charts_->extraSpec())
               : fleetViewPainter(view_);
    const QString title = charts ? tr("Fleet charts") : tr("Fleet decisions");
    QString problem = writeImageFile(paint, *format, fleetExportSize(what, *view_), 2, title, path);
    if (problem.isEmpty())
        Q_EMIT exported(tr("Exported %1 to %2").arg(title.toLower(), path));
    return problem;
}

void FleetPanel::exportChosen(FleetExport what) {
    const bool charts = what == FleetExport::Charts;
    const QString title = charts ? tr("Export Fleet Charts") : tr("Export Fleet Decisions");
    const QString path = QFileDialog::getSaveFileName(
        this, title,
        charts ? QStringLiteral("fleet-charts.png") : QStringLiteral("fleet-decisions.png"),
        tr("PNG images (*.png);;SVG drawings (*.svg);;PDF documents (*.pdf)"));
    if (path.isEmpty())
        return;
    if (const QString problem = exportTo(what, path); !problem.isEmpty())
        QMessageBox::critical(this, title, tr("Cannot export to %1: %2").arg(path, problem));
}

QString FleetPanel::status() const {
    return status_text_;
}

void FleetPanel::showStatus(const QString& plain) {
    status_text_ = plain;
    status_->setText(plain.toHtmlEscaped());
    status_->setToolTip(plain);  // the whole of it, where a narrow window cuts the label
}

io::FleetFile FleetPanel::shown() const {
    return session_->fleet().value_or(defaults());
}

void FleetPanel::commit(const QString& description) {
    const Read read = readControls();
    QString problem = read.problem;
    if (problem.isEmpty())
        problem = session_->setFleet(read.fleet, description);
    if (!problem.isEmpty()) {
        showSettings();  // the document keeps its settings; the controls show them again
        showProblem(problem);
    }
}

void FleetPanel::showProblem(const QString& problem) {
    status_text_ = problem;
    status_->setText(refusal(problem));
    status_->setToolTip(problem);
}

void FleetPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    presence_->follow();
    if (stale_)
        schedule();
}

void FleetPanel::schedule() {
    stale_ = true;
    if (presence_->isShown())
        debounce_->start();
}

void FleetPanel::runNow() {
    debounce_->stop();
    stale_ = false;
    const io::FleetFile fleet = shown();
    auto job = std::make_shared<Job>();
    job->trace = session_->result()->trace;
    job->params = session_->params();
    const int lane = lane_->currentIndex();
    job->lane = lane >= 0 && static_cast<std::size_t>(lane) < lanes_.size()
                    ? lanes_[static_cast<std::size_t>(lane)]
                    : lanes_of(job->params).front();
    job->lane.hidden = false;
    job->settings = fleet.settings;
    job->end = session_->endTick();
    if (running_) {
        running_->control.stop = true;  // what it would find is out of date already
        retired_.push_back(running_);
    }
    running_ = job;
    showStatus(tr("Running %n request(s)…", nullptr,
                  static_cast<int>(std::min<std::size_t>(job->trace->requests.size(), 1u << 30))));
    job->thread = std::thread([this, job] {
        job->run();
        QMetaObject::invokeMethod(
            this, [this, job] { finished(job); }, Qt::QueuedConnection);
    });
}

void FleetPanel::finished(std::shared_ptr<Job> job) {
    job->thread.join();
    std::erase(retired_, job);
    cancelled_ += job->cancelled ? 1 : 0;
    if (job != running_)
        return;  // superseded; its successor is running
    running_.reset();
    if (!job->result) {
        showProblem(job->error);
        view_->setResult(nullptr, job->end);
        return;
    }
    const FleetResult& result = *job->result;
    showStatus(tr("one limiter: %1 ok").arg(result.ideal_accepted));
    view_->setResult(job->result, job->end);
    charts_->showResult(*job->result, job->by_sync);
    updateGeometry();
    Q_EMIT fleetShown();
}

}  // namespace ratelab::ui
