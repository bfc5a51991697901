#include "commands/change_keys_command.h"

#include "session/session.h"

namespace ratelab::ui {

ChangeKeysCommand::ChangeKeysCommand(Session* session, IndexList indices, std::string key)
    : session_(session),
      indices_(std::move(indices)),
      old_keys_(keysAt(session->trace(), indices_)),
      old_table_(session->trace().keys),
      key_(std::move(key)) {
    setText(
        key_.empty()
            ? tr("Give %n request(s) the default key", nullptr, static_cast<int>(indices_.size()))
            : tr("Give %n request(s) the key %1", nullptr, static_cast<int>(indices_.size()))
                  .arg(QString::fromStdString(key_)));
}

void ChangeKeysCommand::redo() {
    session_->applyTrace(withKey(session_->trace(), indices_, key_), indices_,
                         changeInPlace(indices_, session_->trace().requests.size()));
}

void ChangeKeysCommand::undo() {
    session_->applyTrace(withKeyIds(session_->trace(), indices_, old_keys_, old_table_), indices_,
                         changeInPlace(indices_, session_->trace().requests.size()));
}

}  // namespace ratelab::ui
