// The value rules of the streaming trace reader: format and version up front, then each request
// and each column entry as it streams past.
#include <limits>

#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"
#include "trace_reader.h"

namespace ratelab::io::detail {

void TraceReader::check_format(const JsonValue& v) const {
    if (v.kind != JsonValue::Kind::kString || *v.text != "ratelab-trace") {
        fail("unknown-format",
             std::string(
                 "\"format\" must be \"ratelab-trace\"; this is not a RateLab trace (found ") +
                 (v.kind == JsonValue::Kind::kString ? quote_text(*v.text) : v.kind_name()) + ")");
    }
}

void TraceReader::check_version(const JsonValue& v) const {
    std::int64_t version = 0;
    if (auto failure =
            check_integer(v, 1, std::numeric_limits<std::int64_t>::max(), "\"version\"", version)) {
        fail(failure->rule, failure->detail);
    }
    if (version > kTraceFormatVersion) {
        fail("unsupported-version", "this file is format version " + std::to_string(version) +
                                        "; this RateLab reads version " +
                                        std::to_string(kTraceFormatVersion) + " (update RateLab)");
    }
}

void TraceReader::request_value(const JsonValue& v) {
    std::int64_t number = 0;
    switch (field_) {
        case Field::kTick:
            if (auto failure = check_integer(v, 0, bounds::kMaxTick, "tick", number)) {
                fail(failure->rule, failure->detail);
            }
            tick_ = number;
            break;
        case Field::kCost:
            if (auto failure = check_integer(v, 1, bounds::kMaxCost, "cost", number)) {
                fail(failure->rule, failure->detail);
            }
            cost_ = static_cast<std::uint32_t>(number);
            break;
        case Field::kKey:
            if (auto failure = check_key(v, "key")) {
                fail(failure->rule, failure->detail);
            }
            key_ = *v.text;
            break;
        case Field::kDuration:
            if (auto failure = check_integer(v, 1, bounds::kMaxWindow, "duration", number)) {
                fail(failure->rule, failure->detail);
            }
            duration_ = number;
            break;
        case Field::kOther:
            break;
    }
}

void TraceReader::finish_request() {
    Trace& trace = out_.requests;
    if (!has_tick_) {
        throw TraceProblem{request_path(), "missing-field", "a request needs a \"tick\""};
    }
    if (trace.requests.size() >= bounds::kMaxRequests) {
        throw TraceProblem{
            request_path(), "too-many-requests",
            "a trace holds at most " + std::to_string(bounds::kMaxRequests) + " requests"};
    }
    if (!trace.requests.empty() && tick_ < last_tick_) {
        throw TraceProblem{member_path(request_path(), "tick"), "tick-order",
                           "ticks must not decrease: " + std::to_string(tick_) + " comes after " +
                               std::to_string(last_tick_) + " (sort the requests by tick)"};
    }
    last_tick_ = tick_;
    KeyId id = 0;
    if (!key_.empty()) {
        auto [it, added] = key_ids_.try_emplace(key_, static_cast<KeyId>(trace.keys.size()));
        if (added) {
            if (trace.keys.size() >= bounds::kMaxKeys) {
                throw TraceProblem{
                    member_path(request_path(), "key"), "too-many-keys",
                    "a trace uses at most " + std::to_string(bounds::kMaxKeys) + " different keys"};
            }
            trace.keys.push_back(key_);
        }
        id = it->second;
    }
    trace.append(Request{tick_, cost_, id}, duration_);
}

std::size_t TraceReader::column_size() const {
    const RawColumns& c = out_.columns;
    switch (column_) {
        case Column::kTickDeltas:
            return c.tick_deltas.size();
        case Column::kCosts:
            return c.costs.size();
        case Column::kKeys:
            return c.keys.size();
        case Column::kKeyTable:
            return c.key_table.size();
        case Column::kDurations:
            return c.durations.size();
    }
    return 0;
}

void TraceReader::column_value(const JsonValue& v) {
    RawColumns& c = out_.columns;
    const std::size_t count = column_size();
    if (count >= (column_ == Column::kKeyTable ? bounds::kMaxKeys : bounds::kMaxRequests)) {
        fail(column_ == Column::kKeyTable ? "too-many-keys" : "too-many-requests",
             "the column " + quote_text(column_name_) + " is longer than the maximum of " +
                 std::to_string(column_ == Column::kKeyTable ? bounds::kMaxKeys
                                                             : bounds::kMaxRequests));
    }
    std::int64_t number = 0;
    switch (column_) {
        case Column::kTickDeltas:
            if (v.kind == JsonValue::Kind::kNegative) {
                fail("tick-order", "tick deltas must not be negative: ticks never decrease");
            }
            if (auto failure = check_integer(v, 0, bounds::kMaxTick, "a tick delta", number)) {
                fail(failure->rule, failure->detail);
            }
            if (number > bounds::kMaxTick - delta_sum_) {
                fail("out-of-range", "the deltas add up past the largest tick, " +
                                         std::to_string(bounds::kMaxTick));
            }
            delta_sum_ += number;
            c.tick_deltas.push_back(number);
            break;
        case Column::kCosts:
            if (auto failure = check_integer(v, 1, bounds::kMaxCost, "cost", number)) {
                fail(failure->rule, failure->detail);
            }
            c.costs.push_back(static_cast<std::uint32_t>(number));
            break;
        case Column::kKeys:
            if (auto failure = check_integer(v, 0, static_cast<std::int64_t>(bounds::kMaxKeys) - 1,
                                             "a key index", number)) {
                fail(failure->rule, failure->detail);
            }
            c.keys.push_back(static_cast<std::uint32_t>(number));
            break;
        case Column::kKeyTable:
            if (auto failure = check_key(v, "a key")) {
                fail(failure->rule, failure->detail);
            }
            c.key_table.push_back(*v.text);
            break;
        case Column::kDurations:
            if (auto failure =
                    check_integer(v, 0, bounds::kMaxWindow, "a duration (0: the lane's)", number)) {
                fail(failure->rule, failure->detail);
            }
            c.durations.push_back(number);
            break;
    }
}

}  // namespace ratelab::io::detail
