#pragma once

#include <QCoreApplication>
#include <QUndoCommand>
#include <string>
#include <vector>

#include "session/trace_edits.h"

namespace ratelab::ui {

class Session;

/// Gives some requests another key (the caller they come from); undo gives back their keys and
/// the key table as it was.
class ChangeKeysCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(ChangeKeysCommand)

public:
    ChangeKeysCommand(Session* session, IndexList indices, std::string key);
    void redo() override;
    void undo() override;

private:
    Session* session_;
    IndexList indices_;
    std::vector<KeyId> old_keys_;
    std::vector<std::string> old_table_;
    std::string key_;
};

}  // namespace ratelab::ui
