#pragma once

namespace ratelab::ui {

/// Merge keys for parameter edits: consecutive edits of the same field become one undo step.
enum ParamKey : int {
    kNoMerge = 0,
    kLimitKey,
    kWindowKey,
    kCapacityKey,
    kRefillRateKey,
    kQueueSizeKey,
    kDrainIntervalKey,
    kGcraBurstKey,
    kEmissionIntervalKey,
};

}  // namespace ratelab::ui
