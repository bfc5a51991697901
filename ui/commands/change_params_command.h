#pragma once

#include <QUndoCommand>

#include "ratelab/model.h"

namespace ratelab::ui {

class Session;

/// Changes the simulation parameters (L, W, overrides, options). Consecutive changes of the same
/// field (clicking a spin box arrow several times) merge into one step.
class ChangeParamsCommand : public QUndoCommand {
public:
    ChangeParamsCommand(Session* session, Params old_params, Params new_params, const QString& text,
                        int merge_key);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    Session* session_;
    Params old_params_;
    Params new_params_;
    int merge_key_;
};

}  // namespace ratelab::ui
