// The HTTP responses of a lane. R and T are found by probing copies of the limiter, not by a
// formula per algorithm: the copies decide exactly as the lane would, so the headers hold for
// every algorithm and library preset alike, quirks included.
#include "ratelab/responses.h"

#include <array>
#include <memory>
#include <string_view>

#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab {
namespace {

bool accepts(const Limiter& limiter, KeyId key, Tick at, std::int64_t cost) {
    const std::unique_ptr<Limiter> probe = limiter.clone();
    return probe->decide(key, at, cost).accepted;
}

std::string reason_phrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 429:
            return "Too Many Requests";
        case 503:
            return "Service Unavailable";
        default:
            return "";
    }
}

}  // namespace

std::optional<std::string> quota_parameter(const AlgorithmInfo& algorithm) {
    // In order of preference: x_time_rate declares both "limit" (a rate) and "burst".
    static constexpr std::array<std::string_view, 8> kQuotaNames = {
        "capacity",    "queue_size", "burst",  "max_tokens",
        "bucket_size", "points",     "amount", "limit"};
    for (const std::string_view name : kQuotaNames) {
        for (const ParameterInfo& parameter : algorithm.parameters) {
            if (parameter.id == name && parameter.kind == ParamKind::whole)
                return parameter.id;
        }
    }
    return std::nullopt;
}

Quota quota_of(const AlgorithmInfo& algorithm, const Limits& limits) {
    Quota quota{limits.limit, limits.window};
    if (const auto name = quota_parameter(algorithm)) {
        const ParamValues values = resolved_params(algorithm, limits);
        if (const auto it = values.find(*name); it != values.end()) {
            if (const auto* units = std::get_if<Rational>(&it->second))
                quota.units = units->floor();
        }
    }
    return quota;
}

int rejection_status(const AlgorithmInfo& algorithm, const Limits& limits) {
    const ParameterInfo* declared = find_parameter(algorithm.parameters, "status");
    if (declared == nullptr || declared->kind != ParamKind::whole)
        return 429;
    const ParamValues values = resolved_params(algorithm, limits);
    if (const auto it = values.find("status"); it != values.end()) {
        if (const auto* status = std::get_if<Rational>(&it->second))
            return static_cast<int>(status->floor());
    }
    return 429;
}

bool bounds_cost(const Limiter& limiter, KeyId key, Tick now) {
    return !accepts(limiter, key, now, bounds::kMaxCost);
}

std::int64_t remaining_cost(const Limiter& limiter, KeyId key, Tick now) {
    if (!bounds_cost(limiter, key, now)) {
        // The lane lets a request of any cost through (a preset that counts requests, not
        // cost): what remains is how many requests would pass, one after another.
        const std::unique_ptr<Limiter> probe = limiter.clone();
        std::int64_t passed = 0;
        while (passed < bounds::kMaxLimit && probe->decide(key, now, 1).accepted)
            ++passed;
        return passed;
    }
    // Doubling finds a refused cost, halving then closes in: `low` is accepted (or 0), `high`
    // refused (or one past the largest cost a request may have).
    std::int64_t low = 0;
    std::int64_t high = 1;
    while (high <= bounds::kMaxCost && accepts(limiter, key, now, high)) {
        low = high;
        high *= 2;
    }
    if (high > bounds::kMaxCost)
        high = bounds::kMaxCost + 1;
    while (high - low > 1) {
        const std::int64_t middle = low + (high - low) / 2;
        (accepts(limiter, key, now, middle) ? low : high) = middle;
    }
    return low;
}

std::optional<Tick> ticks_until_accepted(const Limiter& limiter, KeyId key, Tick now,
                                         std::int64_t cost) {
    const std::unique_ptr<Limiter> probe = limiter.clone();
    const Decision first = probe->decide(key, now, cost);
    if (first.accepted)
        return Tick{0};
    if (first.retry_never)
        return std::nullopt;
    // The limiter's own retry-after is the first guess; probing then makes it exact in whole
    // ticks, also for presets whose retry-after is a library's rounded reply.
    Tick low = 0;  // refused
    Tick high = first.retry_after ? std::max<Tick>(1, first.retry_after->ceil()) : 1;
    while (!accepts(limiter, key, now + high, cost)) {
        low = high;
        if (high >= bounds::kMaxTick - now)
            return std::nullopt;
        high = std::min(high * 2, bounds::kMaxTick - now);
    }
    while (high - low > 1) {
        const Tick middle = low + (high - low) / 2;
        (accepts(limiter, key, now + middle, cost) ? high : low) = middle;
    }
    return high;
}

std::int64_t ticks_to_seconds(const Rational& ticks, std::int64_t tick_ms) {
    const Int128 num = static_cast<Int128>(ticks.num()) * tick_ms;
    const Int128 den = static_cast<Int128>(ticks.den()) * 1000;
    const Int128 whole = num / den;
    return static_cast<std::int64_t>(num % den > 0 ? whole + 1 : whole);
}

Response respond(const Limiter& limiter, KeyId key, Tick now, const Decision& decision,
                 const Quota& quota, std::int64_t tick_ms, int rejected_status) {
    Response response;
    response.status = decision.accepted ? 200 : rejected_status;
    if (!decision.accepted && decision.retry_after)
        response.retry_after_seconds = ticks_to_seconds(*decision.retry_after, tick_ms);
    response.quota = quota;
    response.window_seconds = ticks_to_seconds(Rational(quota.window), tick_ms);
    response.remaining = remaining_cost(limiter, key, now);
    response.reset_ticks = ticks_until_accepted(limiter, key, now, quota.units);
    if (response.reset_ticks)
        response.reset_seconds = ticks_to_seconds(Rational(*response.reset_ticks), tick_ms);
    return response;
}

std::vector<HeaderField> header_fields(const Response& response, HeaderStyle style) {
    std::vector<HeaderField> fields;
    if (response.retry_after_seconds)
        fields.emplace_back("Retry-After", std::to_string(*response.retry_after_seconds));
    const std::string quota = std::to_string(response.quota.units);
    const std::string remaining = std::to_string(response.remaining);
    if (style != HeaderStyle::x_ratelimit) {
        fields.emplace_back("RateLimit-Policy", "\"default\";q=" + quota + ";w=" +
                                                    std::to_string(response.window_seconds));
        std::string fields_text = "\"default\";r=" + remaining;
        if (response.reset_seconds)
            fields_text += ";t=" + std::to_string(*response.reset_seconds);
        fields.emplace_back("RateLimit", fields_text);
    }
    if (style != HeaderStyle::ietf) {
        fields.emplace_back("X-RateLimit-Limit", quota);
        fields.emplace_back("X-RateLimit-Remaining", remaining);
        if (response.reset_seconds)
            fields.emplace_back("X-RateLimit-Reset", std::to_string(*response.reset_seconds));
    }
    return fields;
}

std::string http_text(const Response& response, HeaderStyle style) {
    std::string text = "HTTP/1.1 " + std::to_string(response.status) + ' ' +
                       reason_phrase(response.status) + "\r\n";
    for (const auto& [name, value] : header_fields(response, style))
        text += name + ": " + value + "\r\n";
    return text + "\r\n";
}

namespace {

/// One key of a lane, replayed alone: a trace holding only that key, so that each probe copies
/// one key's state, not all; its limiter, quota and rejection status.
struct KeyReplay {
    Trace alone;
    KeyId local = 0;
    std::unique_ptr<Limiter> limiter;
    const Limits* limits = nullptr;
    Quota quota;
    int rejected = 429;

    KeyReplay(const SimulationResult& result, std::size_t lane, const Algorithm& algorithm,
              const AlgorithmInfo& info, KeyId key) {
        const Trace& trace = *result.trace;
        const Params& params = result.lane_params.at(lane);
        local = key == 0 ? 0 : 1;
        if (key != 0)
            alone.keys.push_back(trace.keys[key]);
        limiter = algorithm.limiter(alone, params);
        limits = &params.for_key(trace.keys[key]);
        quota = quota_of(info, *limits);
        rejected = rejection_status(info, *limits);
    }

    /// Decides request `index` of `trace` without answering it.
    void pass(const Trace& trace, std::size_t index) {
        const Request& request = trace.requests[index];
        limiter->decide(local, request.tick, request.cost, trace.duration(index));
    }

    Response next(const Trace& trace, std::size_t index) {
        const Request& request = trace.requests[index];
        const Decision decision =
            limiter->decide(local, request.tick, request.cost, trace.duration(index));
        return respond(*limiter, local, request.tick, decision, quota, limits->tick_ms, rejected);
    }
};

const AlgorithmInfo& info_of(const SimulationResult& result, std::size_t lane) {
    return *Registry::instance().find(result.lanes.at(lane).algorithm);
}

}  // namespace

std::vector<Response> lane_responses(const SimulationResult& result, std::size_t lane) {
    const Trace& trace = *result.trace;
    const AlgorithmInfo& info = info_of(result, lane);
    const auto algorithm = info.make();
    std::vector<std::vector<std::size_t>> by_key(trace.keys.size());
    for (std::size_t i = 0; i < trace.requests.size(); ++i)
        by_key[trace.requests[i].key].push_back(i);
    std::vector<Response> responses(trace.requests.size());
    for (std::size_t key = 0; key < by_key.size(); ++key) {
        if (by_key[key].empty())
            continue;
        KeyReplay replay(result, lane, *algorithm, info, static_cast<KeyId>(key));
        for (const std::size_t i : by_key[key])
            responses[i] = replay.next(trace, i);
    }
    return responses;
}

Response response_to(const SimulationResult& result, std::size_t lane, std::size_t index) {
    const Trace& trace = *result.trace;
    const AlgorithmInfo& info = info_of(result, lane);
    const auto algorithm = info.make();
    const KeyId key = trace.requests.at(index).key;
    KeyReplay replay(result, lane, *algorithm, info, key);
    for (std::size_t i = 0; i < index; ++i) {
        if (trace.requests[i].key == key)
            replay.pass(trace, i);
    }
    return replay.next(trace, index);
}

}  // namespace ratelab
