#pragma once
// Lesson files (docs/lessons.md): JSON read into the lesson model of ratelab/lesson.h, with every
// problem located by file, JSON path and rule, as trace files are.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/lesson.h"

namespace ratelab::io {

/// The largest lesson file the reader opens, checked before reading.
inline constexpr std::uintmax_t kMaxLessonFileBytes = 4ULL * 1024 * 1024;
/// The format version this build reads.
inline constexpr int kLessonFormatVersion = 1;

/// One broken rule of a lesson file.
struct LessonProblem {
    std::string file;
    /// A JSON path such as `$.steps[2].question.request`, `line:column` for a syntax error, or
    /// empty for the file as a whole.
    std::string location;
    /// A stable identifier of the rule, listed in docs/lessons.md (`request-index`, ...).
    std::string rule;
    std::string detail;  ///< the sentence, without file and location

    /// One line: "FILE: LOCATION: DETAIL [RULE]".
    std::string message() const;
    friend bool operator==(const LessonProblem&, const LessonProblem&) = default;
};

/// What reading a lesson gave: the lesson when the file is valid, else every problem found (a
/// step with a problem is skipped; the steps after it are still checked). Never a partial lesson.
struct LessonLoad {
    std::optional<Lesson> lesson;
    std::vector<LessonProblem> problems;

    bool ok() const { return lesson.has_value(); }
};

/// Reads and checks lesson JSON text: its structure, its traces and lanes, and that the engine
/// can answer every question (a retry-after is asked only of a rejected request, and so on).
/// `source_name` names it in problems; `base_dir` is where `trace_file` paths start.
LessonLoad read_lesson(std::string_view json_text, const std::string& source_name,
                       const std::filesystem::path& base_dir);
/// read_lesson() of a file, its own folder being the base for `trace_file`.
LessonLoad load_lesson(const std::filesystem::path& file);

}  // namespace ratelab::io
