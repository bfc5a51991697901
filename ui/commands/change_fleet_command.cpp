#include "commands/change_fleet_command.h"

#include "session/session.h"

namespace ratelab::ui {

ChangeFleetCommand::ChangeFleetCommand(Session* session, std::optional<io::FleetFile> before,
                                       io::FleetFile after, const QString& description)
    : session_(session), before_(std::move(before)), after_(std::move(after)) {
    setText(description);
}

void ChangeFleetCommand::redo() {
    session_->applyFleet(after_);
}

void ChangeFleetCommand::undo() {
    session_->applyFleet(before_);
}

}  // namespace ratelab::ui
