#pragma once
// Lesson answers that run more than the step's lanes: a fleet of servers, or clients that
// retry. compute_answer() (lesson.cpp) checks the lane before calling these.

#include "ratelab/lesson.h"

namespace ratelab::detail {

/// fleet_accepted, fleet_worst_burst: the step's lane `lane` run by question.fleet.
ComputedAnswer fleet_answer(const SimulationResult& result, const LessonQuestion& question);
/// client_served, client_abandoned, client_attempts: lane `lane` under question.client.
ComputedAnswer client_answer(const SimulationResult& result, const LessonQuestion& question);

}  // namespace ratelab::detail
