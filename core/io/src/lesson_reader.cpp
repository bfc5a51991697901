// Lesson files: the top level and the steps' traces and lanes. Every problem is collected with
// its JSON path and rule, so `ratelab-cli lesson validate` can list them all at once.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "lesson_reader.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "trace_problem.h"

namespace ratelab::io {

using detail::index_path;
using detail::LessonReader;
using detail::member_path;
using detail::StepProblem;
using Json = nlohmann::ordered_json;

std::string LessonProblem::message() const {
    std::string text = file;
    if (!location.empty()) {
        text += ": " + location;
    }
    return text + ": " + detail + " [" + rule + "]";
}

namespace detail {

void LessonReader::report(std::string location, std::string rule, std::string detail) {
    problems.push_back(
        LessonProblem{source, std::move(location), std::move(rule), std::move(detail)});
}

void LessonReader::check_fields(const Json& node, const std::string& path,
                                std::initializer_list<std::string_view> known) {
    for (const auto& [name, value] : node.items()) {
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (std::string_view k : known) {
                list += (list.empty() ? "" : ", ") + std::string(k);
            }
            report(member_path(path, name), "unknown-field",
                   "unknown field " + quote_text(name) + " (known here: " + list + ")");
        }
    }
}

const Json* LessonReader::field(const Json& node, const std::string& path, std::string_view name,
                                Json::value_t type, bool required) {
    const auto it = node.find(name);
    if (it == node.end()) {
        if (required) {
            throw StepProblem{path, "missing-field",
                              "needs " + quote_text(name) + ", " + type_name(type)};
        }
        return nullptr;
    }
    const bool unsigned_ok = type == Json::value_t::number_integer && it->is_number_unsigned();
    if (it->type() != type && !unsigned_ok) {
        throw StepProblem{
            member_path(path, name), "wrong-type",
            quote_text(name) + " must be " + type_name(type) + ", not " + type_name(it->type())};
    }
    return &*it;
}

std::string LessonReader::text(const Json& node, const std::string& path, std::string_view name,
                               bool required) {
    const Json* value = field(node, path, name, Json::value_t::string, required);
    if (value == nullptr) {
        return {};
    }
    std::string result = value->get<std::string>();
    if (required && result.empty()) {
        throw StepProblem{member_path(path, name), "empty-text", quote_text(name) + " is empty"};
    }
    return result;
}

std::optional<std::int64_t> LessonReader::integer(const Json& node, const std::string& path,
                                                  std::string_view name, std::int64_t min,
                                                  std::int64_t max, bool required,
                                                  std::string_view rule) {
    const Json* value = field(node, path, name, Json::value_t::number_integer, required);
    if (value == nullptr) {
        return std::nullopt;
    }
    if (max < min) {  // an index into an empty list: nothing to point at
        throw StepProblem{member_path(path, name), std::string(rule),
                          quote_text(name) + " points into an empty list"};
    }
    // A large unsigned value would wrap as int64: compare it as unsigned first.
    const bool too_big = value->is_number_unsigned() &&
                         value->get<std::uint64_t>() > static_cast<std::uint64_t>(max);
    if (too_big || value->get<std::int64_t>() < min || value->get<std::int64_t>() > max) {
        throw StepProblem{member_path(path, name), std::string(rule),
                          quote_text(name) + " must be between " + std::to_string(min) + " and " +
                              std::to_string(max)};
    }
    return value->get<std::int64_t>();
}

std::string type_name(Json::value_t type) {
    switch (type) {
        case Json::value_t::string:
            return "a string";
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
            return "a whole number";
        case Json::value_t::number_float:
            return "a fractional number";
        case Json::value_t::object:
            return "an object";
        case Json::value_t::array:
            return "an array";
        case Json::value_t::boolean:
            return "true or false";
        case Json::value_t::null:
            return "null";
        default:
            return "a value";
    }
}

namespace {

/// An inline trace: a trace document without "format" and "version", which are implied, read by
/// the trace reader itself so that its rules and messages are the trace file's.
TraceDocument inline_trace(const Json& node, const std::string& path, const std::string& source) {
    Json document = Json::object();
    if (!node.contains("format")) {
        document["format"] = "ratelab-trace";
    }
    if (!node.contains("version")) {
        document["version"] = node.contains("lanes") ? 2 : 1;
    }
    for (const auto& [name, value] : node.items()) {
        document[name] = value;
    }
    TraceDocument doc;
    try {
        doc = parse_trace(document.dump(), source);
    } catch (const TraceFileError& error) {
        // "$.requests[3].tick" inside the trace is "$.steps[0].trace.requests[3].tick" here.
        const std::string& inner = error.location();
        const std::string location = inner.rfind('$', 0) == 0 ? path + inner.substr(1) : path;
        throw StepProblem{location, error.rule(), error.detail()};
    }
    if (!doc.warnings.empty()) {
        throw StepProblem{path, "unknown-field", doc.warnings.front()};
    }
    return doc;
}

}  // namespace

void LessonReader::read_trace(const Json& step, const std::string& path, StepContext& context) {
    const bool has_inline = step.contains("trace");
    const bool has_file = step.contains("trace_file");
    if (has_inline && has_file) {
        throw StepProblem{member_path(path, "trace_file"), "two-traces",
                          "a step has \"trace\" or \"trace_file\", not both"};
    }
    if (has_inline) {
        const Json* node = field(step, path, "trace", Json::value_t::object, true);
        context.doc = inline_trace(*node, member_path(path, "trace"), source);
    } else if (has_file) {
        const std::string name = text(step, path, "trace_file", true);
        try {
            context.doc = load_trace(base_dir / name);
        } catch (const TraceFileError& error) {
            const std::string where = error.location().empty() ? "" : ": " + error.location();
            throw StepProblem{member_path(path, "trace_file"), error.rule(),
                              "in " + quote_text(name) + where + ": " + error.detail()};
        }
    } else if (!context.doc) {
        throw StepProblem{path, "no-trace",
                          "the first step needs a \"trace\" (or a \"trace_file\"); later steps "
                          "keep the one before theirs"};
    } else {
        return;
    }
    context.trace = std::make_shared<const Trace>(context.doc->trace);
    // A new trace brings its own lanes, or all the algorithms, until the step names its own.
    context.lanes = lanes_of(context.doc->params);
}

void LessonReader::read_lanes(const Json& step, const std::string& path, StepContext& context) {
    const Json* node = field(step, path, "lanes", Json::value_t::array, false);
    if (node == nullptr) {
        return;
    }
    const std::string lanes_path = member_path(path, "lanes");
    if (node->empty()) {
        throw StepProblem{lanes_path, "no-lanes", "\"lanes\" needs at least one lane spec"};
    }
    std::vector<Lane> lanes;
    for (std::size_t k = 0; k < node->size(); ++k) {
        const Json& spec = (*node)[k];
        if (!spec.is_string()) {
            throw StepProblem{index_path(lanes_path, k), "wrong-type",
                              "a lane is a spec string such as \"token_bucket:capacity=8\", not " +
                                  type_name(spec.type())};
        }
        try {
            lanes.push_back(parse_lane_spec(spec.get<std::string>()));
        } catch (const LaneSpecError& error) {
            throw StepProblem{index_path(lanes_path, k), "bad-lane", terminal_safe(error.what())};
        }
    }
    context.lanes = std::move(lanes);
}

LessonLoad LessonReader::read(std::string_view json_text) {
    LessonLoad load;
    Json root;
    try {
        root = parse_json(json_text);
    } catch (const StepProblem& problem) {
        report(problem.location, problem.rule, problem.detail);
        load.problems = problems;
        return load;
    }
    Lesson lesson;
    try {
        if (!root.is_object()) {
            throw StepProblem{"$", "wrong-type",
                              "a lesson file is a JSON object, not " + type_name(root.type())};
        }
        check_fields(root, "$", {"format", "version", "id", "title", "summary", "steps"});
        if (text(root, "$", "format", true) != "ratelab-lesson") {
            throw StepProblem{"$.format", "wrong-format",
                              "a lesson file starts with \"format\": \"ratelab-lesson\""};
        }
        const auto version = integer(root, "$", "version", 1, 1'000'000, true);
        if (*version > kLessonFormatVersion) {
            throw StepProblem{"$.version", "newer-version",
                              "version " + std::to_string(*version) +
                                  " is newer than this RateLab reads (" +
                                  std::to_string(kLessonFormatVersion) + "): update RateLab"};
        }
        lesson.id = text(root, "$", "id", true);
        for (char c : lesson.id) {
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                throw StepProblem{"$.id", "bad-id",
                                  "an id is lower-case letters, digits and '-', as "
                                  "\"boundary-burst\""};
            }
        }
        lesson.title = text(root, "$", "title", true);
        lesson.summary = text(root, "$", "summary", false);
        const Json* steps = field(root, "$", "steps", Json::value_t::array, true);
        if (steps->empty()) {
            throw StepProblem{"$.steps", "no-steps", "a lesson needs at least one step"};
        }
        StepContext context;
        for (std::size_t i = 0; i < steps->size(); ++i) {
            const std::string path = index_path("$.steps", i);
            try {
                if (auto step = read_step((*steps)[i], path, context)) {
                    lesson.steps.push_back(std::move(*step));
                }
            } catch (const StepProblem& problem) {
                report(problem.location, problem.rule, problem.detail);
            }
        }
    } catch (const StepProblem& problem) {
        report(problem.location, problem.rule, problem.detail);
    }
    load.problems = problems;
    if (problems.empty()) {
        load.lesson = std::move(lesson);
    }
    return load;
}

}  // namespace detail

LessonLoad read_lesson(std::string_view json_text, const std::string& source_name,
                       const std::filesystem::path& base_dir) {
    detail::LessonReader reader{source_name, base_dir, {}};
    return reader.read(json_text);
}

LessonLoad load_lesson(const std::filesystem::path& file) {
    const std::string name = file.string();
    LessonLoad load;
    std::error_code error;
    const auto status = std::filesystem::status(file, error);
    std::string rule;
    std::string detail;
    if (error || !std::filesystem::is_regular_file(status)) {
        rule = "file-unreadable";
        detail = error ? error.message() : "not a regular file";
    } else if (std::filesystem::file_size(file, error) > kMaxLessonFileBytes) {
        rule = "file-too-large";
        detail = "a lesson file may hold at most " + std::to_string(kMaxLessonFileBytes) + " bytes";
    }
    std::ostringstream text;
    if (rule.empty()) {
        std::ifstream in(file, std::ios::binary);
        text << in.rdbuf();
        if (!in && !in.eof()) {
            rule = "file-unreadable";
            detail = "it could not be read";
        }
    }
    if (!rule.empty()) {
        load.problems.push_back(LessonProblem{name, "", rule, detail});
        return load;
    }
    return read_lesson(text.str(), name, file.parent_path());
}

}  // namespace ratelab::io
