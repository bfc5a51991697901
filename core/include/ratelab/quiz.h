#pragma once
// Questions whose answers the engine computes: interview drills on small random traces, and the
// answers and grading that lessons (ratelab/lesson.h) share with them.

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/model.h"
#include "ratelab/rational.h"

namespace ratelab {

/// A computed or a given answer: a sorted list of indexes (requests, lanes or choices), or an
/// exact number, or "never" (a request that can never pass has no retry-after).
struct Answer {
    enum class Form : std::uint8_t { indices, number, never };
    Form form = Form::indices;
    std::vector<std::int64_t> indices;  ///< Form::indices: sorted, no repeats
    Rational number;                    ///< Form::number

    static Answer of_indices(std::vector<std::int64_t> values);
    static Answer of_number(Rational value) { return {Form::number, {}, value}; }
    static Answer never() { return {Form::never, {}, {}}; }

    friend bool operator==(const Answer&, const Answer&) = default;
};

/// The answer as a learner would write it: "2, 5, 7", "none", "5/2", "never".
std::string format_answer(const Answer& answer);
/// Reads a learner's answer in the form `expected` has ("2 5 7", "2,5", "none", "5/2", "2.5",
/// "never"; a decimal is read exactly). Nothing when the text is not of that form.
std::optional<Answer> parse_answer(std::string_view text, Answer::Form expected);

/// The verdict on a learner's answer, with the reason to show beside it.
struct Grade {
    bool correct = false;
    std::string reason;  ///< what was right or wrong, then the engine's why
};

/// Grades `given` against `truth`; `why` is the engine's explanation, appended to the reason.
/// For lists the reason names what was missed and what was added.
Grade grade(const Answer& truth, const Answer& given, const std::string& why);
/// Grades a number that only needs to be close, such as a shaper's release time guessed in
/// predict mode: right when `given` is within `tolerance` of `truth` (both numbers).
Grade grade_near(const Rational& truth, const Rational& given, const Rational& tolerance,
                 const std::string& why);

/// What a drill asks.
enum class QuestionKind : std::uint8_t {
    rejected_indices,  ///< which requests does the lane reject? (sorted request indexes)
    retry_after,       ///< the retry-after of one rejection, in ticks (or never)
    worst_burst,       ///< the largest accepted cost in any W-tick span
    which_accepts,     ///< which of these lanes accept one request? (sorted lane indexes)
};
/// The stable name of a kind, as `--json` writes it: "rejected_indices", ...
std::string_view kind_id(QuestionKind kind);

/// One drill: a small trace, the lanes it is about, the question, its answer and the why.
struct Question {
    QuestionKind kind = QuestionKind::rejected_indices;
    std::string text;
    Trace trace;
    Limits limits;  ///< L and W of the trace (one key, so one tier)
    /// The lane asked about; for which_accepts, the lanes offered (the answer indexes them).
    std::vector<Lane> lanes;
    std::optional<std::size_t> request;  ///< the request asked about, when there is one
    Answer answer;
    std::string explanation;
};

/// How drills are drawn.
struct QuizOptions {
    std::uint64_t seed = 1;
    std::size_t count = 5;
};

/// `options.count` questions drawn from `options.seed`, cycling through the kinds in a seeded
/// order. The same seed gives the same questions on every platform: std::mt19937_64 is fully
/// specified, and draws use draw_below() rather than the standard distributions, which are not.
std::vector<Question> make_quiz(const QuizOptions& options);

/// A number in [0, bound) from `rng`, the same on every platform (rejection sampling, so no
/// bias). `bound` must be at least 1.
std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound);

}  // namespace ratelab
