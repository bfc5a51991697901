#include "panels/sweep_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <thread>

#include "charts/algorithm_names.h"
#include "charts/chart_render.h"
#include "charts/dock_presence.h"
#include "charts/export_file.h"
#include "charts/sweep_view.h"
#include "panels/sweep_job.h"
#include "ratelab/io/sweep_output.h"
#include "ratelab/io/sweep_spec.h"
#include "ratelab/registry.h"
#include "session/session.h"

namespace ratelab::ui {

namespace {

constexpr int kDebounceMs = 300;
/// Points a suggested range has at most: enough for a smooth line, quick on a large trace.
constexpr std::int64_t kSuggestedPoints = 40;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// "1..20", "1..80:2": whole numbers from 1 to a few times `now`, where the smallest setting
/// that fits usually is.
QString wholeRange(std::int64_t now) {
    const std::int64_t top = std::max<std::int64_t>(4 * now, 20);
    const std::int64_t step =
        std::max<std::int64_t>(1, (top + kSuggestedPoints - 1) / kSuggestedPoints);
    return step == 1 ? QStringLiteral("1..%1").arg(top)
                     : QStringLiteral("1..%1:%2").arg(top).arg(step);
}

}  // namespace

SweepPanel::SweepPanel(Session* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      lane_(new QComboBox(this)),
      first_(new QComboBox(this)),
      first_values_(new QLineEdit(this)),
      second_(new QComboBox(this)),
      second_values_(new QLineEdit(this)),
      metric_(new QComboBox(this)),
      share_(new QDoubleSpinBox(this)),
      status_(new QLabel(this)),
      fits_label_(new QLabel(this)),
      view_(new SweepView(this)),
      debounce_(new QTimer(this)) {
    presence_ = new DockPresence(this, [this] {
        if (stale_)
            schedule();
    });
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &SweepPanel::runNow);

    for (QLineEdit* values : {first_values_, second_values_}) {
        values->setPlaceholderText(tr("1..20 or 1,2,5"));
        values->setToolTip(
            tr("Values as ratelab-cli sweep --vary takes them: A..B, A..B:STEP, or V1,V2,…"));
        values->setMinimumWidth(70);
    }
    share_->setRange(0.0, 100.0);
    share_->setDecimals(1);
    share_->setSingleStep(0.5);
    share_->setValue(1.0);
    share_->setSuffix(QStringLiteral(" %"));
    share_->setToolTip(tr("The share of requests the smallest L may reject"));
    for (const SweepMetric metric : kAllSweepMetrics)
        metric_->addItem(sweepMetricTitle(metric), static_cast<int>(metric));
    fits_label_->setWordWrap(true);
    fits_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Two rows of controls: a bottom dock is short, and the chart needs the height.
    auto* first_row = new QHBoxLayout;
    first_row->addWidget(new QLabel(tr("Lane"), this));
    first_row->addWidget(lane_, 1);
    first_row->addSpacing(6);
    first_row->addWidget(new QLabel(tr("Show"), this));
    first_row->addWidget(metric_, 1);
    first_row->addSpacing(6);
    first_row->addWidget(new QLabel(tr("Vary"), this));
    first_row->addWidget(first_);
    first_row->addWidget(first_values_, 1);
    first_row->addSpacing(6);
    first_row->addWidget(new QLabel(tr("against"), this));
    first_row->addWidget(second_);
    first_row->addWidget(second_values_, 1);
    auto* second_row = new QHBoxLayout;
    second_row->addWidget(new QLabel(tr("Smallest L rejecting at most"), this));
    second_row->addWidget(share_);
    second_row->addWidget(fits_label_, 3);
    second_row->addWidget(status_, 2, Qt::AlignRight);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(first_row);
    layout->addLayout(second_row);
    layout->addWidget(view_, 1);

    connect(lane_, &QComboBox::currentIndexChanged, this, [this] {
        fillTargets();
        schedule();
    });
    connect(first_, &QComboBox::currentIndexChanged, this, [this] {
        suggestValues(first_, first_values_);
        schedule();
    });
    connect(second_, &QComboBox::currentIndexChanged, this, [this] {
        suggestValues(second_, second_values_);
        schedule();
    });
    connect(first_values_, &QLineEdit::textEdited, this, &SweepPanel::schedule);
    connect(second_values_, &QLineEdit::textEdited, this, &SweepPanel::schedule);
    connect(share_, &QDoubleSpinBox::valueChanged, this, &SweepPanel::schedule);
    connect(metric_, &QComboBox::currentIndexChanged, this, &SweepPanel::showResult);
    connect(view_, &SweepView::pointClicked, this, &SweepPanel::applyPoint);
    connect(view_, &SweepView::exportImageRequested, this, &SweepPanel::exportImage);
    connect(view_, &SweepView::exportCsvRequested, this, &SweepPanel::exportCsv);
    connect(session_, &Session::resultChanged, this, [this] {
        fillLanes();
        schedule();
    });
    connect(session_, &Session::documentReset, this, [this] { fillLanes(); });
    // The mark of the document's setting follows it at once; a new sweep follows if needed.
    connect(session_, &Session::paramsChanged, this, &SweepPanel::showResult);
    fillLanes();
}

SweepPanel::~SweepPanel() {
    // Every thread still running refers to the panel: each is stopped and waited for.
    if (running_)
        retired_.push_back(running_);
    for (const std::shared_ptr<SweepJob>& job : retired_)
        job->control.stop = true;
    for (const std::shared_ptr<SweepJob>& job : retired_) {
        if (job->thread.joinable())
            job->thread.join();
    }
}

Lane SweepPanel::chosenLane() const {
    const std::vector<Lane> lanes = lanes_of(session_->params());
    const auto index = static_cast<std::size_t>(std::max(0, lane_->currentIndex()));
    Lane lane = index < lanes.size() ? lanes[index] : lanes.front();
    lane.hidden = false;
    return lane;
}

void SweepPanel::fillLanes() {
    const std::vector<Lane> lanes = lanes_of(session_->params());
    QStringList names;
    for (const Lane& lane : lanes)
        names << laneName(lane.algorithm, lane.label);
    QStringList shown;
    for (int i = 0; i < lane_->count(); ++i)
        shown << lane_->itemText(i);
    if (shown == names)
        return;
    const int keep = lane_->currentIndex();
    const QSignalBlocker block(lane_);
    lane_->clear();
    lane_->addItems(names);
    lane_->setCurrentIndex(keep >= 0 && keep < lane_->count() ? keep : 0);
    fillTargets();
}

std::vector<SweepTarget> SweepPanel::targets() const {
    std::vector<SweepTarget> out = {SweepTarget{SweepTarget::Kind::limit, {}, {}},
                                    SweepTarget{SweepTarget::Kind::window, {}, {}}};
    const Lane lane = chosenLane();
    if (const AlgorithmInfo* info = Registry::instance().find(lane.algorithm)) {
        for (const ParameterInfo& parameter : info->parameters)
            out.push_back(
                SweepTarget{SweepTarget::Kind::lane_parameter, lane.algorithm, parameter.id});
    }
    return out;
}

void SweepPanel::fillTargets() {
    const QString first = first_->currentData().toString();
    const QString second = second_->currentData().toString();
    const QSignalBlocker block_first(first_);
    const QSignalBlocker block_second(second_);
    first_->clear();
    second_->clear();
    second_->addItem(tr("nothing"), QString());
    for (const SweepTarget& target : targets()) {
        const QString name = text(target.name());
        QString shown = name;
        if (target.kind == SweepTarget::Kind::limit)
            shown = tr("L (limit)");
        else if (target.kind == SweepTarget::Kind::window)
            shown = tr("W (window)");
        else
            shown = text(target.parameter);
        first_->addItem(shown, name);
        second_->addItem(shown, name);
    }
    const int at_first = first_->findData(first);
    first_->setCurrentIndex(at_first >= 0 ? at_first : 0);
    const int at_second = second_->findData(second);
    second_->setCurrentIndex(at_second >= 0 ? at_second : 0);
    if (at_first < 0)
        suggestValues(first_, first_values_);
    if (at_second < 0)
        suggestValues(second_, second_values_);
    // Delays mean something only for a lane that queues.
    const AlgorithmInfo* info = Registry::instance().find(chosenLane().algorithm);
    const bool shapes = info != nullptr && info->releases;
    for (int i = 0; i < metric_->count(); ++i) {
        const auto metric = static_cast<SweepMetric>(metric_->itemData(i).toInt());
        const bool delay = metric == SweepMetric::P95Delay || metric == SweepMetric::MaxDelay;
        metric_->setItemData(i, delay && !shapes ? QVariant(0) : QVariant(),
                             Qt::UserRole - 1);  // disables the item
    }
    if (!shapes && metric_->currentIndex() >= 2)
        metric_->setCurrentIndex(0);
}

void SweepPanel::suggestValues(QComboBox* box, QLineEdit* values) {
    const std::string name = box->currentData().toString().toStdString();
    values->setEnabled(!name.empty());
    if (name.empty()) {
        values->clear();
        return;
    }
    const Params& params = session_->params();
    if (name == "limit") {
        values->setText(wholeRange(params.base.limit));
        return;
    }
    if (name == "window") {
        values->setText(wholeRange(params.base.window));
        return;
    }
    const Lane lane = chosenLane();
    const AlgorithmInfo* info = Registry::instance().find(lane.algorithm);
    if (info == nullptr)
        return;
    const ParamValues now = resolved_params(*info, params_for_lane(params, lane).base);
    for (const ParameterInfo& parameter : info->parameters) {
        if (lane.algorithm + "." + parameter.id != name)
            continue;
        const auto it = now.find(parameter.id);
        const ParamValue value = it != now.end() ? it->second : parameter.min;
        if (parameter.kind == ParamKind::flag) {
            values->setText(QStringLiteral("no,yes"));  // no-tr: the values as --vary reads them
        } else if (parameter.kind == ParamKind::choice) {
            QStringList choices;
            for (const std::string& choice : parameter.choices)
                choices << text(choice);
            values->setText(choices.join(QLatin1Char(',')));
        } else if (parameter.kind == ParamKind::whole) {
            values->setText(wholeRange(std::get<Rational>(value).num()));
        } else {
            // A fraction: from a quarter of it to twice it, a quarter apart.
            const Rational quarter = std::get<Rational>(value) / Rational(4);
            values->setText(
                QStringLiteral("%1..%2:%1")
                    .arg(text(quarter.to_string()), text((quarter * Rational(8)).to_string())));
        }
    }
}

SweepPanel::Axes SweepPanel::axes() const {
    Axes out;
    std::vector<std::string> specs;
    const auto add = [&specs](const QComboBox* box, const QLineEdit* values) {
        const QString name = box->currentData().toString();
        if (!name.isEmpty())
            specs.push_back((name + QLatin1Char('=') + values->text().trimmed()).toStdString());
    };
    add(first_, first_values_);
    add(second_, second_values_);
    if (specs.size() == 2 && first_->currentData() == second_->currentData()) {
        out.problem = tr("vary two different things, or the second against nothing");
        return out;
    }
    try {
        out.axes = io::parse_sweep_axes(specs);
    } catch (const io::SweepSpecError& error) {
        out.problem = QString::fromStdString(error.what());
    }
    return out;
}

void SweepPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    presence_->follow();
    if (stale_)
        schedule();
}

void SweepPanel::schedule() {
    stale_ = true;
    if (presence_->isShown())
        debounce_->start();
}

void SweepPanel::runNow() {
    debounce_->stop();
    const Axes read = axes();
    if (!read.problem.isEmpty()) {
        status_->setText(QStringLiteral("<span style='color:#B0003A'>%1</span>")
                             .arg(read.problem.toHtmlEscaped()));
        return;
    }
    auto job = std::make_shared<SweepJob>();
    job->trace = session_->result()->trace;
    job->lane = chosenLane();
    job->params = session_->params();
    job->params.lanes = {job->lane};
    job->axes = read.axes;
    job->want_fits = job->axes.size() == 1 && job->axes[0].target.kind == SweepTarget::Kind::limit;
    if (job->want_fits) {
        for (const ParamValue& value : job->axes[0].values)
            job->candidates.push_back(std::get<Rational>(value).num());
        std::sort(job->candidates.begin(), job->candidates.end());
        job->share = Rational(static_cast<std::int64_t>(std::llround(share_->value() * 10)), 10);
    }
    stale_ = false;
    if (running_ && running_->sameInputs(*job))
        return;
    if (result_ && !running_ && last_inputs_ && last_inputs_->sameInputs(*job)) {
        showResult();  // the setting moved, the sweep did not: only the mark follows it
        return;
    }
    if (running_) {
        running_->control.stop = true;
        retired_.push_back(running_);
    }
    status_->setText(
        tr("Sweeping %n point(s)…", nullptr, static_cast<int>(sweep_point_count(job->axes))));
    running_ = job;
    job->thread = std::thread([this, job] {
        job->run();
        QMetaObject::invokeMethod(
            this, [this, job] { finished(job); }, Qt::QueuedConnection);
    });
}

void SweepPanel::finished(std::shared_ptr<SweepJob> job) {
    job->thread.join();
    std::erase(retired_, job);
    if (job != running_)
        return;  // superseded; its successor is running
    running_.reset();
    if (!job->result) {
        if (!job->error.isEmpty())
            status_->setText(QStringLiteral("<span style='color:#B0003A'>%1</span>")
                                 .arg(job->error.toHtmlEscaped()));
        return;
    }
    result_ = std::move(job->result);
    fits_ = std::move(job->fits);
    frontier_ = std::move(job->frontier);
    last_inputs_ = job;
    status_->setText(
        tr("%n point(s); click one to use it", nullptr, static_cast<int>(result_->points)));
    showResult();
    Q_EMIT sweepShown();
}

void SweepPanel::showResult() {
    if (!result_)
        return;
    const auto metric = static_cast<SweepMetric>(metric_->currentData().toInt());
    SweepPlotSpec spec = sweepPlotSpec(
        *result_, 0, metric, sweep_point_of(result_->axes, session_->params(), chosenLane()));
    if (!fits_.empty() && fits_.front().limit) {
        const auto& values = result_->axes.front().values;
        const auto at =
            std::find(values.begin(), values.end(), ParamValue(Rational(*fits_.front().limit)));
        if (at != values.end()) {
            spec.marked = static_cast<int>(at - values.begin());
            spec.marked_label =
                fits_.size() > 1
                    ? tr("smallest ≤ %1% for the keys on the base L").arg(share_->value())
                    : tr("smallest ≤ %1%").arg(share_->value());
        }
    }
    if (frontier_)
        addFrontier(spec, *frontier_);
    const bool base_only =
        std::any_of(result_->axes.begin(), result_->axes.end(), [](const SweepAxis& axis) {
            return axis.target.kind != SweepTarget::Kind::lane_parameter;
        });
    if (base_only && !session_->params().keys.empty())
        spec.note += tr(" · L and W are the base limits; keys with limits of their own keep them");
    view_->showSpec(std::move(spec));
    showFits();
}

void SweepPanel::showFits() {
    const bool limit_only = result_ && result_->axes.size() == 1 &&
                            result_->axes[0].target.kind == SweepTarget::Kind::limit;
    share_->setEnabled(limit_only);
    if (!limit_only) {
        fits_label_->setText(tr("(vary L alone)"));
        return;
    }
    QStringList parts;
    for (const GroupLimitFit& fit : fits_) {
        const QString who = fit.has_own_limits ? keyName(fit.key)
                            : fits_.size() > 1 ? tr("keys on the base limits")
                                               : tr("all keys");
        const QString answer = fit.limit ? QStringLiteral("<b>L = %1</b> (%2%)")
                                               .arg(*fit.limit)
                                               .arg(text(fit.rejected_percent.to_short(2)))
                                         : tr("none in the range");
        parts << QStringLiteral("%1: %2").arg(who.toHtmlEscaped(), answer);
    }
    fits_label_->setText(parts.join(QStringLiteral(" · ")));
}

void SweepPanel::applyPoint(int point) {
    if (!result_ || point < 0 || static_cast<std::size_t>(point) >= result_->points)
        return;
    Params params = session_->params();
    std::vector<Lane> lanes = lanes_of(params);
    const auto index = static_cast<std::size_t>(std::max(0, lane_->currentIndex()));
    const std::vector<ParamValue> values =
        sweep_point_values(result_->axes, static_cast<std::size_t>(point));
    QStringList said;
    for (std::size_t a = 0; a < result_->axes.size(); ++a) {
        const SweepTarget& target = result_->axes[a].target;
        const ParamValue& value = values[a];
        said << QStringLiteral("%1 = %2").arg(text(target.name()), text(to_text(value)));
        switch (target.kind) {
            case SweepTarget::Kind::limit:
                params.base.limit = std::get<Rational>(value).num();
                break;
            case SweepTarget::Kind::window:
                params.base.window = std::get<Rational>(value).num();
                break;
            case SweepTarget::Kind::lane_parameter:
                if (index < lanes.size())
                    lanes[index].params[target.parameter] = value;
                params.lanes = lanes;
                break;
        }
    }
    const QString problem = session_->setParams(
        params, tr("Use %1 from the sweep").arg(said.join(QStringLiteral(", "))), 0);
    status_->setText(
        problem.isEmpty()
            ? tr("Now %1").arg(said.join(QStringLiteral(", ")))
            : QStringLiteral("<span style='color:#B0003A'>%1</span>").arg(problem.toHtmlEscaped()));
}

void SweepPanel::exportImage() {
    if (!result_)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Sweep Chart"), QStringLiteral("sweep.png"),
        tr("PNG images (*.png);;SVG drawings (*.svg);;PDF documents (*.pdf)"));
    if (path.isEmpty())
        return;
    const auto format = imageFormatFromName(QFileInfo(path).suffix());
    const QString problem = format ? writeImageFile(printedSweepPlot(view_->spec()), *format,
                                                    QSize(900, 500), 2, view_->spec().title, path)
                                   : tr("say .png, .svg or .pdf at the end of the file name");
    if (!problem.isEmpty())
        QMessageBox::critical(this, tr("Export Sweep Chart"),
                              tr("Cannot export to %1: %2").arg(path, problem));
}

void SweepPanel::exportCsv() {
    if (!result_)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Sweep"), QStringLiteral("sweep.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (const QString problem = exportBytes(path, io::format_sweep(*result_, io::SweepFormat::csv));
        !problem.isEmpty())
        QMessageBox::critical(this, tr("Export Sweep"),
                              tr("Cannot export to %1: %2").arg(path, problem));
}

}  // namespace ratelab::ui
