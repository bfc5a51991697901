#pragma once
// The report's parts for clients and responses (--client, --headers): kept apart from
// report.cpp, which splices them into each lane.

#include <string>

#include <nlohmann/json.hpp>

#include "ratelab/clients.h"
#include "ratelab/responses.h"

namespace ratelab::io::detail {

/// {"status": 429, "headers": {"Retry-After": "2", "RateLimit-Policy": ..., "RateLimit": ...}}
nlohmann::ordered_json response_json(const Response& response, HeaderStyle style);
/// {"intent", "attempt", "tick", "accepted", "retry_after" (rejections)}, and "response" when
/// given.
nlohmann::ordered_json attempt_json(const Attempt& attempt, const Response* response,
                                    HeaderStyle style);
/// The members of attempt_json(), from "intent" on, without braces, appended as
/// inline_json() writes them but without building a JSON value (millions of attempts).
void append_attempt_members(std::string& out, const Attempt& attempt, const Response* response,
                            HeaderStyle style);
/// {"served", "abandoned", "attempts" (per served intent), "time_to_success": {"p50", "p95",
/// "max"}, "rejections_per_success"}
nlohmann::ordered_json intents_json(const IntentFigures& figures);

}  // namespace ratelab::io::detail
