#include "commands/add_request_command.h"

#include "session/session.h"

namespace ratelab::ui {

AddRequestCommand::AddRequestCommand(Session* session, std::size_t index, const Request& request)
    : session_(session), index_(index), request_(request) {
    setText(tr("Add request at t = %1").arg(request.tick));
}

void AddRequestCommand::redo() {
    const Trace& trace = session_->trace();
    const std::size_t size = trace.requests.size();
    session_->applyTrace(withInserted(trace, index_, request_), {index_},
                         changeOf({}, size, {index_}, size + 1));
}

void AddRequestCommand::undo() {
    const Trace& trace = session_->trace();
    const std::size_t size = trace.requests.size();
    session_->applyTrace(withRemoved(trace, {index_}).trace, {},
                         changeOf({index_}, size, {}, size - 1));
}

}  // namespace ratelab::ui
