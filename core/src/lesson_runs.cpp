// Lesson questions on fleets and on retrying clients, answered by simulate_fleet() and
// run_clients() over the step's trace and lane.
#include "lesson_runs.h"

#include <string>

namespace ratelab::detail {

namespace {

std::string count(std::int64_t n, const std::string& what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

ComputedAnswer fleet_answer(const SimulationResult& result, const LessonQuestion& question) {
    if (!question.fleet || question.fleet->modes.size() != 1) {
        throw SimulationError("a fleet question needs the step's fleet and one mode");
    }
    const Lane& lane = result.lanes[question.lane];
    const auto fleet = simulate_fleet(result.trace, result.params, lane, *question.fleet);
    const FleetModeResult& mode = fleet->modes.front();
    const std::string name =
        std::string(mode_name(mode.mode)) + " on " + count(question.fleet->servers, "server");
    ComputedAnswer out;
    if (question.ask == LessonAsk::fleet_accepted) {
        out.answer = Answer::of_number(mode.totals.accepted);
        out.explanation = name + " accepts " + std::to_string(mode.totals.accepted) + " of " +
                          std::to_string(result.trace->requests.size()) +
                          " requests, one limiter " + std::to_string(fleet->ideal_accepted) +
                          ": the fleet accepts " + std::to_string(mode.extra_accepted) +
                          " that one limiter rejects and rejects " +
                          std::to_string(mode.extra_rejected) + " that it accepts";
    } else {
        const KeyBurst& worst = mode.worst;
        const Tick window = result.params.base.window;
        out.answer = Answer::of_number(worst.burst.cost);
        out.explanation = name + ": the span [" + worst.burst.start.to_string() + ", " +
                          (worst.burst.start + window).to_string() + ") lets through " +
                          std::to_string(worst.burst.cost) + " against a limit of " +
                          std::to_string(worst.limit) + "; one limiter's worst is " +
                          std::to_string(fleet->ideal_worst.burst.cost);
    }
    return out;
}

ComputedAnswer client_answer(const SimulationResult& result, const LessonQuestion& question) {
    if (!question.client) {
        throw SimulationError("a client question needs a client policy");
    }
    const Lane& lane = result.lanes[question.lane];
    const ClientRun run =
        run_clients(*result.trace, result.params, lane, ClientPolicies{*question.client, {}});
    const IntentFigures& f = run.intents;
    const std::int64_t answer = question.ask == LessonAsk::client_served      ? f.served
                                : question.ask == LessonAsk::client_abandoned ? f.abandoned
                                                                              : f.attempts;
    ComputedAnswer out;
    out.answer = Answer::of_number(answer);
    out.explanation =
        result.runs[question.lane].label + " with " +
        std::string(client_kind_name(question.client->kind)) +
        " clients: " + count(static_cast<std::int64_t>(result.trace->requests.size()), "intent") +
        ", " + count(f.attempts, "attempt") + " (" + count(f.rejections, "rejection") + "); " +
        std::to_string(f.served) + " served, " + std::to_string(f.abandoned) + " given up";
    return out;
}

}  // namespace ratelab::detail
