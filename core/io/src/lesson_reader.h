#pragma once
// The parts of the lesson reader (lesson_reader.cpp: the top level and traces; lesson_step.cpp:
// a step's clock, highlights, question and try-it).

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ratelab/io/lesson_file.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::io::detail {

/// A problem that ends the reading of one step (or of the file, outside the steps).
struct StepProblem {
    std::string location;
    std::string rule;
    std::string detail;
};

/// What a step takes over from the one before it when it does not say.
struct StepContext {
    std::optional<TraceDocument> doc;
    std::shared_ptr<const Trace> trace;  ///< doc's trace, shared by the steps that keep it
    std::vector<Lane> lanes;
};

/// "a string", "an object"... for messages.
std::string type_name(nlohmann::ordered_json::value_t type);
/// Parses JSON text with a bound on nesting; throws StepProblem (rules `file-empty`,
/// `not-json`, `too-deep`) with a line:column location.
nlohmann::ordered_json parse_json(std::string_view text);

struct LessonReader {
    std::string source;
    std::filesystem::path base_dir;
    std::vector<LessonProblem> problems;

    LessonLoad read(std::string_view json_text);

    void report(std::string location, std::string rule, std::string detail);
    /// Reports every member of `node` not in `known`.
    void check_fields(const nlohmann::ordered_json& node, const std::string& path,
                      std::initializer_list<std::string_view> known);
    /// The member `name` of `node` when it has the type (a whole number may be unsigned),
    /// nothing when absent and not `required`; throws StepProblem otherwise.
    const nlohmann::ordered_json* field(const nlohmann::ordered_json& node, const std::string& path,
                                        std::string_view name, nlohmann::ordered_json::value_t type,
                                        bool required);
    std::string text(const nlohmann::ordered_json& node, const std::string& path,
                     std::string_view name, bool required);
    std::optional<std::int64_t> integer(const nlohmann::ordered_json& node, const std::string& path,
                                        std::string_view name, std::int64_t min, std::int64_t max,
                                        bool required, std::string_view rule = "out-of-range");

    void read_trace(const nlohmann::ordered_json& step, const std::string& path,
                    StepContext& context);
    void read_lanes(const nlohmann::ordered_json& step, const std::string& path,
                    StepContext& context);
    /// The step, or nothing when a problem was reported and the step is skipped.
    std::optional<LessonStep> read_step(const nlohmann::ordered_json& node, const std::string& path,
                                        StepContext& context);
    std::vector<Highlight> read_highlights(const nlohmann::ordered_json& step,
                                           const std::string& path, const LessonStep& built);
    std::optional<LessonQuestion> read_question(const nlohmann::ordered_json& step,
                                                const std::string& path, const LessonStep& built);
    /// The fleet or the client policy a question runs, as its ask needs: "mode" names the
    /// fleet's placement of state (the step's trace carries the fleet), "client" a policy as
    /// --client writes it. Either one where the ask runs no such thing is refused, so that it
    /// never goes unread.
    void read_runs(const nlohmann::ordered_json& node, const std::string& at,
                   const LessonStep& built, LessonQuestion& q);
    std::optional<TryIt> read_try(const nlohmann::ordered_json& step, const std::string& path,
                                  const LessonStep& built);
    /// The goal "a request lane `rejected_by` rejects and lane `accepted_by` accepts".
    void read_lane_pair(const nlohmann::ordered_json& node, const std::string& at,
                        std::int64_t lanes, TryIt& goal);
};

}  // namespace ratelab::io::detail
