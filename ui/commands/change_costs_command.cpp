#include "commands/change_costs_command.h"

#include "commands/command_ids.h"
#include "session/session.h"

namespace ratelab::ui {

ChangeCostsCommand::ChangeCostsCommand(Session* session, IndexList indices,
                                       std::vector<std::uint32_t> costs)
    : session_(session),
      indices_(std::move(indices)),
      old_costs_(costsAt(session->trace(), indices_)),
      new_costs_(std::move(costs)) {
    setText(tr("Change cost of %n request(s)", nullptr, static_cast<int>(indices_.size())));
}

void ChangeCostsCommand::redo() {
    session_->applyTrace(withCosts(session_->trace(), indices_, new_costs_), indices_,
                         changeInPlace(indices_, session_->trace().requests.size()));
}

void ChangeCostsCommand::undo() {
    session_->applyTrace(withCosts(session_->trace(), indices_, old_costs_), indices_,
                         changeInPlace(indices_, session_->trace().requests.size()));
}

int ChangeCostsCommand::id() const {
    return kChangeCostsCommandId;
}

bool ChangeCostsCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const ChangeCostsCommand*>(other);
    if (next->indices_ != indices_) {
        return false;
    }
    new_costs_ = next->new_costs_;
    return true;
}

}  // namespace ratelab::ui
