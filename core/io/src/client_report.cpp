#include "client_report.h"

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
