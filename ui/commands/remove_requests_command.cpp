#include "commands/remove_requests_command.h"

#include "session/session.h"

namespace ratelab::ui {

RemoveRequestsCommand::RemoveRequestsCommand(Session* session, IndexList indices)
    : session_(session), indices_(std::move(indices)) {
    setText(indices_.size() == 1
                ? tr("Delete request")
                : tr("Delete %n requests", nullptr, static_cast<int>(indices_.size())));
}

void RemoveRequestsCommand::redo() {
    const std::size_t size = session_->trace().requests.size();
    Removal removal = withRemoved(session_->trace(), indices_);
    removed_ = std::move(removal.removed);
    session_->applyTrace(std::move(removal.trace), {},
                         changeOf(indices_, size, {}, size - indices_.size()));
}

void RemoveRequestsCommand::undo() {
    const std::size_t size = session_->trace().requests.size();
    session_->applyTrace(withRestored(session_->trace(), indices_, removed_), indices_,
                         changeOf({}, size, indices_, size + indices_.size()));
}

}  // namespace ratelab::ui
