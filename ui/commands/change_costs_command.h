#pragma once

#include <QCoreApplication>
#include <QUndoCommand>
#include <cstdint>
#include <vector>

#include "session/trace_edits.h"

namespace ratelab::ui {

class Session;

/// Changes the cost of some requests. Consecutive changes of the same requests (turning the
/// wheel) merge into one step.
class ChangeCostsCommand : public QUndoCommand {
    Q_DECLARE_TR_FUNCTIONS(ChangeCostsCommand)

public:
    ChangeCostsCommand(Session* session, IndexList indices, std::vector<std::uint32_t> costs);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    Session* session_;
    IndexList indices_;
    std::vector<std::uint32_t> old_costs_;
    std::vector<std::uint32_t> new_costs_;
};

}  // namespace ratelab::ui
