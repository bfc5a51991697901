#include "commands/move_requests_command.h"

#include "charts/tick_text.h"
#include "commands/command_ids.h"
#include "session/session.h"

namespace ratelab::ui {

MoveRequestsCommand::MoveRequestsCommand(Session* session, IndexList indices, Tick delta,
                                         int gesture)
    : session_(session), original_indices_(std::move(indices)), delta_(delta), gesture_(gesture) {
    updateText();
}

void MoveRequestsCommand::redo() {
    // Applying the whole delta to the original positions gives the same trace as applying the
    // merged steps one by one, because moved requests always go after those already on a tick.
    const Trace& trace = session_->trace();
    originals_ = Trace();
    for (const std::size_t index : original_indices_) {
        originals_.append_from(trace, index);
    }
    Move move = withMoved(trace, original_indices_, delta_);
    moved_indices_ = move.indices;
    const std::size_t size = trace.requests.size();
    session_->applyTrace(std::move(move.trace), std::move(move.indices),
                         changeOf(original_indices_, size, moved_indices_, size));
}

void MoveRequestsCommand::undo() {
    const Trace rest = withRemoved(session_->trace(), moved_indices_).trace;
    const std::size_t size = session_->trace().requests.size();
    session_->applyTrace(withRestored(rest, original_indices_, originals_), original_indices_,
                         changeOf(moved_indices_, size, original_indices_, size));
}

int MoveRequestsCommand::id() const {
    return kMoveRequestsCommandId;
}

bool MoveRequestsCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const MoveRequestsCommand*>(other);
    if (next->gesture_ != gesture_ || next->original_indices_ != moved_indices_) {
        return false;
    }
    delta_ += next->delta_;
    moved_indices_ = next->moved_indices_;
    updateText();
    return true;
}

void MoveRequestsCommand::updateText() {
    const int count = static_cast<int>(original_indices_.size());
    setText(delta_ >= 0
                ? tr("Move %n request(s) %1 later", nullptr, count).arg(ticksText(delta_))
                : tr("Move %n request(s) %1 earlier", nullptr, count).arg(ticksText(-delta_)));
}

}  // namespace ratelab::ui
