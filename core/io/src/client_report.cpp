#include "client_report.h"

#include "inline_json.h"
#include "ratelab/io/report.h"

namespace ratelab::io::detail {

using Json = nlohmann::ordered_json;

Json response_json(const Response& response, HeaderStyle style) {
    Json headers = Json::object();
    for (const auto& [name, value] : header_fields(response, style))
        headers[name] = value;
    return {{"status", response.status}, {"headers", std::move(headers)}};
}

Json attempt_json(const Attempt& attempt, const Response* response, HeaderStyle style) {
    Json out;
    out["intent"] = attempt.intent;
    out["attempt"] = attempt.attempt;
    out["tick"] = attempt.tick;
    out["accepted"] = attempt.decision.accepted;
    if (attempt.decision.retry_never) {
        out["retry_after"] = "never";
    } else if (attempt.decision.retry_after) {
        out["retry_after"] = time_to_json(*attempt.decision.retry_after);
    }
    if (response)
        out["response"] = response_json(*response, style);
    return out;
}

void append_attempt_members(std::string& out, const Attempt& attempt, const Response* response,
                            HeaderStyle style) {
    out += "\"intent\": ";
    out += std::to_string(attempt.intent);
    out += ", \"attempt\": ";
    out += std::to_string(attempt.attempt);
    out += ", \"tick\": ";
    out += std::to_string(attempt.tick);
    out += attempt.decision.accepted ? ", \"accepted\": true" : ", \"accepted\": false";
    if (attempt.decision.retry_never) {
        out += ", \"retry_after\": \"never\"";
    } else if (attempt.decision.retry_after) {
        out += ", \"retry_after\": ";
        const Rational& ticks = *attempt.decision.retry_after;
        // The same digits as time_to_json() gives the report's DOM.
        out += ticks.is_integer() ? std::to_string(ticks.num()) : time_to_json(ticks).dump();
    }
    if (response) {
        out += ", \"response\": ";
        out += inline_json(response_json(*response, style));
    }
}

Json intents_json(const IntentFigures& figures) {
    Json out;
    out["served"] = figures.served;
    out["abandoned"] = figures.abandoned;
    out["attempts"] = time_to_json(figures.attempts_per_success);
    out["time_to_success"] = {{"p50", time_to_json(figures.time_to_success.p50)},
                              {"p95", time_to_json(figures.time_to_success.p95)},
                              {"max", time_to_json(figures.time_to_success.max)}};
    out["rejections_per_success"] = time_to_json(figures.rejections_per_success);
    return out;
}

}  // namespace ratelab::io::detail
