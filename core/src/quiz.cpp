// Interview drills: questions on small seeded random traces, answered and explained by the engine.
#include <algorithm>
#include <array>
#include <memory>

#include "ratelab/quiz.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "ratelab/tick_text.h"

namespace ratelab {

namespace {

constexpr std::array kKinds = {QuestionKind::rejected_indices, QuestionKind::retry_after,
                               QuestionKind::worst_burst, QuestionKind::which_accepts};
/// Traces drawn for one question before settling for a plain one (every kind has a plain one
/// except a rejection's retry-after, for which almost every draw qualifies).
constexpr int kAttempts = 64;

std::int64_t draw_between(std::mt19937_64& rng, std::int64_t low, std::int64_t high) {
    return low +
           static_cast<std::int64_t>(draw_below(rng, static_cast<std::uint64_t>(high - low + 1)));
}

/// A short trace of one key, dense enough that every algorithm rejects something now and then.
Question draw_setting(std::mt19937_64& rng) {
    Question q;
    q.limits.limit = draw_between(rng, 2, 5);
    q.limits.window = draw_between(rng, 4, 10);
    const auto count = static_cast<std::size_t>(draw_between(rng, 6, 12));
    const std::int64_t span = q.limits.window * 2 + draw_between(rng, 0, q.limits.window);
    std::vector<Tick> ticks;
    for (std::size_t i = 0; i < count; ++i) {
        ticks.push_back(draw_between(rng, 0, span));
    }
    std::sort(ticks.begin(), ticks.end());
    TraceBuilder builder;
    for (Tick tick : ticks) {
        builder.add(tick, draw_below(rng, 6) == 0 ? 2U : 1U);
    }
    q.trace = std::move(builder).take();
    return q;
}

std::string describe_trace(const Question& q) {
    std::string text = "L = " + std::to_string(q.limits.limit) +
                       " per W = " + ticks_text(q.limits.window) + ". Requests (#index at tick):";
    for (std::size_t i = 0; i < q.trace.requests.size(); ++i) {
        const Request& r = q.trace.requests[i];
        text += (i == 0 ? " #" : ", #") + std::to_string(i) + " at " + std::to_string(r.tick);
        if (r.cost != 1) {
            text += " (cost " + std::to_string(r.cost) + ")";
        }
    }
    return text + ".";
}

std::shared_ptr<const SimulationResult> run(const Question& q) {
    Params params;
    params.base = q.limits;
    params.lanes = q.lanes;
    return simulate(std::make_shared<const Trace>(q.trace), params);
}

std::string why_of(const SimulationResult& result, std::size_t lane, std::size_t index) {
    const Request& r = result.trace->requests[index];
    return "#" + std::to_string(index) + " at " + std::to_string(r.tick) + ": " +
           explain(result, lane, index).check;
}

Lane random_lane(std::mt19937_64& rng) {
    const auto algorithms = Registry::instance().all();
    Lane lane;
    lane.algorithm = algorithms[draw_below(rng, algorithms.size())]->id;
    return lane;
}

std::vector<std::int64_t> rejected(const AlgorithmRun& run) {
    std::vector<std::int64_t> indexes;
    for (std::size_t i = 0; i < run.decisions.size(); ++i) {
        if (!run.accepted(i)) {
            indexes.push_back(static_cast<std::int64_t>(i));
        }
    }
    return indexes;
}

bool ask_rejected(Question& q, std::mt19937_64& rng, bool settle) {
    q.lanes = {random_lane(rng)};
    const auto result = run(q);
    const auto indexes = rejected(result->runs[0]);
    if (!settle && (indexes.empty() || indexes.size() == q.trace.requests.size())) {
        return false;
    }
    q.text = describe_trace(q) + " Which requests does " + lane_label(q.lanes[0]) + " reject?";
    q.answer = Answer::of_indices(indexes);
    for (std::int64_t i : indexes) {
        q.explanation +=
            (q.explanation.empty() ? "" : "; ") + why_of(*result, 0, static_cast<std::size_t>(i));
    }
    if (indexes.empty()) {
        q.explanation = "every request fits: " + lane_label(q.lanes[0]) + " rejects none";
    }
    return true;
}

bool ask_retry_after(Question& q, std::mt19937_64& rng) {
    q.lanes = {random_lane(rng)};
    const auto result = run(q);
    const auto indexes = rejected(result->runs[0]);
    if (indexes.empty()) {
        return false;
    }
    const auto index = static_cast<std::size_t>(indexes[draw_below(rng, indexes.size())]);
    const Decision decision = result->runs[0].decision(q.trace, index);
    q.request = index;
    q.text = describe_trace(q) + " " + lane_label(q.lanes[0]) + " rejects #" +
             std::to_string(index) +
             ". After how many ticks would that request, with no other "
             "traffic, be accepted (a fraction if need be, or never)?";
    q.answer = decision.retry_after ? Answer::of_number(*decision.retry_after) : Answer::never();
    q.explanation = why_of(*result, 0, index);
    if (decision.retry_after) {
        q.explanation += "; at tick " +
                         (q.trace.requests[index].tick + *decision.retry_after).to_string() +
                         " it would fit";
    }
    return true;
}

void ask_worst_burst(Question& q, std::mt19937_64& rng) {
    q.lanes = {random_lane(rng)};
    const auto result = run(q);
    const AlgorithmRun& lane = result->runs[0];
    q.text = describe_trace(q) + " What is the largest accepted cost " + lane_label(q.lanes[0]) +
             " lets into any span of " + ticks_text(q.limits.window) + " (its worst " +
             std::to_string(q.limits.window) + "-tick burst)?";
    q.answer = Answer::of_number(lane.worst_burst.cost);
    const Rational end = lane.worst_burst.start + q.limits.window;
    q.explanation =
        "the span [" + lane.worst_burst.start.to_string() + ", " + end.to_string() + ") holds " +
        std::to_string(lane.worst_burst.cost) +
        (lane.releases ? " units, counted when the queue releases them" : " of accepted cost") +
        "; L is " + std::to_string(q.limits.limit);
}

bool ask_which_accepts(Question& q, std::mt19937_64& rng, bool settle) {
    q.lanes.clear();
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        q.lanes.push_back(Lane{info->id, {}, {}, false});
    }
    const auto result = run(q);
    std::vector<std::size_t> split;  // requests some lanes accept and others reject
    for (std::size_t i = 0; i < q.trace.requests.size(); ++i) {
        std::size_t accepting = 0;
        for (const AlgorithmRun& lane : result->runs) {
            accepting += lane.accepted(i) ? 1 : 0;
        }
        if (accepting != 0 && accepting != result->runs.size()) {
            split.push_back(i);
        }
    }
    if (split.empty() && !settle) {
        return false;
    }
    const std::size_t index = split.empty() ? draw_below(rng, q.trace.requests.size())
                                            : split[draw_below(rng, split.size())];
    q.request = index;
    std::string choices;
    std::vector<std::int64_t> accepting;
    for (std::size_t k = 0; k < q.lanes.size(); ++k) {
        choices += (k == 0 ? "" : ", ") + std::to_string(k) + " " + lane_label(q.lanes[k]);
        if (result->runs[k].accepted(index)) {
            accepting.push_back(static_cast<std::int64_t>(k));
        }
        q.explanation += (k == 0 ? "" : "; ") + lane_label(q.lanes[k]) +
                         (result->runs[k].accepted(index) ? " accepts (" : " rejects (") +
                         explain(*result, k, index).check + ")";
    }
    q.text = describe_trace(q) + " Which of these let #" + std::to_string(index) +
             " through: " + choices + "?";
    q.answer = Answer::of_indices(std::move(accepting));
    return true;
}

Question make_question(QuestionKind kind, std::mt19937_64& rng) {
    for (int attempt = 0;; ++attempt) {
        Question q = draw_setting(rng);
        q.kind = kind;
        const bool settle = attempt + 1 >= kAttempts;
        switch (kind) {
            case QuestionKind::rejected_indices:
                if (ask_rejected(q, rng, settle)) {
                    return q;
                }
                break;
            case QuestionKind::retry_after:
                if (ask_retry_after(q, rng)) {
                    return q;
                }
                if (settle) {  // no rejection in many draws: ask the list instead
                    q.kind = QuestionKind::rejected_indices;
                    ask_rejected(q, rng, true);
                    return q;
                }
                break;
            case QuestionKind::worst_burst:
                ask_worst_burst(q, rng);
                return q;
            case QuestionKind::which_accepts:
                if (ask_which_accepts(q, rng, settle)) {
                    return q;
                }
                break;
        }
    }
}

}  // namespace

std::string_view kind_id(QuestionKind kind) {
    switch (kind) {
        case QuestionKind::rejected_indices:
            return "rejected_indices";
        case QuestionKind::retry_after:
            return "retry_after";
        case QuestionKind::worst_burst:
            return "worst_burst";
        case QuestionKind::which_accepts:
            return "which_accepts";
    }
    return "";
}

std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound) {
    // The largest multiple of `bound` that fits: draws at or above it would favour small values.
    const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % bound;
    for (;;) {
        const std::uint64_t value = rng();
        if (value < limit) {
            return value % bound;
        }
    }
}

std::vector<Question> make_quiz(const QuizOptions& options) {
    std::mt19937_64 rng(options.seed);
    std::vector<Question> questions;
    auto order = kKinds;
    for (std::size_t i = 0; i < options.count; ++i) {
        if (i % order.size() == 0) {  // a fresh seeded order of the kinds every cycle
            for (std::size_t k = order.size() - 1; k > 0; --k) {
                std::swap(order[k], order[draw_below(rng, k + 1)]);
            }
        }
        questions.push_back(make_question(order[i % order.size()], rng));
    }
    return questions;
}

}  // namespace ratelab
