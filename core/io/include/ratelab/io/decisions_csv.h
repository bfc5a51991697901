#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ratelab/responses.h"

namespace ratelab {
struct SimulationResult;
}

namespace ratelab::io {

/// The header of a decisions table.
inline constexpr char kDecisionsCsvHeader[] =
    "request,tick,key,cost,algorithm,lane,accepted,release,delay,retry_after";

/// Writes every decision of `result` as CSV (RFC 4180): the header, then one row per request and
/// lane, request by request; `algorithm` is the lane's algorithm id and `lane` its label (two
/// lanes may run one algorithm). Times are decimals (exact when they terminate, else rounded to
/// six places); retry_after is "never" when no wait helps, and empty for accepted requests.
/// Throws std::invalid_argument when the result kept no decisions. No Qt: usable anywhere.
/// `responses` (`--headers`), when given, holds one response per request for each lane
/// (lane_responses()): each row then ends with its status and one column per header field of
/// `style`, named as the field (Retry-After, RateLimit-Policy, RateLimit, X-RateLimit-*), empty
/// where the response has none.
void write_decisions_csv(std::ostream& out, const SimulationResult& result,
                         const std::vector<std::vector<Response>>* responses = nullptr,
                         HeaderStyle style = HeaderStyle::ietf);

/// `text` quoted for a CSV field when it needs to be.
std::string csv_field(const std::string& text);

}  // namespace ratelab::io
