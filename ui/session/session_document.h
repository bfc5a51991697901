#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/model.h"

namespace ratelab::ui {

/// What a trace file holds, as the session keeps it. The trace is shared and immutable, so a
/// simulation snapshot can hold on to it while the document moves on.
struct SessionDocument {
    std::string name;
    std::string description;
    std::int64_t tick_ms = 1000;  ///< how long one tick is, for showing seconds
    std::optional<Tick> duration;
    Params params;
    std::shared_ptr<const Trace> trace = std::make_shared<const Trace>();
    /// Notes pinned to ticks, in tick order.
    std::vector<TraceNote> notes;
    /// What the file held besides the above (fields of newer versions), written back on save.
    struct FileExtras;
    std::shared_ptr<const FileExtras> extras;
    /// Notes from loading that are not errors (for example fields this version ignores).
    std::vector<std::string> load_warnings;

    /// The scenario the app opens on: L = 4, W = 10, the boundary burst.
    static SessionDocument defaultScenario();
    /// An empty trace with the default parameters.
    static SessionDocument empty();
};

}  // namespace ratelab::ui
