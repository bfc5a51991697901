// ratelab-cli lesson: checks lesson files, and shows the answers the engine computes for them.
#include <ostream>

#include "cli_support.h"
#include "ratelab/io/lesson_file.h"
#include "ratelab/io/terminal_text.h"

namespace ratelab::cli {

namespace {

std::size_t question_count(const Lesson& lesson) {
    std::size_t count = 0;
    for (const LessonStep& step : lesson.steps) {
        count += step.question ? 1 : 0;
    }
    return count;
}

/// Prints every problem; the lesson, when there is none.
std::optional<Lesson> load(const std::string& file, CommandIo& io) {
    io::LessonLoad load = io::load_lesson(file);
    for (const io::LessonProblem& problem : load.problems) {
        // Lesson text comes from outside: never let it drive the terminal.
        io.err << io::terminal_safe(problem.message()) << "\n";
    }
    return std::move(load.lesson);
}

/// Every piece of lesson text passes terminal_safe() on its own, so the lines stay lines.
std::string answers_text(const Lesson& lesson) {
    using io::terminal_safe;
    std::string text = terminal_safe(lesson.title) + "\n";
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& step = lesson.steps[i];
        text += "\nstep " + std::to_string(i + 1) +
                (step.title.empty() ? "" : ": " + terminal_safe(step.title)) + "\n";
        if (step.question) {
            const ComputedAnswer computed = compute_answer(*simulate_step(step), *step.question);
            text += "  question: " + step.question->prompt +
                    "\n  answer: " + format_answer(computed.answer) +
                    "\n  why: " + computed.explanation + "\n";
        }
        if (step.try_it) {
            text += "  try it: " + terminal_safe(step.try_it->goal) + "\n";
        }
        if (!step.question && !step.try_it) {
            text += "  (narration only)\n";
        }
    }
    return text;
}

int run_lesson(const Arguments& args, CommandIo& io) {
    const std::string& action = args.positionals[0];
    if (action == "validate") {
        int status = kExitOk;
        for (std::size_t i = 1; i < args.positionals.size(); ++i) {
            const std::string& file = args.positionals[i];
            if (auto lesson = load(file, io)) {
                io.out << io::terminal_safe(file) << ": ok: \"" << io::terminal_safe(lesson->title)
                       << "\", " << lesson->steps.size() << " steps, " << question_count(*lesson)
                       << " questions\n";
            } else {
                status = kExitBadInput;
            }
        }
        return status;
    }
    if (action == "answers") {
        if (args.positionals.size() != 2) {
            throw UsageError("lesson answers takes one lesson file");
        }
        const auto lesson = load(args.positionals[1], io);
        if (!lesson) {
            return kExitBadInput;
        }
        write_output(args, answers_text(*lesson), io);
        return kExitOk;
    }
    throw UsageError("lesson takes validate or answers, not \"" + io::terminal_safe(action) + "\"");
}

}  // namespace

Command make_lesson_command() {
    return {"lesson",
            "check lesson files, or show the answers the engine computes for them",
            "lesson validate LESSON.json [LESSON.json ...] | lesson answers LESSON.json",
            "validate prints one line per valid lesson, and for an invalid one a line per\n"
            "problem: the file, the place (a JSON path or line:column) and the rule broken;\n"
            "exit status 2 if any is invalid. answers prints each step's question with the\n"
            "answer and the why, computed by running the step. The format is documented in\n"
            "docs/lessons.md; the bundled lessons are in resources/lessons/.",
            {output_option("the answers")},
            2,
            static_cast<std::size_t>(-1),
            false,
            run_lesson};
}

}  // namespace ratelab::cli
