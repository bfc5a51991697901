#include "panels/lanes_panel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include "charts/algorithm_names.h"
#include "charts/palette.h"
#include "panels/param_keys.h"
#include "panels/parameter_fields.h"
#include "ratelab/registry.h"
#include "session/session.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

namespace {

/// The lane's marker in its colour, as the timeline and the charts draw it.
QIcon laneIcon(const std::vector<Lane>& lanes, std::size_t lane) {
    int repeat = 0;
    for (std::size_t i = 0; i < lane; ++i) {
        repeat += lanes[i].algorithm == lanes[lane].algorithm ? 1 : 0;
    }
    const AlgorithmStyle style = laneStyle(lanes[lane].algorithm, repeat);
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillPath(markerPath(style.marker, QPointF(8, 8), 12), style.color);
    return QIcon(pixmap);
}

/// "Token bucket · capacity 8, refill rate 1/2".
QString laneText(const Lane& lane) {
    const QString name = laneName(lane.algorithm, lane.label);
    QStringList settings;
    if (const AlgorithmInfo* info = Registry::instance().find(lane.algorithm)) {
        for (const ParameterInfo& parameter : info->parameters) {
            if (const auto it = lane.params.find(parameter.id); it != lane.params.end()) {
                settings << QStringLiteral("%1 %2").arg(
                    QString::fromStdString(parameter.name).toLower(),
                    QString::fromStdString(to_text(it->second)));
            }
        }
    }
    return settings.isEmpty()
               ? name
               : QStringLiteral("%1 · %2").arg(name, settings.join(QStringLiteral(", ")));
}

}  // namespace

LanesPanel::LanesPanel(Session* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      list_(new QListWidget(this)),
      add_(new QToolButton(this)),
      duplicate_(new QPushButton(tr("D&uplicate"), this)),
      remove_(new QPushButton(tr("Re&move"), this)),
      up_(new QPushButton(tr("Up"), this)),
      down_(new QPushButton(tr("Down"), this)),
      defaults_(new QPushButton(tr("The &six"), this)),
      heading_(new QLabel(this)),
      label_(new QLineEdit(this)),
      form_holder_(new QWidget(this)),
      problem_(new QLabel(this)) {
    setObjectName(QStringLiteral("lanesPanel"));
    setFocusProxy(list_);
    list_->setToolTip(tr("The lanes compared, top to bottom. Untick a lane to hide it."));
    list_->setMinimumHeight(120);

    add_->setText(tr("&Add"));
    add_->setToolTip(tr("Add a lane of an algorithm at its default settings"));
    add_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(add_);
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        const std::string id = info->id;
        menu->addAction(algorithmName(id), this, [this, id] { addLane(id); });
    }
    // Library presets decide as a real library does; they are lanes one adds, never defaults.
    if (const auto presets = Registry::instance().presets(); !presets.empty()) {
        QMenu* libraries = menu->addMenu(tr("&Libraries"));
        libraries->setObjectName(QStringLiteral("librariesMenu"));
        for (const AlgorithmInfo* info : presets) {
            const std::string id = info->id;
            QAction* action =
                libraries->addAction(algorithmName(id), this, [this, id] { addLane(id); });
            action->setToolTip(QString::fromStdString(info->library + " " + info->library_version));
            action->setStatusTip(action->toolTip());
        }
    }
    add_->setMenu(menu);
    duplicate_->setToolTip(tr("Add a copy of the selected lane below it, to try other settings"));
    remove_->setToolTip(tr("Remove the selected lane"));
    up_->setToolTip(tr("Move the selected lane up"));
    down_->setToolTip(tr("Move the selected lane down"));
    defaults_->setToolTip(tr("Compare the six algorithms at their defaults again"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(duplicate_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    auto* order = new QHBoxLayout;
    order->addWidget(up_);
    order->addWidget(down_);
    order->addStretch(1);
    order->addWidget(defaults_);

    heading_->setWordWrap(true);
    label_->setClearButtonEnabled(true);
    label_->setToolTip(tr("The lane's name in every view; empty for the algorithm's name"));
    problem_->setWordWrap(true);
    problem_->hide();
    QPalette colours = problem_->palette();
    colours.setColor(QPalette::WindowText,
                     timeline_palette::legibleOn(timeline_palette::kRejected,
                                                 palette().color(QPalette::Window)));
    problem_->setPalette(colours);
    auto* hint = new QLabel(
        tr("A value left empty follows the Advanced panel, else the default from L and W."), this);
    hint->setWordWrap(true);
    hint->setEnabled(false);

    auto* label_row = new QFormLayout;
    label_row->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    label_row->addRow(tr("&Label"), label_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list_, 1);
    layout->addLayout(buttons);
    layout->addLayout(order);
    layout->addWidget(heading_);
    layout->addLayout(label_row);
    layout->addWidget(form_holder_);
    layout->addWidget(problem_);
    layout->addWidget(hint);
    layout->addStretch(0);
    new QVBoxLayout(form_holder_);
    form_holder_->layout()->setContentsMargins(0, 0, 0, 0);

    connect(list_, &QListWidget::currentRowChanged, this, [this] { showLaneForm(); });
    connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        setLaneHidden(list_->row(item), item->checkState() != Qt::Checked);
    });
    connect(duplicate_, &QPushButton::clicked, this, [this] { duplicateLane(currentLane()); });
    connect(remove_, &QPushButton::clicked, this, [this] { removeLane(currentLane()); });
    connect(up_, &QPushButton::clicked, this, [this] { moveLane(currentLane(), -1); });
    connect(down_, &QPushButton::clicked, this, [this] { moveLane(currentLane(), 1); });
    connect(defaults_, &QPushButton::clicked, this, &LanesPanel::useDefaultLanes);
    connect(label_, &QLineEdit::editingFinished, this, [this] {
        const int lane = currentLane();
        const std::string text = label_->text().trimmed().toStdString();
        const auto lanes = lanes_of(session_->params());
        if (lane < 0 || lanes[static_cast<std::size_t>(lane)].label == text) {
            return;
        }
        changeLanes(
            [lane, text](std::vector<Lane>& all) {
                all[static_cast<std::size_t>(lane)].label = text;
            },
            tr("Rename lane"), kNoMerge, lane);
    });
    connect(session_, &Session::paramsChanged, this, &LanesPanel::showLanes);
    showLanes();
    setCurrentLane(0);
}

int LanesPanel::currentLane() const {
    return list_->currentRow();
}

void LanesPanel::setCurrentLane(int lane) {
    list_->setCurrentRow(std::clamp(lane, 0, list_->count() - 1));
}

bool LanesPanel::changeLanes(const std::function<void(std::vector<Lane>&)>& change,
                             const QString& text, int merge_key, int select_after) {
    Params params = session_->params();
    std::vector<Lane> lanes = lanes_of(params);
    change(lanes);
    if (lanes.empty()) {
        showProblem(tr("A comparison needs at least one lane."));
        showLanes();
        return false;
    }
    if (std::all_of(lanes.begin(), lanes.end(), [](const Lane& lane) { return lane.hidden; })) {
        showProblem(tr("At least one lane must stay shown."));
        showLanes();
        return false;
    }
    // The six at their defaults are the default: a document that lists them says nothing more.
    params.lanes = lanes == default_lanes() ? std::vector<Lane>{} : std::move(lanes);
    const QString problem = session_->setParams(params, text, merge_key);
    showProblem(problem);
    if (problem.isEmpty()) {
        setCurrentLane(select_after);
    } else {
        showLanes();
    }
    return problem.isEmpty();
}

void LanesPanel::addLane(const std::string& algorithm) {
    const int at = static_cast<int>(lanes_of(session_->params()).size());
    changeLanes(
        [&algorithm](std::vector<Lane>& lanes) {
            lanes.push_back(Lane{algorithm, {}, {}, false});
        },
        tr("Add %1 lane").arg(algorithmName(algorithm)), kNoMerge, at);
}

void LanesPanel::duplicateLane(int lane) {
    if (lane < 0) {
        return;
    }
    changeLanes(
        [lane](std::vector<Lane>& lanes) {
            Lane copy = lanes[static_cast<std::size_t>(lane)];
            copy.hidden = false;
            if (!copy.label.empty()) {
                copy.label += " (copy)";
            }
            lanes.insert(lanes.begin() + lane + 1, std::move(copy));
        },
        tr("Duplicate lane"), kNoMerge, lane + 1);
}

void LanesPanel::removeLane(int lane) {
    if (lane < 0) {
        return;
    }
    changeLanes([lane](std::vector<Lane>& lanes) { lanes.erase(lanes.begin() + lane); },
                tr("Remove lane"), kNoMerge, std::max(0, lane - 1));
}

void LanesPanel::moveLane(int lane, int by) {
    const int count = static_cast<int>(lanes_of(session_->params()).size());
    const int to = lane + by;
    if (lane < 0 || to < 0 || to >= count) {
        return;
    }
    changeLanes(
        [lane, to](std::vector<Lane>& lanes) {
            std::swap(lanes[static_cast<std::size_t>(lane)], lanes[static_cast<std::size_t>(to)]);
        },
        by < 0 ? tr("Move lane up") : tr("Move lane down"), kNoMerge, to);
}

void LanesPanel::setLaneHidden(int lane, bool hidden) {
    const auto lanes = lanes_of(session_->params());
    if (lane < 0 || lane >= static_cast<int>(lanes.size()) ||
        lanes[static_cast<std::size_t>(lane)].hidden == hidden) {
        return;
    }
    changeLanes(
        [lane, hidden](std::vector<Lane>& all) {
            all[static_cast<std::size_t>(lane)].hidden = hidden;
        },
        hidden ? tr("Hide lane") : tr("Show lane"), kNoMerge, lane);
}

void LanesPanel::useDefaultLanes() {
    changeLanes([](std::vector<Lane>& lanes) { lanes = default_lanes(); },
                tr("Use the six default lanes"), kNoMerge, 0);
}

void LanesPanel::showLanes() {
    const std::vector<Lane> lanes = lanes_of(session_->params());
    const int current = std::clamp(list_->currentRow(), 0, static_cast<int>(lanes.size()) - 1);
    {
        const QSignalBlocker block(list_);
        list_->clear();
        for (std::size_t i = 0; i < lanes.size(); ++i) {
            auto* item = new QListWidgetItem(laneIcon(lanes, i), laneText(lanes[i]), list_);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(lanes[i].hidden ? Qt::Unchecked : Qt::Checked);
            item->setToolTip(lanes[i].hidden ? tr("Hidden: tick to show it again")
                                             : algorithmSummary(lanes[i].algorithm));
        }
        list_->setCurrentRow(current);
    }
    const int count = static_cast<int>(lanes.size());
    remove_->setEnabled(count > 1);
    defaults_->setEnabled(!session_->params().lanes.empty());
    up_->setEnabled(current > 0);
    down_->setEnabled(current + 1 < count);
    showLaneForm();  // the same form shows the new values; another lane's gets its own
}

void LanesPanel::showLaneForm() {
    const std::vector<Lane> lanes = lanes_of(session_->params());
    const int lane = currentLane();
    const int count = static_cast<int>(lanes.size());
    up_->setEnabled(lane > 0);
    down_->setEnabled(lane >= 0 && lane + 1 < count);
    duplicate_->setEnabled(lane >= 0);
    if (lane < 0 || lane >= count) {
        heading_->clear();
        label_->setEnabled(false);
        return;
    }
    const Lane& chosen = lanes[static_cast<std::size_t>(lane)];
    const AlgorithmInfo* info = Registry::instance().find(chosen.algorithm);
    heading_->setText(tr("<b>Lane %1</b>: %2").arg(lane + 1).arg(algorithmName(chosen.algorithm)));
    label_->setEnabled(true);
    label_->setPlaceholderText(algorithmName(chosen.algorithm));
    label_->setText(QString::fromStdString(chosen.label));
    if (lane != shown_form_lane_ || chosen.algorithm != shown_form_algorithm_) {
        // A new form for the lane's algorithm: its parameters differ from the last one's. The
        // old one goes once control is back in the event loop: this may run inside one of its
        // fields' signals.
        if (QWidget* old = form_holder_->findChild<QWidget*>(QStringLiteral("laneForm"))) {
            old->setObjectName(QString());
            old->hide();
            old->deleteLater();
        }
        auto* holder = new QWidget(form_holder_);
        holder->setObjectName(QStringLiteral("laneForm"));
        form_ = new QFormLayout(holder);
        form_->setContentsMargins(0, 0, 0, 0);
        form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form_holder_->layout()->addWidget(holder);
        fields_ = nullptr;
        if (info != nullptr && !info->parameters.empty()) {
            fields_ = new ParameterFields(
                *info, form_, holder,
                [this, lane](const std::string& parameter, const std::optional<ParamValue>& value,
                             int position) {
                    changeLanes(
                        [lane, &parameter, &value](std::vector<Lane>& all) {
                            ParamValues& params = all[static_cast<std::size_t>(lane)].params;
                            if (value) {
                                params[parameter] = *value;
                            } else {
                                params.erase(parameter);
                            }
                        },
                        tr("Set lane %1's %2").arg(lane + 1).arg(QString::fromStdString(parameter)),
                        kFirstLaneKey + 100 * lane + position, lane);
                },
                [this](const QString& problem) { showProblem(problem); });
        } else {
            form_->addRow(new QLabel(tr("No parameters of its own: it reads L and W."), holder));
        }
        shown_form_lane_ = lane;
        shown_form_algorithm_ = chosen.algorithm;
    }
    if (fields_ != nullptr) {
        const AlgorithmParams& overrides = session_->params().base.overrides;
        const auto inherited = overrides.find(chosen.algorithm);
        fields_->show(chosen.params, session_->params().base,
                      inherited == overrides.end() ? nullptr : &inherited->second);
    }
}

void LanesPanel::showProblem(const QString& problem) {
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
}

}  // namespace ratelab::ui
