#include "panels/clients_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <variant>

#include "charts/algorithm_names.h"
#include "charts/chart_view.h"
#include "charts/dock_presence.h"
#include "charts/palette.h"
#include "session/session.h"
#include "timeline/lane_retries.h"

namespace ratelab::ui {

namespace {

constexpr int kDebounceMs = 200;

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString rational(const Rational& value) {
    return QString::fromStdString(value.to_short(2));
}

/// A whole-number axis step giving about five labels up to `top`.
double stepFor(double top) {
    const double raw = std::max(1.0, top / 5);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * decade >= raw)
            return factor * decade;
    }
    return 10 * decade;
}

QString translated(const char* text) {
    return QCoreApplication::translate("ClientsPanel", text);
}

}  // namespace

ChartSpec clientAttemptsSpec(const AttemptsPerTick& per_tick, const QString& lane, int columns) {
    ChartSpec spec;
    spec.kind = ChartKind::Load;
    spec.title = translated("Attempts per tick: %1").arg(lane);
    spec.note = translated("offered by the clients, accepted (goodput) and rejected");
    const struct {
        const std::vector<std::int64_t>* values;
        const char* label;
        QColor color;
        Qt::PenStyle style;
    } lines[] = {
        {&per_tick.offered, "offered", chart_colors::kReference, Qt::SolidLine},
        {&per_tick.accepted, "goodput", QColor(0x00, 0x9E, 0x73), Qt::SolidLine},
        {&per_tick.rejected, "rejected", QColor(0xD5, 0x5E, 0x00), Qt::DashLine},
    };
    const auto ticks = static_cast<double>(per_tick.offered.size());
    const double span = std::max(1.0, std::ceil(ticks / std::max(1, columns)));
    double top = 1;
    for (const auto& line : lines) {
        LineSpec series;
        series.group = QString::fromLatin1(line.label);
        series.label = translated(line.label);
        series.color = line.color;
        series.style = line.style;
        for (std::size_t t = 0; t < line.values->size(); ++t) {
            const double x = static_cast<double>(per_tick.first) +
                             std::floor(static_cast<double>(t) / span) * span;
            const auto y = static_cast<double>((*line.values)[t]);
            top = std::max(top, y);
            if (!series.points.isEmpty() && series.points.back().x() == x)
                series.points.back().setY(std::max(series.points.back().y(), y));
            else
                series.points.append(QPointF(x, y));
        }
        spec.lines.append(std::move(series));
    }
    const auto first = static_cast<double>(per_tick.first);
    const double last = first + std::max(1.0, ticks);
    spec.x = AxisSpec{translated("tick"), first, last, stepFor(last - first)};
    spec.y = AxisSpec{translated("attempts"), 0.0, std::ceil(top * 1.1) + 1, stepFor(top * 1.1)};
    return spec;
}

ChartSpec clientTimeSpec(const std::vector<QString>& lanes, const std::vector<QColor>& colours,
                         const std::vector<IntentFigures>& figures) {
    ChartSpec spec;
    spec.kind = ChartKind::Worst;
    spec.title = translated("Time to success, p95");
    spec.note = translated("ticks from an intent to its acceptance");
    BarsSpec bars;
    double top = 1;
    for (std::size_t lane = 0; lane < lanes.size() && lane < figures.size(); ++lane) {
        const double p95 = figures[lane].time_to_success.p95.to_double();
        bars.categories << lanes[lane];
        bars.groups << laneGroup(lane);
        bars.values << p95;
        bars.colors << (lane < colours.size() ? colours[lane] : chart_colors::kReference);
        top = std::max(top, p95);
    }
    spec.x = AxisSpec{QString(), -0.5, static_cast<double>(bars.values.size()) - 0.5, 1};
    spec.y = AxisSpec{translated("ticks"), 0.0, std::ceil(top * 1.15) + 1, stepFor(top * 1.15)};
    spec.bars = std::move(bars);
    return spec;
}

/// One run of every shown lane's clients on a thread: what it was given, and what it found.
struct ClientsPanel::Job {
    std::shared_ptr<const SimulationResult> result;  // the result the lanes are of
    std::shared_ptr<const Trace> trace;
    Params params;
    std::vector<Lane> lanes;
    std::vector<std::size_t> lane_indices;  // of `lanes` in the result
    ClientPolicies policies;
    std::vector<ClientRun> runs;
    QString error;
    std::thread thread;

    void run() {
        try {
            for (const Lane& lane : lanes)
                runs.push_back(run_clients(*trace, params, lane, policies));
        } catch (const std::exception& failure) {
            runs.clear();
            error = QString::fromLocal8Bit(failure.what());
        }
    }
};

ClientsPanel::ClientsPanel(Session* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      kind_(new QComboBox(this)),
      lane_(new QComboBox(this)),
      show_figures_(new QToolButton(this)),
      show_charts_(new QToolButton(this)),
      on_lanes_(new QCheckBox(tr("On the lanes"), this)),
      pages_(new QStackedWidget(this)),
      options_(new QLineEdit(this)),
      status_(new QLabel(this)),
      table_(new QTableWidget(this)),
      attempts_(new ChartView(ChartKind::Load, this)),
      time_(new ChartView(ChartKind::Worst, this)),
      debounce_(new QTimer(this)) {
    presence_ = new DockPresence(this, [this] {
        if (stale_)
            schedule();
    });
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &ClientsPanel::runNow);
    for (const ClientKind kind : {ClientKind::give_up, ClientKind::immediate, ClientKind::fixed,
                                  ClientKind::backoff, ClientKind::retry_after, ClientKind::paced})
        kind_->addItem(text(client_kind_name(kind)), static_cast<int>(kind));
    kind_->setToolTip(tr("How a client answers a rejection"));
    options_->setPlaceholderText(
        tr("max_attempts=5, deadline=T, delay=D, base=B, factor=F, "
           "cap=C, jitter=none|full|equal, spread=J, seed=S"));
    options_->setToolTip(
        tr("The policy's parameters, as ratelab-cli simulate --client POLICY:NAME=VALUE,… "
           "takes them"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setMinimumWidth(60);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // A narrow window wraps the summary onto a second line rather than cutting it.
    status_->setWordWrap(true);
    const QStringList columns = {
        tr("Served"),     tr("Abandoned"),          tr("Attempts"),
        tr("Rejections"), tr("Attempts / success"), tr("Rejections / success"),
        tr("Wait p50"),   tr("Wait p95"),           tr("Wait max")};
    table_->setColumnCount(static_cast<int>(columns.size()));
    table_->setHorizontalHeaderLabels(columns);
    table_->horizontalHeaderItem(6)->setToolTip(tr("Time to success, ticks: the median"));
    table_->horizontalHeaderItem(7)->setToolTip(tr("Time to success, ticks: 95th percentile"));
    table_->horizontalHeaderItem(8)->setToolTip(tr("Time to success, ticks: the longest"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    for (ChartView* view : {attempts_, time_}) {
        view->setContextMenuPolicy(Qt::NoContextMenu);  // its menu exports a simulation
        view->setMinimumSize(160, 60);
    }

    lane_->setToolTip(tr("The lane whose attempts the chart shows"));
    lane_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    show_figures_->setText(tr("Figures"));
    show_figures_->setToolTip(tr("A row of figures per lane"));
    show_charts_->setText(tr("Charts"));
    show_charts_->setToolTip(tr("Attempts per tick of one lane, and every lane's time to success"));
    auto* page_group = new QButtonGroup(this);
    for (QToolButton* button : {show_figures_, show_charts_}) {
        button->setCheckable(true);
        page_group->addButton(button);
    }
    show_figures_->setChecked(true);
    connect(show_charts_, &QToolButton::toggled, this, &ClientsPanel::showCharts);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Clients"), this));
    controls->addWidget(kind_);
    controls->addWidget(options_, 2);
    controls->addWidget(show_figures_);
    controls->addWidget(show_charts_);
    controls->addWidget(on_lanes_);
    controls->addWidget(new QLabel(tr("Lane"), this));
    controls->addWidget(lane_);
    controls->addWidget(status_, 1);
    auto* charts = new QWidget(this);
    auto* charts_row = new QHBoxLayout(charts);
    charts_row->setContentsMargins(0, 0, 0, 0);
    charts_row->addWidget(attempts_, 3);
    charts_row->addWidget(time_, 2);
    pages_->addWidget(table_);
    pages_->addWidget(charts);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    layout->addWidget(pages_, 1);

    const auto changed = [this] {
        if (!setPolicyText(policyText()))
            return;
        schedule();
    };
    connect(kind_, &QComboBox::activated, this, changed);
    connect(options_, &QLineEdit::editingFinished, this, changed);
    // The table's row and the lane box choose the chart's lane together.
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0 && row < lane_->count())
            lane_->setCurrentIndex(row);
    });
    connect(lane_, &QComboBox::currentIndexChanged, this, [this](int lane) {
        if (lane >= 0 && table_->currentRow() != lane)
            table_->selectRow(lane);
        showChosenLane();
    });
    on_lanes_->setChecked(true);
    on_lanes_->setToolTip(
        tr("Draw each retry on the timeline's lanes, a small mark joined by an arc to the "
           "attempt before it"));
    connect(on_lanes_, &QCheckBox::toggled, this,
            [this](bool on) { Q_EMIT retriesChanged(on ? retries_ : nullptr); });
    connect(session_, &Session::resultChanged, this, &ClientsPanel::schedule);
    // A retry_after client honouring what it is told shows what this tab is about.
    setPolicyText(QStringLiteral("retry_after"));
}

ClientsPanel::~ClientsPanel() {
    // A run cannot be stopped half way; the queued call back must not outlive the panel.
    if (running_)
        retired_.push_back(running_);
    for (const std::shared_ptr<Job>& job : retired_) {
        if (job->thread.joinable())
            job->thread.join();
    }
}

QString ClientsPanel::policyText() const {
    const QString options = options_->text().simplified().remove(QLatin1Char(' '));
    return kind_->currentText() + (options.isEmpty() ? QString() : QStringLiteral(":") + options);
}

bool ClientsPanel::setPolicyText(const QString& text_in) {
    const auto parsed = parse_client_policy(text_in.toStdString());
    if (const auto* problem = std::get_if<std::string>(&parsed)) {
        showStatus(QString::fromStdString(*problem), true);
        return false;
    }
    policy_ = std::get<ClientPolicy>(parsed);
    kind_->setCurrentIndex(kind_->findData(static_cast<int>(policy_.kind)));
    const qsizetype colon = text_in.indexOf(QLatin1Char(':'));
    options_->setText(colon < 0 ? QString() : text_in.mid(colon + 1));
    return true;
}

void ClientsPanel::showCharts(bool charts) {
    (charts ? show_charts_ : show_figures_)->setChecked(true);
    pages_->setCurrentIndex(charts ? 1 : 0);
}

QSize ClientsPanel::sizeHint() const {
    const QSize hint = QWidget::sizeHint();
    return {hint.width(), std::max(hint.height(), 300)};
}

const ChartSpec& ClientsPanel::attemptsSpec() const {
    return attempts_->spec();
}

const ChartSpec& ClientsPanel::timeSpec() const {
    return time_->spec();
}

void ClientsPanel::showStatus(const QString& message, bool problem) {
    status_text_ = message;
    status_->setText(
        problem
            ? QStringLiteral("<span style='color:#B0003A'>%1</span>").arg(message.toHtmlEscaped())
            : message.toHtmlEscaped());
    status_->setToolTip(message);
}

void ClientsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    presence_->follow();
    if (stale_)
        schedule();
}

void ClientsPanel::schedule() {
    stale_ = true;
    if (presence_->isShown())
        debounce_->start();
}

void ClientsPanel::runNow() {
    debounce_->stop();
    stale_ = false;
    const auto result = session_->result();
    if (!result)
        return;
    if (result->trace->requests.size() > kMaxIntents) {
        showStatus(tr("%1 requests: more than this tab runs; ratelab-cli simulate --client "
                      "takes any size")
                       .arg(result->trace->requests.size()),
                   true);
        return;
    }
    auto job = std::make_shared<Job>();
    job->result = result;
    job->trace = result->trace;
    job->params = session_->params();
    lane_names_.clear();
    lane_colours_.clear();
    for (std::size_t lane = 0; lane < result->lanes.size(); ++lane) {
        if (result->lanes[lane].hidden)
            continue;
        job->lanes.push_back(result->lanes[lane]);
        job->lane_indices.push_back(lane);
        lane_names_.push_back(laneName(result->runs[lane].id, result->runs[lane].label));
        lane_colours_.push_back(algorithmColor(result->runs[lane].id));
    }
    job->policies.base = policy_;
    if (running_)
        retired_.push_back(running_);
    running_ = job;
    showStatus(tr("Running…"), false);
    job->thread = std::thread([this, job] {
        job->run();
        QMetaObject::invokeMethod(
            this, [this, job] { finished(job); }, Qt::QueuedConnection);
    });
}

void ClientsPanel::finished(std::shared_ptr<Job> job) {
    job->thread.join();
    std::erase(retired_, job);
    if (job != running_)
        return;  // superseded; its successor is running
    running_.reset();
    if (!job->error.isEmpty()) {
        showStatus(job->error, true);
        return;
    }
    runs_ = std::move(job->runs);
    retries_ = LaneRetries::of(job->result, job->lane_indices, runs_);
    if (on_lanes_->isChecked())
        Q_EMIT retriesChanged(retries_);
    const int chosen = std::max(0, lane_->currentIndex());
    table_->setRowCount(static_cast<int>(runs_.size()));
    QStringList names;
    std::vector<IntentFigures> figures;
    std::int64_t attempts = 0;
    for (std::size_t lane = 0; lane < runs_.size(); ++lane) {
        const IntentFigures& f = runs_[lane].intents;
        figures.push_back(f);
        attempts += f.attempts;
        names << lane_names_[lane];
        const QStringList cells = {
            QString::number(f.served),        QString::number(f.abandoned),
            QString::number(f.attempts),      QString::number(f.rejections),
            rational(f.attempts_per_success), rational(f.rejections_per_success),
            rational(f.time_to_success.p50),  rational(f.time_to_success.p95),
            rational(f.time_to_success.max)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(static_cast<int>(lane), c, item);
        }
    }
    table_->setVerticalHeaderLabels(names);
    time_->showSpec(clientTimeSpec(lane_names_, lane_colours_, figures));
    {
        const QSignalBlocker quiet(lane_);
        lane_->clear();
        lane_->addItems(names);
        lane_->setCurrentIndex(std::min(chosen, std::max(0, lane_->count() - 1)));
    }
    table_->selectRow(lane_->currentIndex());
    showChosenLane();
    showStatus(
        tr("%1: %2 attempts over %3 lanes").arg(policyText()).arg(attempts).arg(runs_.size()),
        false);
    Q_EMIT runShown();
}

void ClientsPanel::showChosenLane() {
    const int row = lane_->currentIndex();
    if (row < 0 || static_cast<std::size_t>(row) >= runs_.size())
        return;
    const auto lane = static_cast<std::size_t>(row);
    attempts_->showSpec(clientAttemptsSpec(attempts_per_tick(runs_[lane]), lane_names_[lane],
                                           std::max(200, attempts_->plotColumns())));
}

}  // namespace ratelab::ui
