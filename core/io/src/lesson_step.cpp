// One step of a lesson file: its clock, highlights, question and try-it, each checked against the
// step's trace and lanes, and its question answered by the engine once to prove it can be.
#include <algorithm>

#include "lesson_reader.h"
#include "ratelab/io/fleet_file.h"
#include "ratelab/limits.h"
#include "trace_problem.h"

namespace ratelab::io::detail {

using Json = nlohmann::ordered_json;

namespace {

struct KindName {
    LessonQuestion::Kind kind;
    std::string_view name;
};
constexpr KindName kKinds[] = {{LessonQuestion::Kind::predict, "predict"},
                               {LessonQuestion::Kind::choice, "choice"},
                               {LessonQuestion::Kind::requests, "requests"},
                               {LessonQuestion::Kind::number, "number"}};

/// Which asks a kind of question can carry: a choice picks lanes, a number is a number.
bool fits(LessonQuestion::Kind kind, LessonAsk ask) {
    switch (kind) {
        case LessonQuestion::Kind::predict:
            return ask == LessonAsk::accepts;
        case LessonQuestion::Kind::choice:
            return ask == LessonAsk::accepts || ask == LessonAsk::most_accepted;
        case LessonQuestion::Kind::requests:
            return ask == LessonAsk::rejected;
        case LessonQuestion::Kind::number:
            return !asks_for_indices(ask);
    }
    return false;
}

bool needs_request(LessonAsk ask) {
    return ask == LessonAsk::accepts || ask == LessonAsk::retry_after || ask == LessonAsk::delay ||
           ask == LessonAsk::release;
}

std::string line_column(std::string_view text, std::size_t offset) {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

std::size_t checked_index(const std::optional<std::int64_t>& value) {
    return static_cast<std::size_t>(value.value_or(0));
}

}  // namespace

Json parse_json(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        throw StepProblem{"", "file-empty", "the file is empty"};
    }
    struct TooDeep {
        std::size_t depth;
    };
    try {
        // The parser recurses: refuse deep nesting before it can exhaust the stack.
        return Json::parse(text, [](int depth, Json::parse_event_t, Json&) {
            if (depth > static_cast<int>(kMaxNesting)) {
                throw TooDeep{static_cast<std::size_t>(depth)};
            }
            return true;
        });
    } catch (const TooDeep&) {
        throw StepProblem{"", "too-deep",
                          "values nest more than " + std::to_string(kMaxNesting) + " deep"};
    } catch (const Json::parse_error& error) {
        const std::size_t at = error.byte == 0 ? 0 : error.byte - 1;
        throw StepProblem{line_column(text, at), "not-json",
                          "this is not valid JSON here (check commas, quotes and brackets)"};
    } catch (const Json::out_of_range& error) {
        // A number past what a double holds (1e999): the parser quotes it but does not say
        // where it is, so it is found in the text.
        const std::string_view what = error.what();
        const std::size_t open = what.find('\'');
        const std::size_t close = what.rfind('\'');
        std::size_t at = 0;
        if (open != std::string_view::npos && close > open + 1)
            at = text.find(what.substr(open + 1, close - open - 1));
        throw StepProblem{line_column(text, at == std::string_view::npos ? 0 : at), "out-of-range",
                          "this number is too large to read"};
    }
}

std::optional<LessonStep> LessonReader::read_step(const Json& node, const std::string& path,
                                                  StepContext& context) {
    if (!node.is_object()) {
        throw StepProblem{path, "wrong-type", "a step is an object, not " + type_name(node.type())};
    }
    check_fields(node, path,
                 {"title", "narration", "trace", "trace_file", "lanes", "limit", "window",
                  "rejections_count", "clock", "highlights", "question", "try"});
    LessonStep step;
    step.title = text(node, path, "title", false);
    step.narration = text(node, path, "narration", true);
    StepContext next = context;
    read_trace(node, path, next);
    read_lanes(node, path, next);
    context = next;  // only a step that reads well passes its trace and lanes on
    const TraceDocument& doc = *context.doc;
    step.trace = context.trace;
    step.tick_ms = doc.tick_ms;
    step.params = doc.params;
    step.params.lanes = context.lanes;
    try {
        if (auto fleet = fleet_settings(doc, source)) {
            step.fleet = std::move(fleet->settings);
        }
    } catch (const TraceFileError& error) {
        throw StepProblem{path, error.rule(), error.detail()};
    }
    if (auto limit = integer(node, path, "limit", 1, bounds::kMaxLimit, false)) {
        step.params.base.limit = *limit;
    }
    if (auto window = integer(node, path, "window", 1, bounds::kMaxWindow, false)) {
        step.params.base.window = *window;
    }
    if (const Json* counted =
            field(node, path, "rejections_count", Json::value_t::boolean, false)) {
        step.params.rejections_count = counted->get<bool>();
    }
    if (const auto refused = validate(step.params); !refused.empty()) {
        throw StepProblem{path, "bad-params", refused.front()};
    }
    if (auto clock = integer(node, path, "clock", 0, bounds::kMaxTick, false)) {
        step.clock = *clock;
    }
    const std::size_t before = problems.size();
    // Each part reports its own problem, so one bad highlight does not hide a bad question.
    auto part = [&](auto&& read) {
        try {
            read();
        } catch (const StepProblem& problem) {
            report(problem.location, problem.rule, problem.detail);
        }
    };
    part([&] { step.highlights = read_highlights(node, path, step); });
    part([&] { step.question = read_question(node, path, step); });
    part([&] { step.try_it = read_try(node, path, step); });
    if (step.question && step.question->kind == LessonQuestion::Kind::predict) {
        const Tick tick = step.trace->requests[step.question->request].tick;
        if (!step.clock) {
            step.clock = tick;  // the clock stops just before the request to predict
        } else if (*step.clock > tick) {
            report(member_path(path, "clock"), "clock-after-request",
                   "the clock stops at " + std::to_string(*step.clock) +
                       ", after the request to predict (tick " + std::to_string(tick) +
                       "), whose decision would already show");
        }
    }
    if (problems.size() != before) {
        return std::nullopt;
    }
    return step;
}

std::vector<Highlight> LessonReader::read_highlights(const Json& step, const std::string& path,
                                                     const LessonStep& built) {
    std::vector<Highlight> highlights;
    const Json* node = field(step, path, "highlights", Json::value_t::array, false);
    if (node == nullptr) {
        return highlights;
    }
    const std::string base = member_path(path, "highlights");
    const auto lanes = static_cast<std::int64_t>(built.params.lanes.size());
    const auto requests = static_cast<std::int64_t>(built.trace->requests.size());
    for (std::size_t i = 0; i < node->size(); ++i) {
        const std::string at = index_path(base, i);
        const Json& item = (*node)[i];
        if (!item.is_object()) {
            throw StepProblem{at, "wrong-type",
                              "a highlight is an object, not " + type_name(item.type())};
        }
        check_fields(item, at, {"lane", "span", "request", "note"});
        Highlight h;
        h.note = text(item, at, "note", false);
        const int given = static_cast<int>(item.contains("lane")) +
                          static_cast<int>(item.contains("span")) +
                          static_cast<int>(item.contains("request"));
        if (given != 1) {
            throw StepProblem{at, "highlight-target",
                              "a highlight names exactly one of \"lane\", \"span\" or \"request\""};
        }
        if (item.contains("lane")) {
            h.kind = Highlight::Kind::lane;
            h.lane = checked_index(integer(item, at, "lane", 0, lanes - 1, true, "lane-index"));
        } else if (item.contains("request")) {
            h.kind = Highlight::Kind::request;
            h.request =
                checked_index(integer(item, at, "request", 0, requests - 1, true, "request-index"));
        } else {
            h.kind = Highlight::Kind::span;
            const Json* span = field(item, at, "span", Json::value_t::array, true);
            if (span->size() != 2 || !(*span)[0].is_number_integer() ||
                !(*span)[1].is_number_integer()) {
                throw StepProblem{member_path(at, "span"), "bad-span",
                                  "a span is [FROM, TO], two whole ticks"};
            }
            h.from = (*span)[0].get<Tick>();
            h.to = (*span)[1].get<Tick>();
            if (h.from < 0 || h.to <= h.from) {
                throw StepProblem{member_path(at, "span"), "bad-span",
                                  "a span [FROM, TO) needs 0 <= FROM < TO"};
            }
        }
        highlights.push_back(std::move(h));
    }
    return highlights;
}

std::optional<LessonQuestion> LessonReader::read_question(const Json& step, const std::string& path,
                                                          const LessonStep& built) {
    const Json* node = field(step, path, "question", Json::value_t::object, false);
    if (node == nullptr) {
        return std::nullopt;
    }
    const std::string at = member_path(path, "question");
    check_fields(*node, at,
                 {"kind", "ask", "prompt", "lane", "request", "hints", "reveal", "mode", "client"});
    LessonQuestion q;
    const std::string kind = text(*node, at, "kind", true);
    const auto found = std::find_if(std::begin(kKinds), std::end(kKinds),
                                    [&](const KindName& k) { return k.name == kind; });
    if (found == std::end(kKinds)) {
        throw StepProblem{
            member_path(at, "kind"), "unknown-kind",
            "a question's kind is predict, choice, requests or number, not " + quote_text(kind)};
    }
    q.kind = found->kind;
    const bool predict = q.kind == LessonQuestion::Kind::predict;
    const std::string ask =
        predict && !node->contains("ask") ? "accepts" : text(*node, at, "ask", true);
    const auto parsed = ask_from_id(ask);
    if (!parsed) {
        throw StepProblem{member_path(at, "ask"), "unknown-ask",
                          "unknown ask " + quote_text(ask) +
                              " (known: accepts, rejected, retry_after, worst_burst, "
                              "accepted_count, rejected_count, delay, release, most_accepted, "
                              "fleet_accepted, fleet_worst_burst, client_served, "
                              "client_abandoned, client_attempts)"};
    }
    q.ask = *parsed;
    if (!fits(q.kind, q.ask)) {
        throw StepProblem{member_path(at, "ask"), "ask-kind",
                          "a " + kind + " question cannot ask " + quote_text(ask)};
    }
    q.prompt = predict ? text(*node, at, "prompt", false) : text(*node, at, "prompt", true);
    const auto lanes = static_cast<std::int64_t>(built.params.lanes.size());
    const auto requests = static_cast<std::int64_t>(built.trace->requests.size());
    q.lane = checked_index(integer(*node, at, "lane", 0, lanes - 1, false, "lane-index"));
    q.request = checked_index(
        integer(*node, at, "request", 0, requests - 1, needs_request(q.ask), "request-index"));
    if (const Json* hints = field(*node, at, "hints", Json::value_t::array, false)) {
        for (std::size_t i = 0; i < hints->size(); ++i) {
            if (!(*hints)[i].is_string()) {
                throw StepProblem{index_path(member_path(at, "hints"), i), "wrong-type",
                                  "a hint is a string"};
            }
            q.hints.push_back((*hints)[i].get<std::string>());
        }
    }
    q.reveal = text(*node, at, "reveal", false);
    read_runs(*node, at, built, q);
    if (predict && q.prompt.empty()) {
        q.prompt = "Which lanes accept request " + std::to_string(q.request) + "?";
    }
    try {
        (void)compute_answer(*simulate_step(built), q);
    } catch (const SimulationError& error) {
        throw StepProblem{at, "unanswerable", error.what()};
    }
    return q;
}

void LessonReader::read_runs(const Json& node, const std::string& at, const LessonStep& built,
                             LessonQuestion& q) {
    const std::string mode = text(node, at, "mode", asks_fleet(q.ask));
    if (node.contains("mode") && !asks_fleet(q.ask)) {
        throw StepProblem{member_path(at, "mode"), "unknown-field",
                          "\"mode\" goes with fleet_accepted or fleet_worst_burst only"};
    }
    if (asks_fleet(q.ask)) {
        if (!built.fleet) {
            throw StepProblem{at, "no-fleet",
                              "a fleet question needs a trace with a \"fleet\" object (as "
                              "traces/fleet-*.json have)"};
        }
        const auto parsed = parse_fleet_mode(mode);
        if (!parsed) {
            throw StepProblem{member_path(at, "mode"), "unknown-mode",
                              "unknown fleet mode " + quote_text(mode) +
                                  " (known: central, central_racy, local_share, periodic_sync, "
                                  "key_routed)"};
        }
        q.fleet = built.fleet;
        q.fleet->modes = {*parsed};
    }
    const std::string client = text(node, at, "client", asks_clients(q.ask));
    if (node.contains("client") && !asks_clients(q.ask)) {
        throw StepProblem{member_path(at, "client"), "unknown-field",
                          "\"client\" goes with client_served, client_abandoned or "
                          "client_attempts only"};
    }
    if (asks_clients(q.ask)) {
        auto policy = parse_client_policy(client);
        if (const auto* refused = std::get_if<std::string>(&policy)) {
            throw StepProblem{member_path(at, "client"), "bad-client", *refused};
        }
        q.client = std::get<ClientPolicy>(policy);
    }
}

std::optional<TryIt> LessonReader::read_try(const Json& step, const std::string& path,
                                            const LessonStep& built) {
    const Json* node = field(step, path, "try", Json::value_t::object, false);
    if (node == nullptr) {
        return std::nullopt;
    }
    const std::string at = member_path(path, "try");
    check_fields(*node, at, {"goal", "rejected_by", "accepted_by", "burst_over"});
    const auto lanes = static_cast<std::int64_t>(built.params.lanes.size());
    TryIt goal;
    goal.goal = text(*node, at, "goal", true);
    if (node->contains("burst_over")) {
        if (node->contains("rejected_by") || node->contains("accepted_by")) {
            throw StepProblem{at, "try-two-goals",
                              "a try-it goal has \"burst_over\", or \"rejected_by\" and "
                              "\"accepted_by\", not both"};
        }
        goal.burst_over =
            checked_index(integer(*node, at, "burst_over", 0, lanes - 1, true, "lane-index"));
    } else {
        read_lane_pair(*node, at, lanes, goal);
    }
    LessonStep check = built;
    check.try_it = goal;
    if (try_it_met(check, *built.trace)) {
        throw StepProblem{at, "try-already-met",
                          "the step's own trace already meets the goal: nothing is left to try"};
    }
    return goal;
}

void LessonReader::read_lane_pair(const Json& node, const std::string& at, std::int64_t lanes,
                                  TryIt& goal) {
    goal.rejected_by =
        checked_index(integer(node, at, "rejected_by", 0, lanes - 1, true, "lane-index"));
    goal.accepted_by =
        checked_index(integer(node, at, "accepted_by", 0, lanes - 1, true, "lane-index"));
    if (goal.rejected_by == goal.accepted_by) {
        throw StepProblem{at, "try-same-lane",
                          "\"rejected_by\" and \"accepted_by\" must be two different lanes"};
    }
}

}  // namespace ratelab::io::detail
