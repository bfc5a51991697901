// Fuzzes the lesson reader with arbitrary bytes, seeded with the bundled lessons. Any input is
// either refused with located problems, each one clean line, or read as a lesson whose every
// question the engine can answer and whose try-it goals are not already met, as the reader
// promises (docs/lessons.md). Reading twice gives the same problems.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "ratelab/io/lesson_file.h"
#include "ratelab/lesson.h"

namespace {

using Json = nlohmann::ordered_json;

/// `trace_file` paths start here: the bundled traces, so that a seed can name one.
const std::filesystem::path kTraces = RATELAB_FUZZ_TRACES_DIR;

/// True if `text` is valid UTF-8 (nlohmann refuses to write anything else).
bool is_utf8(const std::string& text) {
    try {
        (void)Json(text).dump();
        return true;
    } catch (const Json::type_error&) {
        return false;
    }
}

/// A trace_file the fuzzer may follow: a plain file name in the traces folder. Anything else
/// (an absolute path, "..", a device) could read the machine's files or block on a pipe.
bool plain_name(const std::string& name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of(std::string_view("/\\\0", 3)) == std::string::npos;
}

/// False when some object anywhere names a trace_file that is not a plain name.
bool hermetic(const Json& node) {
    if (node.is_object()) {
        for (const auto& [key, value] : node.items()) {
            if (key == "trace_file" && value.is_string() && !plain_name(value.get<std::string>()))
                return false;
            if (!hermetic(value))
                return false;
        }
    } else if (node.is_array()) {
        for (const Json& value : node) {
            if (!hermetic(value))
                return false;
        }
    }
    return true;
}

bool safe_to_read(std::string_view text) {
    struct TooDeep {};
    try {
        // As deep as the reader allows and a little more; deeper is refused before any step.
        const Json root = Json::parse(text, [](int depth, Json::parse_event_t, Json&) {
            if (depth > 80)
                throw TooDeep{};
            return true;
        });
        return hermetic(root);
    } catch (const TooDeep&) {
        return true;
    } catch (const Json::exception&) {
        return true;  // not JSON: the reader refuses it before it looks for files
    }
}

void check_problems(const ratelab::io::LessonLoad& load) {
    FUZZ_CHECK(!load.problems.empty(), "a refused lesson with no problem");
    for (const ratelab::io::LessonProblem& problem : load.problems) {
        const std::string message = problem.message();
        FUZZ_CHECK(problem.file == "fuzz.json", message);
        FUZZ_CHECK(!problem.rule.empty() && !problem.detail.empty(), message);
        FUZZ_CHECK(message.find('\n') == std::string::npos, message);
        FUZZ_CHECK(is_utf8(message), "a message is not printable UTF-8");
        // Only problems with the file as a whole have no location.
        FUZZ_CHECK(
            !problem.location.empty() || problem.rule == "file-empty" || problem.rule == "too-deep",
            message);
    }
}

void check_lesson(const ratelab::Lesson& lesson) {
    FUZZ_CHECK(!lesson.id.empty() && !lesson.title.empty(), "a lesson without id or title");
    FUZZ_CHECK(!lesson.steps.empty(), "a lesson without steps");
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const ratelab::LessonStep& step = lesson.steps[i];
        FUZZ_CHECK(step.trace != nullptr, "step " << i << " has no trace");
        FUZZ_CHECK(!step.params.lanes.empty(), "step " << i << " has no lanes");
        // Large traces are valid but slow to run; the reader's checks ran on them already.
        if (step.trace->requests.size() > 256 || (!step.question && !step.try_it))
            continue;
        try {
            const auto result = ratelab::simulate_step(step);
            if (step.question)
                (void)ratelab::compute_answer(*result, *step.question);
        } catch (const std::exception& e) {
            FUZZ_CHECK(false, "step " << i << " was read but its question cannot be answered: "
                                      << e.what());
        }
        if (step.try_it) {
            FUZZ_CHECK(!ratelab::try_it_met(step, *step.trace),
                       "step " << i << "'s try-it goal is met before the learner does anything");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(bytes), size);
    if (!safe_to_read(text))
        return 0;
    const ratelab::io::LessonLoad load = ratelab::io::read_lesson(text, "fuzz.json", kTraces);
    if (!load.ok()) {
        check_problems(load);
        const ratelab::io::LessonLoad again = ratelab::io::read_lesson(text, "fuzz.json", kTraces);
        FUZZ_CHECK(again.problems == load.problems, "reading twice gives other problems");
        return 0;
    }
    FUZZ_CHECK(load.problems.empty(),
               "a lesson read with problems: " << load.problems[0].message());
    check_lesson(*load.lesson);
    return 0;
}
