#pragma once

#include <QCoreApplication>
#include <QUndoCommand>
#include <vector>

#include "ratelab/model.h"
#include "session/trace_edits.h"

namespace ratelab::ui {

class Session;

/// Moves requests by a number of ticks. Every step of one drag merges into a single command, so
/// a drag is undone in one go.
class MoveRequestsCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(MoveRequestsCommand)

public:
    MoveRequestsCommand(Session* session, IndexList indices, Tick delta, int gesture);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    void updateText();

    Session* session_;
    IndexList original_indices_;
    Trace originals_;  ///< the requests as they were before the first step (keys not used)
    IndexList moved_indices_;
    Tick delta_;
    int gesture_;
};

}  // namespace ratelab::ui
