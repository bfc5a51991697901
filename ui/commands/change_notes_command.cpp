#include "commands/change_notes_command.h"

#include "session/session.h"

namespace ratelab::ui {

ChangeNotesCommand::ChangeNotesCommand(Session* session, std::vector<TraceNote> before,
                                       std::vector<TraceNote> after, const QString& description)
    : session_(session), before_(std::move(before)), after_(std::move(after)) {
    setText(description);
}

void ChangeNotesCommand::redo() {
    session_->applyNotes(after_);
}

void ChangeNotesCommand::undo() {
    session_->applyNotes(before_);
}

}  // namespace ratelab::ui
