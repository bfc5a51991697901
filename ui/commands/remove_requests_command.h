#pragma once

#include <QCoreApplication>
#include <QUndoCommand>
#include <vector>

#include "ratelab/model.h"
#include "session/trace_edits.h"

namespace ratelab::ui {

class Session;

/// Deletes a set of requests; undo puts each back exactly where it was.
class RemoveRequestsCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(RemoveRequestsCommand)

public:
    RemoveRequestsCommand(Session* session, IndexList indices);
    void redo() override;
    void undo() override;

private:
    Session* session_;
    IndexList indices_;
    Trace removed_;  ///< with their durations; its keys are not used
};

}  // namespace ratelab::ui
