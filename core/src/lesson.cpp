// Lesson questions answered by the engine, and "try it" goals checked by it.
#include "ratelab/lesson.h"

#include <algorithm>
#include <array>
#include <utility>

#include "lesson_runs.h"

namespace ratelab {

namespace {

constexpr std::array<std::pair<LessonAsk, std::string_view>, 14> kAsks = {{
    {LessonAsk::accepts, "accepts"},
    {LessonAsk::rejected, "rejected"},
    {LessonAsk::retry_after, "retry_after"},
    {LessonAsk::worst_burst, "worst_burst"},
    {LessonAsk::accepted_count, "accepted_count"},
    {LessonAsk::rejected_count, "rejected_count"},
    {LessonAsk::delay, "delay"},
    {LessonAsk::release, "release"},
    {LessonAsk::most_accepted, "most_accepted"},
    {LessonAsk::fleet_accepted, "fleet_accepted"},
    {LessonAsk::fleet_worst_burst, "fleet_worst_burst"},
    {LessonAsk::client_served, "client_served"},
    {LessonAsk::client_abandoned, "client_abandoned"},
    {LessonAsk::client_attempts, "client_attempts"},
}};

std::string request_name(const Trace& trace, std::size_t index) {
    return "request " + std::to_string(index) + " (tick " +
           std::to_string(trace.requests[index].tick) + ")";
}

void check_lane(const SimulationResult& result, std::size_t lane) {
    if (lane >= result.runs.size()) {
        throw SimulationError("lane " + std::to_string(lane) + " does not exist: the step has " +
                              std::to_string(result.runs.size()) + " lanes");
    }
}

void check_request(const SimulationResult& result, std::size_t request) {
    if (request >= result.trace->requests.size()) {
        throw SimulationError("request " + std::to_string(request) +
                              " does not exist: the trace has " +
                              std::to_string(result.trace->requests.size()) + " requests");
    }
}

std::string why(const SimulationResult& result, std::size_t lane, std::size_t request) {
    return result.runs[lane].label + ", " + request_name(*result.trace, request) + ": " +
           explain(result, lane, request).check;
}

ComputedAnswer accepts(const SimulationResult& result, std::size_t request) {
    check_request(result, request);
    ComputedAnswer out;
    std::vector<std::int64_t> lanes;
    for (std::size_t k = 0; k < result.runs.size(); ++k) {
        const bool accepted = result.runs[k].accepted(request);
        if (accepted) {
            lanes.push_back(static_cast<std::int64_t>(k));
        }
        out.explanation += (k == 0 ? "" : "; ") + std::to_string(k) + " " +
                           why(result, k, request) + (accepted ? " (accepted)" : " (rejected)");
    }
    out.answer = Answer::of_indices(std::move(lanes));
    return out;
}

std::vector<std::int64_t> rejected_indexes(const AlgorithmRun& run) {
    std::vector<std::int64_t> indexes;
    for (std::size_t i = 0; i < run.decisions.size(); ++i) {
        if (!run.accepted(i)) {
            indexes.push_back(static_cast<std::int64_t>(i));
        }
    }
    return indexes;
}

ComputedAnswer lane_answer(const SimulationResult& result, const LessonQuestion& q) {
    check_lane(result, q.lane);
    const AlgorithmRun& run = result.runs[q.lane];
    const Trace& trace = *result.trace;
    ComputedAnswer out;
    switch (q.ask) {
        case LessonAsk::rejected: {
            const auto indexes = rejected_indexes(run);
            out.answer = Answer::of_indices(indexes);
            for (std::int64_t i : indexes) {
                out.explanation += (out.explanation.empty() ? "" : "; ") +
                                   why(result, q.lane, static_cast<std::size_t>(i));
            }
            if (indexes.empty()) {
                out.explanation = run.label + " rejects nothing";
            }
            return out;
        }
        case LessonAsk::retry_after: {
            check_request(result, q.request);
            const Decision decision = run.decision(trace, q.request);
            if (decision.accepted) {
                throw SimulationError(run.label + " accepts " + request_name(trace, q.request) +
                                      ", so it has no retry-after");
            }
            out.answer =
                decision.retry_after ? Answer::of_number(*decision.retry_after) : Answer::never();
            out.explanation = why(result, q.lane, q.request);
            return out;
        }
        case LessonAsk::delay:
        case LessonAsk::release: {
            check_request(result, q.request);
            const Decision decision = run.decision(trace, q.request);
            if (!run.releases) {
                throw SimulationError(run.label + " does not shape: it delays nothing");
            }
            if (!decision.accepted) {
                throw SimulationError(run.label + " rejects " + request_name(trace, q.request) +
                                      ", so it has no delay");
            }
            out.answer = q.ask == LessonAsk::delay
                             ? Answer::of_number(decision.delay.value_or(Rational()))
                             : Answer::of_number(decision.release.value_or(Rational()));
            out.explanation = why(result, q.lane, q.request) + "; released at " +
                              decision.release.value_or(Rational()).to_string();
            return out;
        }
        case LessonAsk::worst_burst: {
            const Tick window = result.params.base.window;
            out.answer = Answer::of_number(run.worst_burst.cost);
            out.explanation = run.label + ": the span [" + run.worst_burst.start.to_string() +
                              ", " + (run.worst_burst.start + window).to_string() + ") holds " +
                              std::to_string(run.worst_burst.cost) + " of accepted cost";
            return out;
        }
        case LessonAsk::accepted_count:
        case LessonAsk::rejected_count: {
            const bool want_accepted = q.ask == LessonAsk::accepted_count;
            const std::int64_t count = want_accepted ? run.totals.accepted : run.totals.rejected;
            out.answer = Answer::of_number(count);
            out.explanation = run.label + " accepts " + std::to_string(run.totals.accepted) +
                              " and rejects " + std::to_string(run.totals.rejected) + " of " +
                              std::to_string(trace.requests.size()) + " requests";
            return out;
        }
        default:
            break;
    }
    throw SimulationError("this question needs no lane");
}

ComputedAnswer most_accepted(const SimulationResult& result) {
    std::int64_t best = -1;
    for (const AlgorithmRun& run : result.runs) {
        best = std::max(best, run.totals.accepted);
    }
    ComputedAnswer out;
    std::vector<std::int64_t> lanes;
    for (std::size_t k = 0; k < result.runs.size(); ++k) {
        if (result.runs[k].totals.accepted == best) {
            lanes.push_back(static_cast<std::int64_t>(k));
        }
        out.explanation += (k == 0 ? "" : "; ") + result.runs[k].label + " accepts " +
                           std::to_string(result.runs[k].totals.accepted);
    }
    out.answer = Answer::of_indices(std::move(lanes));
    return out;
}

}  // namespace

std::string_view ask_id(LessonAsk ask) {
    for (const auto& [value, id] : kAsks) {
        if (value == ask) {
            return id;
        }
    }
    return "";
}

std::optional<LessonAsk> ask_from_id(std::string_view id) {
    for (const auto& [value, name] : kAsks) {
        if (name == id) {
            return value;
        }
    }
    return std::nullopt;
}

bool asks_for_indices(LessonAsk ask) {
    return ask == LessonAsk::accepts || ask == LessonAsk::rejected ||
           ask == LessonAsk::most_accepted;
}

bool asks_fleet(LessonAsk ask) {
    return ask == LessonAsk::fleet_accepted || ask == LessonAsk::fleet_worst_burst;
}

bool asks_clients(LessonAsk ask) {
    return ask == LessonAsk::client_served || ask == LessonAsk::client_abandoned ||
           ask == LessonAsk::client_attempts;
}

std::shared_ptr<const SimulationResult> simulate_step(const LessonStep& step) {
    Params params = step.params;
    set_tick_ms(params, step.tick_ms);
    return simulate(step.trace, params);
}

ComputedAnswer compute_answer(const SimulationResult& result, const LessonQuestion& question) {
    switch (question.ask) {
        case LessonAsk::accepts:
            return accepts(result, question.request);
        case LessonAsk::most_accepted:
            return most_accepted(result);
        case LessonAsk::fleet_accepted:
        case LessonAsk::fleet_worst_burst:
            check_lane(result, question.lane);
            return detail::fleet_answer(result, question);
        case LessonAsk::client_served:
        case LessonAsk::client_abandoned:
        case LessonAsk::client_attempts:
            check_lane(result, question.lane);
            return detail::client_answer(result, question);
        default:
            return lane_answer(result, question);
    }
}

Grade grade_step(const LessonStep& step, const Answer& given) {
    if (!step.question) {
        throw SimulationError("this step asks nothing");
    }
    const ComputedAnswer truth = compute_answer(*simulate_step(step), *step.question);
    Grade result = grade(truth.answer, given, truth.explanation);
    if (!step.question->reveal.empty()) {
        result.reason += "\n" + step.question->reveal;
    }
    return result;
}

bool try_it_met(const LessonStep& step, const Trace& edited) {
    if (!step.try_it) {
        return false;
    }
    LessonStep attempt = step;
    attempt.trace = std::make_shared<const Trace>(edited);
    const auto result = simulate_step(attempt);
    if (const auto lane = step.try_it->burst_over) {
        return *lane < result->runs.size() &&
               result->runs[*lane].worst_burst.cost > result->params.base.limit;
    }
    const std::size_t rejecting = step.try_it->rejected_by;
    const std::size_t accepting = step.try_it->accepted_by;
    if (rejecting >= result->runs.size() || accepting >= result->runs.size()) {
        return false;
    }
    for (std::size_t i = 0; i < edited.requests.size(); ++i) {
        if (!result->runs[rejecting].accepted(i) && result->runs[accepting].accepted(i)) {
            return true;
        }
    }
    return false;
}

}  // namespace ratelab
