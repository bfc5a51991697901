// The canonical text of a trace file: fixed key order and spacing, so that saving twice gives
// the same bytes and a change to one request is a one-line diff.
#include <charconv>

#include "inline_json.h"
#include "params_json.h"
#include "ratelab/io/trace_file.h"
#include "trace_problem.h"
#include "utf8.h"

namespace ratelab::io {

using detail::inline_json;
using detail::json_string;

namespace {

void append_number(std::string& out, std::int64_t value) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void append_member(std::string& out, const char* name, const std::string& value_text) {
    out += "  \"";
    out += name;
    out += "\": ";
    out += value_text;
    out += ",\n";
}

/// `"name": [` then `values` 32 to a line, then `]`.
template <class Value>
void append_column(std::string& out, const char* name, const std::vector<Value>& values,
                   bool last) {
    constexpr std::size_t kPerLine = 32;
    out += "    \"";
    out += name;
    out += "\": [";
    for (std::size_t i = 0; i < values.size(); ++i) {
        out += i % kPerLine == 0 ? (i == 0 ? "\n      " : ",\n      ") : ", ";
        append_number(out, static_cast<std::int64_t>(values[i]));
    }
    out += values.empty() ? "]" : "\n    ]";
    out += last ? "\n" : ",\n";
}

void append_object_requests(std::string& out, const Trace& trace) {
    std::vector<std::string> keys;
    keys.reserve(trace.keys.size());
    for (const std::string& key : trace.keys) {
        keys.push_back(json_string(key));
    }
    out += "  \"requests\": [";
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& request = trace.requests[i];
        out += i == 0 ? "\n    {\"tick\": " : ",\n    {\"tick\": ";
        append_number(out, request.tick);
        if (request.cost != 1) {
            out += ", \"cost\": ";
            append_number(out, request.cost);
        }
        if (request.key != 0) {
            out += ", \"key\": ";
            out += keys[request.key];
        }
        if (const Tick duration = trace.duration(i); duration != 0) {
            out += ", \"duration\": ";
            append_number(out, duration);
        }
        out += '}';
    }
    out += trace.requests.empty() ? "]\n" : "\n  ]\n";
}

void append_columns(std::string& out, const Trace& trace) {
    const std::size_t count = trace.requests.size();
    std::vector<Tick> deltas(count);
    std::vector<std::uint32_t> costs(count);
    std::vector<KeyId> keys(count);
    bool any_cost = false;
    Tick previous = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Request& request = trace.requests[i];
        deltas[i] = request.tick - previous;
        previous = request.tick;
        costs[i] = request.cost;
        keys[i] = request.key;
        any_cost = any_cost || request.cost != 1;
    }
    const bool any_key = trace.keys.size() > 1;
    const bool any_duration = !trace.durations.empty();
    out += "  \"columns\": {\n";
    if (any_key) {
        out += "    \"key_table\": [";
        for (std::size_t i = 0; i < trace.keys.size(); ++i) {
            out += i == 0 ? "" : ", ";
            out += json_string(trace.keys[i]);
        }
        out += "],\n";
    }
    append_column(out, "tick_deltas", deltas, !any_cost && !any_key && !any_duration);
    if (any_cost) {
        append_column(out, "costs", costs, !any_key && !any_duration);
    }
    if (any_key) {
        append_column(out, "keys", keys, !any_duration);
    }
    if (any_duration) {
        append_column(out, "durations", trace.durations, true);
    }
    out += "  }\n";
}

/// A file holds only UTF-8; text that is not (say a key imported from a log in another encoding)
/// is refused with its place instead of escaping as a JSON library exception.
void require_utf8(std::string_view text, const std::string& location) {
    if (!detail::is_valid_utf8(text)) {
        throw TraceFileError("", location, "invalid-utf8",
                             "the text " + detail::quote_text(text) +
                                 " is not valid UTF-8, which a trace file must be");
    }
}

void require_utf8(const TraceDocument& doc) {
    require_utf8(doc.name, "$.name");
    require_utf8(doc.description, "$.description");
    for (std::size_t i = 0; i < doc.notes.size(); ++i) {
        require_utf8(doc.notes[i].text,
                     detail::member_path(detail::index_path("$.notes", i), "text"));
    }
    for (const auto& [key, limits] : doc.params.keys) {
        require_utf8(key, detail::member_path("$.keys", key));
    }
    for (std::size_t i = 0; i < doc.params.lanes.size(); ++i) {
        require_utf8(doc.params.lanes[i].label,
                     detail::member_path(detail::index_path("$.lanes", i), "label"));
    }
    for (const auto& [name, value] : doc.unknown_fields.items()) {
        require_utf8(name, detail::member_path("$", name));
        try {
            (void)value.dump();
        } catch (const nlohmann::json::type_error&) {
            throw TraceFileError("", detail::member_path("$", name), "invalid-utf8",
                                 "the field holds text that is not valid UTF-8");
        }
    }
    // Placed at the first request that uses the key; a key no request uses is still written
    // in the columnar form's key table.
    std::vector<bool> checked(doc.trace.keys.size(), false);
    for (std::size_t i = 0; i < doc.trace.requests.size(); ++i) {
        const KeyId key = doc.trace.requests[i].key;
        if (key < checked.size() && !checked[key]) {
            checked[key] = true;
            require_utf8(doc.trace.keys[key],
                         detail::member_path(detail::index_path("$.requests", i), "key"));
        }
    }
    for (std::size_t key = 0; key < checked.size(); ++key) {
        if (!checked[key]) {
            require_utf8(doc.trace.keys[key], detail::index_path("$.columns.key_table", key));
        }
    }
}

}  // namespace

std::string serialize_trace(const TraceDocument& doc) {
    require_utf8(doc);
    std::string out;
    const bool compact = doc.trace.requests.size() > kCompactThreshold;
    out.reserve(512 + doc.trace.requests.size() * (compact ? 6 : 40));
    out += "{\n";
    append_member(out, "format", "\"ratelab-trace\"");
    // The lowest version that holds what the document uses, so that a trace still opens in a
    // RateLab that predates what it does not use: 3 for requests with durations, 2 for lanes.
    const char* version = !doc.trace.durations.empty() ? "3"
                          : !doc.params.lanes.empty()  ? "2"
                                                       : "1";
    append_member(out, "version", version);
    append_member(out, "name", json_string(doc.name));
    append_member(out, "description", json_string(doc.description));
    append_member(out, "tick_ms", std::to_string(doc.tick_ms));
    if (doc.duration) {
        append_member(out, "duration", std::to_string(*doc.duration));
    }
    append_member(out, "limit", std::to_string(doc.params.base.limit));
    append_member(out, "window", std::to_string(doc.params.base.window));
    if (doc.params.rejections_count) {
        append_member(out, "rejections_count", "true");
    }
    if (auto overrides = detail::overrides_to_json(doc.params.base.overrides); !overrides.empty()) {
        append_member(out, "algorithms", inline_json(overrides));
    }
    if (!doc.params.lanes.empty()) {
        out += "  \"lanes\": [";
        bool first = true;
        for (const auto& lane : detail::lanes_to_json(doc.params.lanes)) {
            out += first ? "\n    " : ",\n    ";
            out += inline_json(lane);
            first = false;
        }
        out += "\n  ],\n";
    }
    if (!doc.notes.empty()) {
        out += "  \"notes\": [";
        bool first = true;
        for (const TraceNote& note : doc.notes) {
            out += first ? "\n    " : ",\n    ";
            out += "{\"tick\": " + std::to_string(note.tick) +
                   ", \"text\": " + json_string(note.text) + "}";
            first = false;
        }
        out += "\n  ],\n";
    }
    if (!doc.params.keys.empty()) {
        out += "  \"keys\": {";
        bool first = true;
        for (const auto& [key, limits] : doc.params.keys) {
            nlohmann::ordered_json tier = {{"limit", limits.limit}, {"window", limits.window}};
            if (auto overrides = detail::overrides_to_json(limits.overrides); !overrides.empty()) {
                tier["algorithms"] = std::move(overrides);
            }
            out += first ? "\n    " : ",\n    ";
            out += json_string(key) + ": " + inline_json(tier);
            first = false;
        }
        out += "\n  },\n";
    }
    for (const auto& [name, value] : doc.unknown_fields.items()) {
        out += "  " + json_string(name) + ": " + inline_json(value) + ",\n";
    }
    if (compact) {
        append_columns(out, doc.trace);
    } else {
        append_object_requests(out, doc.trace);
    }
    out += "}\n";
    return out;
}

}  // namespace ratelab::io
