#pragma once

#include <QUndoCommand>
#include <vector>

#include "ratelab/model.h"

namespace ratelab::ui {

class Session;

/// Replaces the trace's notes (an added, edited or deleted note) and puts them back on undo.
class ChangeNotesCommand : public QUndoCommand {
public:
    ChangeNotesCommand(Session* session, std::vector<TraceNote> before,
                       std::vector<TraceNote> after, const QString& description);
    void redo() override;
    void undo() override;

private:
    Session* session_;
    std::vector<TraceNote> before_;
    std::vector<TraceNote> after_;
};

}  // namespace ratelab::ui
