#pragma once
// A lesson: steps over traces, with narration, highlights and questions whose answers the engine
// computes when the lesson runs (never typed into the lesson). The file format and its reader are
// in ratelab/io/lesson_file.h; the app's lesson browser and predict mode drive this model.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/clients.h"
#include "ratelab/fleet.h"
#include "ratelab/model.h"
#include "ratelab/quiz.h"
#include "ratelab/simulation.h"

namespace ratelab {

/// Something a step points at: a lane, a span of ticks [from, to), or one request.
struct Highlight {
    enum class Kind : std::uint8_t { lane, span, request };
    Kind kind = Kind::lane;
    std::size_t lane = 0;     ///< Kind::lane: an index into the step's lanes
    Tick from = 0;            ///< Kind::span
    Tick to = 0;              ///< Kind::span, > from
    std::size_t request = 0;  ///< Kind::request: an index into the step's trace
    std::string note;         ///< optional words beside it

    friend bool operator==(const Highlight&, const Highlight&) = default;
};

/// What a question asks the engine to compute.
enum class LessonAsk : std::uint8_t {
    accepts,         ///< which of the step's lanes accept `request` (predict, or a choice)
    rejected,        ///< which requests lane `lane` rejects
    retry_after,     ///< the retry-after of `request` in lane `lane` (it must be rejected)
    worst_burst,     ///< lane `lane`'s worst W-tick burst
    accepted_count,  ///< how many requests lane `lane` accepts
    rejected_count,  ///< how many requests lane `lane` rejects
    delay,           ///< how long the shaper in lane `lane` holds `request` (it must be accepted)
    release,         ///< when the shaper in lane `lane` lets `request` out (it must be accepted)
    most_accepted,   ///< which lanes accept the most requests (a choice among the lanes)
    // Lane `lane` run by a fleet of servers (simulate_fleet()) in the question's mode:
    fleet_accepted,     ///< how many requests the fleet accepts
    fleet_worst_burst,  ///< the most one key got through in any W ticks, across the fleet
    // Lane `lane` with clients that retry as the question's policy says (run_clients()):
    client_served,     ///< how many intents end in an accepted attempt
    client_abandoned,  ///< how many intents the clients give up
    client_attempts,   ///< how many attempts the clients make in all
};
/// The stable name of `ask`, as lesson files write it: "accepts", "retry_after", ...
std::string_view ask_id(LessonAsk ask);
/// The ask named `id`, or nothing.
std::optional<LessonAsk> ask_from_id(std::string_view id);
/// Whether the answer is a list of indexes (else a number).
bool asks_for_indices(LessonAsk ask);
/// Whether the ask runs a fleet (it needs LessonQuestion::fleet) or clients (::client).
bool asks_fleet(LessonAsk ask);
bool asks_clients(LessonAsk ask);

/// A question of a step. `kind` is how the learner answers: predict (accepted or rejected per
/// lane, for the request the clock stops before), choice (pick among the lanes), requests (list
/// request indexes) or number. For a shaper's lane, predict mode can also ask roughly when the
/// request leaves: compute_answer() with LessonAsk::release, graded with grade_near().
struct LessonQuestion {
    enum class Kind : std::uint8_t { predict, choice, requests, number };
    Kind kind = Kind::number;
    LessonAsk ask = LessonAsk::worst_burst;
    std::string prompt;
    std::size_t lane = 0;
    std::size_t request = 0;
    std::vector<std::string> hints;  ///< shown one at a time, on request
    std::string reveal;              ///< narration after the answer is shown
    /// Fleet asks: the step's fleet, with the one mode asked about in `modes`.
    std::optional<FleetSettings> fleet;
    /// Client asks: how every client answers a rejection.
    std::optional<ClientPolicy> client;

    friend bool operator==(const LessonQuestion&, const LessonQuestion&) = default;
};

/// A "try it" step: it waits until the learner's edited trace has a request that lane
/// `rejected_by` rejects and lane `accepted_by` accepts or, when `burst_over` is set, until
/// that lane lets through more than L in some W ticks.
struct TryIt {
    std::string goal;  ///< in words
    std::size_t rejected_by = 0;
    std::size_t accepted_by = 0;
    std::optional<std::size_t> burst_over;  ///< a lane; then the two above are not used

    friend bool operator==(const TryIt&, const TryIt&) = default;
};

/// One step: what the learner sees and, optionally, is asked.
struct LessonStep {
    std::string title;
    std::string narration;
    std::shared_ptr<const Trace> trace;
    Params params;  ///< limits, tiers and the step's lanes (never empty)
    std::int64_t tick_ms = 1000;
    std::optional<Tick> clock;  ///< where the clock stops; nothing: at the end
    std::vector<Highlight> highlights;
    std::optional<LessonQuestion> question;
    std::optional<TryIt> try_it;
    /// The fleet the step's trace document describes (its "fleet" object), if it has one.
    std::optional<FleetSettings> fleet;
};

struct Lesson {
    std::string id;  ///< stable, e.g. "boundary-burst": where progress is remembered
    std::string title;
    std::string summary;
    std::vector<LessonStep> steps;
};

/// The engine's answer to a step's question, with the why.
struct ComputedAnswer {
    Answer answer;
    std::string explanation;
};

/// Runs the step's lanes over its trace (simulate()).
std::shared_ptr<const SimulationResult> simulate_step(const LessonStep& step);
/// Computes the answer to `question` over `result` (simulate_step() of its step). Throws
/// SimulationError when the question does not fit (an index out of range, the retry-after of
/// an accepted request, the delay of a lane that does not shape), in words a lesson's author
/// can act on.
ComputedAnswer compute_answer(const SimulationResult& result, const LessonQuestion& question);
/// Grades a learner's answer to the step's question: the computed answer, the verdict and why.
Grade grade_step(const LessonStep& step, const Answer& given);
/// Whether `edited` (the step's trace after the learner's edits) meets the step's try-it goal.
bool try_it_met(const LessonStep& step, const Trace& edited);

}  // namespace ratelab
