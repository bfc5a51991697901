// ratelab-cli quiz: interview drills on small random traces, each with the engine's answer and why.
#include <limits>
#include <ostream>
#include <random>

#include "cli_support.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/quiz_json.h"
#include "ratelab/quiz.h"

namespace ratelab::cli {

namespace {

constexpr std::int64_t kMaxQuestions = 100;

std::string lanes_text(const Question& q) {
    std::string text;
    for (const Lane& lane : q.lanes) {
        text += (text.empty() ? "" : " ") + io::lane_spec(lane);
    }
    return text;
}

std::string quiz_text(const std::vector<Question>& questions, std::uint64_t seed) {
    std::string text = "Seed " + std::to_string(seed) + " (ratelab-cli quiz --seed " +
                       std::to_string(seed) +
                       " repeats these). Each answer follows its "
                       "question: cover it and answer first.\n";
    for (std::size_t i = 0; i < questions.size(); ++i) {
        const Question& q = questions[i];
        text += "\n" + std::to_string(i + 1) + ". [" + std::string(kind_id(q.kind)) + "] " +
                q.text + "\n   lane: " + lanes_text(q) + "\n   answer: " + format_answer(q.answer) +
                "\n   why: " + q.explanation + "\n";
    }
    return text;
}

int run_quiz(const Arguments& args, CommandIo& io) {
    QuizOptions options;
    const auto seed = args.integer("seed", 0, std::numeric_limits<std::int64_t>::max());
    // Without --seed, a fresh drill each time; the text names the seed so it can be repeated.
    options.seed = seed ? static_cast<std::uint64_t>(*seed)
                        : static_cast<std::uint64_t>(std::random_device{}()) % 1'000'000;
    options.count = static_cast<std::size_t>(args.integer("count", 1, kMaxQuestions).value_or(5));
    const auto questions = make_quiz(options);
    if (args.has("json")) {
        write_output(args, io::quiz_to_json(questions).dump(2) + "\n", io);
    } else {
        write_output(args, quiz_text(questions, options.seed), io);
    }
    return kExitOk;
}

}  // namespace

Command make_quiz_command() {
    return {"quiz",
            "interview drills on small random traces, with the computed answers",
            "quiz [--seed N] [--count K] [--json]",
            "Each question is drawn on a small random trace of one key: which requests a lane\n"
            "rejects (rejected_indices), the retry-after of a rejection (retry_after), a lane's\n"
            "worst W-tick burst (worst_burst), or which lanes let a request through\n"
            "(which_accepts). The engine answers each and says why. The same seed gives the\n"
            "same questions on every machine.",
            {{"seed", "N", "seed of the questions (default: a fresh one, printed with them)"},
             {"count", "K", "how many questions, 1 to 100 (default 5)"},
             {"json", "", "print {\"questions\": [...]} with each trace as a trace file holds it"},
             output_option("the questions")},
            0,
            0,
            false,
            run_quiz};
}

}  // namespace ratelab::cli
