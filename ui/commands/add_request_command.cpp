#include "commands/add_request_command.h"

#include "session/session.h"

namespace ratelab::ui {

AddRequestCommand::AddRequestCommand(Session* session, std::size_t index, const Request& request)
    : session_(session), index_(index), request_(request) {
    setText(tr("Add request at t = %1").arg(request.tick));
}

void AddRequestCommand::redo() {
    session_->applyTrace(withInserted(session_->trace(), index_, request_), {index_});
}

void AddRequestCommand::undo() {
    session_->applyTrace(withRemoved(session_->trace(), {index_}).trace, {});
}

}  // namespace ratelab::ui
