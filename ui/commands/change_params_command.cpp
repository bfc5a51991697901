#include "commands/change_params_command.h"

#include "commands/command_ids.h"
#include "session/session.h"

namespace ratelab::ui {

ChangeParamsCommand::ChangeParamsCommand(Session* session, Params old_params, Params new_params,
                                         const QString& text, int merge_key)
    : QUndoCommand(text),
      session_(session),
      old_params_(std::move(old_params)),
      new_params_(std::move(new_params)),
      merge_key_(merge_key) {}

void ChangeParamsCommand::redo() {
    session_->applyParams(new_params_);
}

void ChangeParamsCommand::undo() {
    session_->applyParams(old_params_);
}

int ChangeParamsCommand::id() const {
    return kChangeParamsCommandId;
}

bool ChangeParamsCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = static_cast<const ChangeParamsCommand*>(other);
    if (merge_key_ == 0 || next->merge_key_ != merge_key_) {
        return false;
    }
    new_params_ = next->new_params_;
    setText(next->text());
    return true;
}

}  // namespace ratelab::ui
