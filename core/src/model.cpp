#include "ratelab/model.h"

#include <algorithm>
#include <cctype>
#include <span>

#include "ratelab/limits.h"
#include "ratelab/registry.h"
#include "share_out.h"

namespace ratelab {

std::optional<KeyId> Trace::find_key(std::string_view key) const {
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end())
        return std::nullopt;
    return static_cast<KeyId>(it - keys.begin());
}

void Trace::set_duration(std::size_t index, Tick duration) {
    if (durations.empty()) {
        if (duration == 0)
            return;
        durations.assign(requests.size(), 0);
    }
    durations[index] = duration;
}

void Trace::append(const Request& request, Tick duration) {
    requests.push_back(request);
    if (!durations.empty() || duration != 0) {
        durations.resize(requests.size() - 1, 0);
        durations.push_back(duration);
    }
}

void Trace::append_range(const Trace& from, std::size_t begin, std::size_t end) {
    if (end <= begin)
        return;
    if (!from.durations.empty()) {
        durations.resize(requests.size(), 0);
        durations.insert(durations.end(),
                         from.durations.begin() + static_cast<std::ptrdiff_t>(begin),
                         from.durations.begin() + static_cast<std::ptrdiff_t>(end));
    } else if (!durations.empty()) {
        durations.resize(requests.size() + (end - begin), 0);
    }
    requests.append(from.requests, begin, end);
}

void Trace::append_from(const Trace& from, std::size_t index, KeyId key) {
    const Request& r = from.requests[index];
    append(Request{r.tick, r.cost, key}, from.duration(index));
}

bool operator==(const Trace& a, const Trace& b) {
    if (a.keys != b.keys || a.requests != b.requests)
        return false;
    if (a.durations == b.durations)
        return true;
    for (std::size_t i = 0; i < a.requests.size(); ++i) {
        if (a.duration(i) != b.duration(i))
            return false;
    }
    return true;
}

bool Trace::is_well_formed() const {
    return validate(*this).empty();
}

TraceBuilder::TraceBuilder() {
    ids_.emplace(std::string(), 0);
}

KeyId TraceBuilder::intern(std::string_view key) {
    // Heterogeneous lookup needs C++20's transparent unordered_map, which g++ 12 supports
    // only with a custom hash; a short-lived string is cheap next to parsing the request.
    auto [it, inserted] =
        ids_.try_emplace(std::string(key), static_cast<KeyId>(trace_.keys.size()));
    if (inserted)
        trace_.keys.emplace_back(key);
    return it->second;
}

void TraceBuilder::add(Tick tick, std::uint32_t cost, std::string_view key, Tick duration) {
    trace_.append(Request{tick, cost, intern(key)}, duration);
}

Trace TraceBuilder::take() && {
    ids_.clear();
    return std::move(trace_);
}

std::optional<ParamValue> Limits::override_of(std::string_view algorithm,
                                              std::string_view parameter) const {
    const auto values = overrides.find(algorithm);
    if (values == overrides.end())
        return std::nullopt;
    const auto value = values->second.find(parameter);
    return value == values->second.end() ? std::nullopt : std::optional<ParamValue>(value->second);
}

const Limits& Params::for_key(std::string_view key) const {
    if (keys.empty())
        return base;
    const auto it = keys.find(key);
    return it == keys.end() ? base : it->second;
}

namespace {

void check_range(std::vector<std::string>& errors, const std::string& where, const char* what,
                 std::int64_t value, std::int64_t max) {
    if (value < 1 || value > max) {
        errors.push_back(where + std::string(what) + " must be between 1 and " +
                         std::to_string(max) + ", got " + std::to_string(value));
    }
}

/// Every value names a registered algorithm and one of its declared parameters, of the declared
/// kind and within its bounds.
void check_values(std::vector<std::string>& errors, const std::string& where,
                  const std::string& algorithm, const ParamValues& values) {
    const AlgorithmInfo* info = Registry::instance().find(algorithm);
    if (info == nullptr) {
        errors.push_back(where + "unknown algorithm \"" + algorithm + "\"");
        return;
    }
    for (const auto& [id, value] : values) {
        const ParameterInfo* declared = find_parameter(info->parameters, id);
        if (declared == nullptr) {
            errors.push_back(where + algorithm + " has no parameter \"" + id + "\"");
        } else if (auto problem = check_value(*declared, value)) {
            errors.push_back(where + algorithm + "." + *problem);
        }
    }
}

void validate_limits(std::vector<std::string>& errors, const std::string& where,
                     const Limits& limits) {
    check_range(errors, where, "limit", limits.limit, bounds::kMaxLimit);
    check_range(errors, where, "window", limits.window, bounds::kMaxWindow);
    for (const auto& [algorithm, values] : limits.overrides) {
        check_values(errors, where, algorithm, values);
    }
}

}  // namespace

void set_tick_ms(Params& params, std::int64_t tick_ms) {
    params.base.tick_ms = tick_ms;
    for (auto& [key, limits] : params.keys) {
        limits.tick_ms = tick_ms;
    }
}

std::vector<Lane> default_lanes() {
    std::vector<Lane> lanes;
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        lanes.push_back(Lane{info->id, {}, {}, false});
    }
    return lanes;
}

std::vector<Lane> lanes_of(const Params& params) {
    return params.lanes.empty() ? default_lanes() : params.lanes;
}

Params params_for_lane(const Params& params, const Lane& lane) {
    Params out;
    out.base = params.base;
    out.rejections_count = params.rejections_count;
    out.keys = params.keys;
    out.lanes = {lane};
    if (!lane.params.empty()) {
        const auto apply = [&lane](Limits& limits) {
            for (const auto& [id, value] : lane.params) {
                limits.overrides[lane.algorithm][id] = value;
            }
        };
        apply(out.base);
        for (auto& [key, limits] : out.keys) {
            apply(limits);
        }
    }
    return out;
}

Params without_hidden_lanes(const Params& params) {
    const auto hidden = [](const Lane& lane) { return lane.hidden; };
    // With every lane hidden there would be nothing to show: all are shown instead.
    if (std::none_of(params.lanes.begin(), params.lanes.end(), hidden) ||
        std::all_of(params.lanes.begin(), params.lanes.end(), hidden)) {
        return params;
    }
    Params shown = params;
    std::erase_if(shown.lanes, [](const Lane& lane) { return lane.hidden; });
    return shown;
}

std::string lane_label(const Lane& lane) {
    if (!lane.label.empty()) {
        return lane.label;
    }
    const AlgorithmInfo* info = Registry::instance().find(lane.algorithm);
    if (info == nullptr) {
        return lane.algorithm;
    }
    // A lane with values of its own says which, so that two lanes of one algorithm read apart.
    std::string settings;
    for (const ParameterInfo& parameter : info->parameters) {
        if (const auto it = lane.params.find(parameter.id); it != lane.params.end()) {
            std::string name = parameter.name;
            std::transform(name.begin(), name.end(), name.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            settings += (settings.empty() ? "" : ", ") + name + " " + to_text(it->second);
        }
    }
    return settings.empty() ? info->name : info->name + " (" + settings + ")";
}

std::vector<std::string> validate(const Params& params) {
    std::vector<std::string> errors;
    validate_limits(errors, "", params.base);
    for (const auto& [key, limits] : params.keys) {
        validate_limits(errors, "key \"" + key + "\": ", limits);
    }
    for (std::size_t i = 0; i < params.lanes.size(); ++i) {
        check_values(errors, "lane " + std::to_string(i + 1) + ": ", params.lanes[i].algorithm,
                     params.lanes[i].params);
    }
    return errors;
}

namespace {

/// Messages about requests [begin, stop) of a trace: their durations, then their ticks, costs
/// and keys, each list cut at 20 (what validate() reports at most).
struct RequestProblems {
    std::vector<std::string> durations;
    std::vector<std::string> requests;
};

/// Checks requests [begin, stop), the first against the one before it; their durations too when
/// the trace has one per request.
RequestProblems check_requests(const Trace& trace, std::size_t begin, std::size_t stop,
                               bool durations) {
    RequestProblems problems;
    auto fail = [](std::vector<std::string>& errors, std::size_t index,
                   const std::string& message) {
        errors.push_back("request " + std::to_string(index) + ": " + message);
    };
    if (durations) {
        for (std::size_t i = begin; i < stop && problems.durations.size() < 20; ++i) {
            const Tick d = trace.durations[i];
            if (d < 0 || d > bounds::kMaxWindow) {
                fail(problems.durations, i,
                     "duration " + std::to_string(d) + " outside [1, " +
                         std::to_string(bounds::kMaxWindow) + "] (0: none)");
            }
        }
    }
    const Tick before = begin == 0 ? 0 : trace.requests[begin - 1].tick;
    // A branch-free pass, chunk by chunk (each a plain array), finds a good stretch fast, and
    // only a bad one is walked again for its messages.
    bool good = true;
    Tick last = before;
    const std::size_t keys = trace.keys.size();
    for (std::size_t i = begin; i < stop;) {
        const std::span<const Request> piece = trace.requests.contiguous(i, stop);
        for (const Request& r : piece) {
            // In order and starting at 0 or later, every tick is at least 0.
            good &= (r.tick >= last) & (r.tick <= bounds::kMaxTick) & (r.cost >= 1) &
                    (r.cost <= bounds::kMaxCost) & (r.key < keys);
            last = r.tick;
        }
        i += piece.size();
    }
    if (good) {
        return problems;
    }
    std::vector<std::string>& errors = problems.requests;
    Tick previous = before;
    for (std::size_t i = begin; i < stop && errors.size() < 20; ++i) {
        const Request& r = trace.requests[i];
        if (r.tick < 0 || r.tick > bounds::kMaxTick) {
            fail(errors, i,
                 "tick " + std::to_string(r.tick) + " outside [0, " +
                     std::to_string(bounds::kMaxTick) + "]");
        } else if (r.tick < previous) {
            fail(errors, i,
                 "tick " + std::to_string(r.tick) + " is before the previous request's tick " +
                     std::to_string(previous));
        }
        previous = std::max(previous, r.tick);
        if (r.cost < 1 || r.cost > bounds::kMaxCost) {
            fail(errors, i,
                 "cost " + std::to_string(r.cost) + " outside [1, " +
                     std::to_string(bounds::kMaxCost) + "]");
        }
        if (r.key >= trace.keys.size())
            fail(errors, i, "unknown key id " + std::to_string(r.key));
    }
    return problems;
}

/// validate() of requests [begin, stop), the first against the one before it, in parts side by
/// side when they are many: one pass over ten million requests reads 160 MB.
std::vector<std::string> validate_requests(const Trace& trace, std::size_t begin,
                                           std::size_t stop) {
    std::vector<std::string> errors;
    if (trace.keys.empty() || !trace.keys.front().empty()) {
        errors.emplace_back("the key table must start with the default key \"\"");
    }
    if (trace.requests.size() > bounds::kMaxRequests) {
        errors.push_back("more than " + std::to_string(bounds::kMaxRequests) + " requests");
    }
    const bool durations_fit = trace.durations.size() == trace.requests.size();
    if (!trace.durations.empty() && !durations_fit) {
        errors.push_back(std::to_string(trace.durations.size()) + " durations for " +
                         std::to_string(trace.requests.size()) + " requests");
    }
    const unsigned threads = detail::threads_for(stop - begin, 0, 2);
    std::vector<RequestProblems> parts(threads);
    detail::share_out(threads, threads, [&](std::size_t part) {
        const std::size_t from = begin + (stop - begin) * part / threads;
        const std::size_t to = begin + (stop - begin) * (part + 1) / threads;
        parts[part] = check_requests(trace, from, to, durations_fit && !trace.durations.empty());
    });
    // In the order one pass would give them: every duration, then every request, at most 20.
    for (auto list : {&RequestProblems::durations, &RequestProblems::requests}) {
        for (RequestProblems& part : parts) {
            for (std::string& error : part.*list) {
                if (errors.size() < 20)
                    errors.push_back(std::move(error));
            }
        }
    }
    return errors;
}

}  // namespace

std::vector<std::string> validate(const Trace& trace) {
    return validate_requests(trace, 0, trace.requests.size());
}

std::vector<std::string> validate(const Trace& trace, std::size_t begin, std::size_t end) {
    // The requests checked, with the one after them: its order against the last of them.
    end = std::min(end, trace.requests.size());
    begin = std::min(begin, end);
    return validate_requests(trace, begin, std::min(end + 1, trace.requests.size()));
}

}  // namespace ratelab
