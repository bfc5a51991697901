#pragma once

#include <QUndoCommand>
#include <optional>

#include "ratelab/io/fleet_file.h"

namespace ratelab::ui {

class Session;

/// Changes the document's fleet settings (its "fleet" object); undo puts back the old ones, or
/// takes the object out again when the document had none.
class ChangeFleetCommand : public QUndoCommand {
public:
    ChangeFleetCommand(Session* session, std::optional<io::FleetFile> before, io::FleetFile after,
                       const QString& description);
    void redo() override;
    void undo() override;

private:
    Session* session_;
    std::optional<io::FleetFile> before_;
    io::FleetFile after_;
};

}  // namespace ratelab::ui
