#include "commands/change_durations_command.h"

#include "session/session.h"

namespace ratelab::ui {

ChangeDurationsCommand::ChangeDurationsCommand(Session* session, IndexList indices,
                                               std::vector<Tick> durations)
    : session_(session),
      indices_(std::move(indices)),
      old_durations_(durationsAt(session->trace(), indices_)),
      new_durations_(std::move(durations)) {
    setText(tr("Set duration of %n request(s)", nullptr, static_cast<int>(indices_.size())));
}

void ChangeDurationsCommand::redo() {
    session_->applyTrace(withDurations(session_->trace(), indices_, new_durations_), indices_,
                         changeInPlace(indices_, session_->trace().requests.size()));
}

void ChangeDurationsCommand::undo() {
    session_->applyTrace(withDurations(session_->trace(), indices_, old_durations_), indices_,
                         changeInPlace(indices_, session_->trace().requests.size()));
}

}  // namespace ratelab::ui
