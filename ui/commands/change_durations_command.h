#pragma once

#include <QCoreApplication>
#include <QUndoCommand>
#include <vector>

#include "session/trace_edits.h"

namespace ratelab::ui {

class Session;

/// Sets how long some requests hold what they take (Trace::durations; 0: the concurrency
/// lane's own duration), as one step.
class ChangeDurationsCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(ChangeDurationsCommand)

public:
    ChangeDurationsCommand(Session* session, IndexList indices, std::vector<Tick> durations);
    void redo() override;
    void undo() override;

private:
    Session* session_;
    IndexList indices_;
    std::vector<Tick> old_durations_;
    std::vector<Tick> new_durations_;
};

}  // namespace ratelab::ui
