// Drills as JSON, each trace written exactly as a trace file would hold it, so that a question can
// be saved and opened in the app or run with `ratelab-cli simulate`.
#include "ratelab/io/quiz_json.h"

#include "params_json.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::io {

using Json = nlohmann::ordered_json;

Json answer_to_json(const Answer& answer) {
    switch (answer.form) {
        case Answer::Form::indices:
            return Json(answer.indices);
        case Answer::Form::number:
            return detail::rational_to_json(answer.number);
        case Answer::Form::never:
            return "never";
    }
    return nullptr;
}

Json quiz_to_json(const std::vector<Question>& questions) {
    Json list = Json::array();
    for (const Question& q : questions) {
        TraceDocument doc;
        doc.params.base = q.limits;
        doc.trace = q.trace;
        Json lane;
        if (q.kind == QuestionKind::which_accepts) {
            lane = Json::array();
            for (const Lane& offered : q.lanes) {
                lane.push_back(lane_spec(offered));
            }
        } else {
            lane = lane_spec(q.lanes.at(0));
        }
        list.push_back(Json{{"kind", std::string(kind_id(q.kind))},
                            {"text", q.text},
                            {"trace", Json::parse(serialize_trace(doc))},
                            {"lane", std::move(lane)},
                            {"answer", answer_to_json(q.answer)},
                            {"explanation", q.explanation}});
    }
    return Json{{"questions", std::move(list)}};
}

}  // namespace ratelab::io
