// The Fleet panel's fields: the document's settings shown in them, and read back from them.
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>
#include <memory>

#include "charts/algorithm_names.h"
#include "fleet/fleet_panel.h"
#include "ratelab/io/lane_spec.h"
#include "session/session.h"

namespace ratelab::ui {

namespace {

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

std::vector<ScaleEvent> parseScaleEvents(const QString& input, QString* problem) {
    std::vector<ScaleEvent> events;
    const QString trimmed = input.trimmed();
    if (trimmed.isEmpty())
        return events;
    static const QRegularExpression pair(
        QStringLiteral("^\\s*(\\d{1,15})\\s*:\\s*(\\d{1,6})\\s*$"));
    for (const QString& part : trimmed.split(QLatin1Char(','))) {
        const QRegularExpressionMatch match = pair.match(part);
        if (!match.hasMatch()) {
            *problem = QCoreApplication::translate("FleetPanel",
                                                   "scale events: \"%1\" is not TICK:N, as in 10:8")
                           .arg(part.trimmed());
            return {};
        }
        events.push_back(ScaleEvent{match.captured(1).toLongLong(), match.captured(2).toInt()});
    }
    return events;
}

QString scaleEventsText(const std::vector<ScaleEvent>& events) {
    QStringList parts;
    for (const ScaleEvent& event : events)
        parts << QStringLiteral("%1:%2").arg(event.tick).arg(event.servers);
    return parts.join(QStringLiteral(", "));
}

void FleetPanel::fillLanes(const io::FleetFile& fleet) {
    lanes_ = lanes_of(session_->params());
    for (Lane& lane : lanes_)
        lane.hidden = false;
    const QSignalBlocker block(lane_);
    lane_->clear();
    for (const Lane& lane : lanes_)
        lane_->addItem(laneName(lane.algorithm, lane.label));
    int chosen = 0;
    if (fleet.lane) {
        const auto at = std::find(lanes_.begin(), lanes_.end(), *fleet.lane);
        if (at == lanes_.end()) {
            // The file names a lane the document's lanes do not hold: offered on its own.
            lanes_.push_back(*fleet.lane);
            lane_->addItem(tr("%1 (the fleet's own)").arg(text(io::lane_spec(*fleet.lane))));
        }
        chosen =
            static_cast<int>(std::find(lanes_.begin(), lanes_.end(), *fleet.lane) - lanes_.begin());
    } else {
        const std::vector<Lane> all = lanes_of(session_->params());
        const auto visible =
            std::find_if(all.begin(), all.end(), [](const Lane& l) { return !l.hidden; });
        chosen = visible != all.end() ? static_cast<int>(visible - all.begin()) : 0;
    }
    lane_->setCurrentIndex(chosen);
}

void FleetPanel::showSettings() {
    const io::FleetFile fleet = shown();
    const FleetSettings& settings = fleet.settings;
    fillLanes(fleet);
    const std::vector<QObject*> fields = {servers_,      balancer_, latency_,      sync_,
                                          lost_updates_, outage_,   outage_start_, outage_end_,
                                          policy_,       scale_};
    std::vector<std::unique_ptr<QSignalBlocker>> blocks;
    for (QObject* field : fields)
        blocks.push_back(std::make_unique<QSignalBlocker>(field));
    servers_->setValue(settings.servers);
    balancer_->setCurrentIndex(balancer_->findData(static_cast<int>(settings.balancer)));
    const std::vector<FleetMode> modes =
        settings.modes.empty() ? all_fleet_modes() : settings.modes;
    for (const FleetMode mode : all_fleet_modes())
        modeButton(mode)->setChecked(std::find(modes.begin(), modes.end(), mode) != modes.end());
    latency_->setValue(static_cast<int>(settings.store_latency));
    sync_->setValue(static_cast<int>(settings.sync_every));
    lost_updates_->setChecked(settings.lost_updates);
    outage_->setChecked(settings.outage.has_value());
    const Outage outage = settings.outage.value_or(Outage{0, 10, OutagePolicy::fail_open});
    outage_start_->setValue(static_cast<int>(outage.start));
    outage_end_->setValue(static_cast<int>(outage.end));
    policy_->setCurrentIndex(policy_->findData(static_cast<int>(outage.policy)));
    for (QWidget* field : std::initializer_list<QWidget*>{outage_start_, outage_end_, policy_})
        field->setEnabled(settings.outage.has_value());
    scale_->setText(scaleEventsText(settings.scale));
}

FleetPanel::Read FleetPanel::readControls() const {
    Read read;
    read.fleet = shown();
    FleetSettings& settings = read.fleet.settings;
    const int lane = lane_->currentIndex();
    if (lane >= 0 && static_cast<std::size_t>(lane) < lanes_.size()) {
        // The first visible lane is what a fleet without one runs: no need to name it.
        const bool named = read.fleet.lane.has_value() || lane != 0;
        if (named)
            read.fleet.lane = lanes_[static_cast<std::size_t>(lane)];
    }
    settings.servers = servers_->value();
    settings.balancer = static_cast<Balancer>(balancer_->currentData().toInt());
    settings.modes.clear();
    for (const FleetMode mode : all_fleet_modes()) {
        if (modeButton(mode)->isChecked())
            settings.modes.push_back(mode);
    }
    if (settings.modes.empty())
        read.problem = tr("modes: choose at least one placement mode");
    settings.store_latency = latency_->value();
    settings.sync_every = sync_->value();
    settings.lost_updates = lost_updates_->isChecked();
    settings.outage.reset();
    if (outage_->isChecked())
        settings.outage = Outage{outage_start_->value(), outage_end_->value(),
                                 static_cast<OutagePolicy>(policy_->currentData().toInt())};
    QString problem;
    settings.scale = parseScaleEvents(scale_->text(), &problem);
    if (read.problem.isEmpty())
        read.problem = problem;
    return read;
}

}  // namespace ratelab::ui
