#pragma once

namespace ratelab::ui {

/// Merge keys for parameter edits: consecutive edits of the same field become one undo step.
enum ParamKey : int {
    kNoMerge = 0,
    kLimitKey,
    kWindowKey,
    /// The Advanced panel's fields take kFirstOverrideKey + their position in the panel.
    kFirstOverrideKey = 100,
    /// A lane's parameter fields take kFirstLaneKey + 100 * lane + the parameter's position.
    kFirstLaneKey = 10'000,
};

}  // namespace ratelab::ui
