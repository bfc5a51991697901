#pragma once

#include <QCoreApplication>
#include <QUndoCommand>
#include <cstddef>

#include "ratelab/model.h"

namespace ratelab::ui {

class Session;

/// Adds one request at a given position of the trace (a click on the trace row, or Fire now).
class AddRequestCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(AddRequestCommand)

public:
    AddRequestCommand(Session* session, std::size_t index, const Request& request);
    void redo() override;
    void undo() override;

private:
    Session* session_;
    std::size_t index_;
    Request request_;
};

}  // namespace ratelab::ui
