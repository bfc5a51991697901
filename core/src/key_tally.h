#pragma once
// Every key's figures in one lane, counted from the lane's decisions (key_figures.h's engine).

#include <cstddef>
#include <vector>

#include "ratelab/key_figures.h"

namespace ratelab::detail {

/// Finds the lane's worst key and whether any is over its limit, the keys sorted by name.
void judge(LaneKeys& lane);
/// Whether `a` is over its limit by more than `b` is: a.cost / a.limit > b.cost / b.limit.
bool relatively_worse(const KeyFigures& a, const KeyFigures& b);

/// key_figures() of lane `lane` of `result`, which kept its decisions, over `scope`: of every
/// key, or of those `keys` marks (indexed by key id, non-zero for a key to count). Key by key
/// when the run holds an index of its trace's keys, else in trace order.
LaneKeys count_keys(const SimulationResult& result, std::size_t lane, const KeyScope& scope,
                    const std::vector<char>* keys);
/// Whether count_every_lane() can count `result`: every lane kept its decisions, and the runs
/// hold an index of the trace's keys.
bool can_count_every_lane(const SimulationResult& result);
/// count_keys() of every lane of `result` (can_count_every_lane()) at once: each key's requests
/// are read once for all the lanes. Over `threads` threads by ranges of keys.
std::vector<LaneKeys> count_every_lane(const SimulationResult& result, const KeyScope& scope,
                                       const std::vector<char>* keys, unsigned threads);

}  // namespace ratelab::detail
