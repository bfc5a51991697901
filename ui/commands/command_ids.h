#pragma once

namespace ratelab::ui {

/// QUndoCommand::id() values of the commands that merge with their successor.
enum CommandId : int {
    kMoveRequestsCommandId = 1,
    kChangeCostsCommandId = 2,
    kChangeParamsCommandId = 3,
};

}  // namespace ratelab::ui
