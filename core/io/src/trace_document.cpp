// Turns one streaming pass over a trace file into a validated TraceDocument, or one clear error.
#include <algorithm>
#include <fstream>
#include <limits>
#include <unordered_map>

#include "fleet_json.h"
#include "params_json.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"
#include "trace_problem.h"
#include "trace_sax.h"
#include "utf8.h"

namespace ratelab::io {

using detail::member_path;
using detail::quote_text;
using detail::TraceProblem;
using Json = nlohmann::ordered_json;

namespace {

std::string error_message(const std::string& file, const std::string& location,
                          const std::string& rule, const std::string& detail) {
    std::string message = file;
    if (!location.empty()) {
        message += ": " + location;
    }
    return message + ": " + detail + " [" + rule + "]";
}

Trace trace_from_columns(detail::RawColumns& c) {
    if (!c.has_tick_deltas) {
        throw TraceProblem{"$.columns.tick_deltas", "missing-field",
                           "the columnar form needs a \"tick_deltas\" column"};
    }
    const std::size_t count = c.tick_deltas.size();
    if (c.has_costs && c.costs.size() != count) {
        throw TraceProblem{"$.columns.costs", "column-length",
                           "\"costs\" has " + std::to_string(c.costs.size()) +
                               " entries but \"tick_deltas\" has " + std::to_string(count)};
    }
    if (c.has_keys && c.keys.size() != count) {
        throw TraceProblem{"$.columns.keys", "column-length",
                           "\"keys\" has " + std::to_string(c.keys.size()) +
                               " entries but \"tick_deltas\" has " + std::to_string(count)};
    }
    if (c.has_durations && c.durations.size() != count) {
        throw TraceProblem{"$.columns.durations", "column-length",
                           "\"durations\" has " + std::to_string(c.durations.size()) +
                               " entries but \"tick_deltas\" has " + std::to_string(count)};
    }
    if (c.has_keys && !c.has_key_table) {
        throw TraceProblem{"$.columns.key_table", "missing-field",
                           "\"keys\" holds indexes into a \"key_table\", which is missing"};
    }
    // Key table entries map onto Trace::keys in the order requests first use them, as the object
    // form and TraceBuilder number keys, so that both forms of one trace load identically and a
    // round trip through either form changes nothing. "" is always id 0; unused entries go.
    Trace trace;
    constexpr KeyId kUnassigned = std::numeric_limits<KeyId>::max();
    std::vector<KeyId> ids(c.key_table.size(), kUnassigned);
    std::unordered_map<std::string_view, std::size_t> first_seen;
    for (std::size_t i = 0; i < c.key_table.size(); ++i) {
        const std::string& key = c.key_table[i];
        if (auto [it, added] = first_seen.emplace(key, i); !added) {
            throw TraceProblem{
                detail::index_path("$.columns.key_table", i), "duplicate-key",
                "the key " + quote_text(key) + " is already entry " + std::to_string(it->second)};
        }
        if (key.empty()) {
            ids[i] = 0;
        }
    }
    trace.requests.reserve(count);
    Tick tick = 0;
    for (std::size_t i = 0; i < count; ++i) {
        tick += c.tick_deltas[i];
        Request request;
        request.tick = tick;
        if (c.has_costs) {
            request.cost = c.costs[i];
        }
        if (c.has_keys) {
            const std::uint32_t entry = c.keys[i];
            if (entry >= ids.size()) {
                throw TraceProblem{detail::index_path("$.columns.keys", i), "key-index",
                                   "key index " + std::to_string(entry) +
                                       " is past the end of \"key_table\" (" +
                                       std::to_string(ids.size()) + " entries)"};
            }
            if (ids[entry] == kUnassigned) {
                ids[entry] = static_cast<KeyId>(trace.keys.size());
                trace.keys.push_back(c.key_table[entry]);
            }
            request.key = ids[entry];
        }
        trace.requests.push_back(request);
    }
    // A column of zeros sets nothing: the trace keeps no durations, as in the object form.
    if (std::any_of(c.durations.begin(), c.durations.end(), [](Tick d) { return d != 0; }))
        trace.durations = std::move(c.durations);
    return trace;
}

// "notes": [{"tick": 12, "text": "..."}], put in tick order.
std::vector<TraceNote> read_notes(const Json& value, const std::string& path) {
    if (!value.is_array()) {
        throw TraceProblem{path, "wrong-type",
                           "\"notes\" must be a list of {\"tick\", \"text\"} objects"};
    }
    if (value.size() > bounds::kMaxNotes) {
        throw TraceProblem{path, "too-many-notes",
                           "a trace holds at most " + std::to_string(bounds::kMaxNotes) +
                               " notes; this one has " + std::to_string(value.size())};
    }
    std::vector<TraceNote> notes;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const Json& note = value[i];
        const std::string note_path = detail::index_path(path, i);
        if (!note.is_object()) {
            throw TraceProblem{note_path, "wrong-type",
                               "a note is an object {\"tick\": T, \"text\": \"...\"}"};
        }
        for (const auto& [member, member_value] : note.items()) {
            if (member != "tick" && member != "text") {
                throw TraceProblem{member_path(note_path, member), "unknown-field",
                                   "a note has only \"tick\" and \"text\""};
            }
        }
        if (!note.contains("tick") || !note.contains("text")) {
            throw TraceProblem{member_path(note_path, note.contains("tick") ? "text" : "tick"),
                               "missing-field", "a note needs a \"tick\" and a \"text\""};
        }
        TraceNote read;
        read.tick = detail::read_integer(note["tick"], 0, bounds::kMaxTick, "a note's tick",
                                         member_path(note_path, "tick"));
        const Json& text = note["text"];
        const std::string text_path = member_path(note_path, "text");
        if (!text.is_string()) {
            throw TraceProblem{text_path, "wrong-type", "a note's text must be a string"};
        }
        read.text = text.get<std::string>();
        if (read.text.find_first_not_of(" \t\r\n") == std::string::npos) {
            throw TraceProblem{text_path, "empty-note", "a note needs some text"};
        }
        if (read.text.size() > bounds::kMaxNoteBytes) {
            throw TraceProblem{text_path, "note-too-long",
                               "a note is at most " + std::to_string(bounds::kMaxNoteBytes) +
                                   " bytes long; this one has " + std::to_string(read.text.size())};
        }
        notes.push_back(std::move(read));
    }
    std::stable_sort(notes.begin(), notes.end(),
                     [](const TraceNote& a, const TraceNote& b) { return a.tick < b.tick; });
    return notes;
}

void read_field(TraceDocument& doc, const std::string& name, const Json& value, bool& has_limit,
                bool& has_window) {
    const std::string path = member_path("$", name);
    const auto text = [&](std::string_view what) {
        if (!value.is_string()) {
            throw TraceProblem{path, "wrong-type", std::string(what) + " must be a string"};
        }
        return value.get<std::string>();
    };
    if (name == "format" || name == "version") {
        return;  // checked while streaming
    } else if (name == "name") {
        doc.name = text("\"name\"");
    } else if (name == "description") {
        doc.description = text("\"description\"");
    } else if (name == "tick_ms") {
        doc.tick_ms = detail::read_integer(value, kMinTickMs, kMaxTickMs, "tick_ms", path);
    } else if (name == "duration") {
        doc.duration = detail::read_integer(value, 1, bounds::kMaxTick, "duration", path);
    } else if (name == "limit") {
        doc.params.base.limit = detail::read_integer(value, 1, bounds::kMaxLimit, "limit", path);
        has_limit = true;
    } else if (name == "window") {
        doc.params.base.window = detail::read_integer(value, 1, bounds::kMaxWindow, "window", path);
        has_window = true;
    } else if (name == "rejections_count") {
        if (!value.is_boolean()) {
            throw TraceProblem{path, "wrong-type", "\"rejections_count\" must be true or false"};
        }
        doc.params.rejections_count = value.get<bool>();
    } else if (name == "algorithms") {
        doc.params.base.overrides = detail::read_overrides(value, path);
    } else if (name == "lanes") {
        doc.params.lanes = detail::read_lanes(value, path);
        // The default six, spelled out, are the default: a file that lists them says nothing more.
        if (doc.params.lanes == default_lanes()) {
            doc.params.lanes.clear();
        }
    } else if (name == "keys") {
        if (!value.is_object()) {
            throw TraceProblem{path, "wrong-type", "\"keys\" must be an object of key tiers"};
        }
        for (const auto& [key, tier] : value.items()) {
            const std::string tier_path = member_path(path, key);
            if (key.empty()) {
                // It would silently replace the top-level limits for every request without a
                // key, while every headline still showed the top-level ones.
                throw TraceProblem{tier_path, "default-key-tier",
                                   "the default key \"\" uses the top-level \"limit\", "
                                   "\"window\" and \"algorithms\"; set those instead of a tier"};
            }
            if (key.size() > bounds::kMaxKeyBytes) {
                throw TraceProblem{
                    tier_path, "key-too-long",
                    "a key is at most " + std::to_string(bounds::kMaxKeyBytes) + " bytes long"};
            }
            doc.params.keys.emplace(key, detail::read_tier(tier, tier_path));
        }
    } else if (name == "notes") {
        doc.notes = read_notes(value, path);
    } else if (name == "fleet") {
        // Checked here, kept verbatim and saved back as is; io::fleet_settings() reads it.
        detail::read_fleet(value, path);
        doc.unknown_fields.get_ref<Json::object_t&>().emplace_back(name, value);
    } else {
        doc.unknown_fields.get_ref<Json::object_t&>().emplace_back(name, value);
        doc.warnings.push_back("unknown field " + quote_text(name) +
                               " is not used by this version; it is kept and saved back as is");
    }
}

TraceDocument build_document(detail::RawTraceFile raw) {
    TraceDocument doc;
    bool has_limit = false;
    bool has_window = false;
    bool has_format = false;
    bool has_version = false;
    for (const auto& [name, value] : raw.fields.items()) {
        has_format = has_format || name == "format";
        has_version = has_version || name == "version";
        read_field(doc, name, value, has_limit, has_window);
    }
    const auto require = [](bool present, const char* name, const char* why) {
        if (!present) {
            throw TraceProblem{member_path("$", name), "missing-field", why};
        }
    };
    require(has_format, "format", "a trace file starts with \"format\": \"ratelab-trace\"");
    require(has_version, "version",
            "a trace file needs \"version\" (1; 2 with lanes; 3 with durations)");
    require(has_limit, "limit", "a trace file needs \"limit\" (L, the allowance per window)");
    require(has_window, "window", "a trace file needs \"window\" (W, in ticks)");
    if (raw.has_requests && raw.has_columns) {
        throw TraceProblem{"$.columns", "both-forms",
                           "a trace has either \"requests\" or \"columns\", not both"};
    }
    require(raw.has_requests || raw.has_columns, "requests",
            "a trace file needs \"requests\" (or the compact \"columns\")");
    doc.trace = raw.has_columns ? trace_from_columns(raw.columns) : std::move(raw.requests);
    if (doc.duration && !doc.trace.requests.empty() &&
        *doc.duration <= doc.trace.requests.back().tick) {
        throw TraceProblem{"$.duration", "duration-too-short",
                           "duration " + std::to_string(*doc.duration) +
                               " ends before the last request, at tick " +
                               std::to_string(doc.trace.requests.back().tick)};
    }
    // The reader's rules match the core's; this only guards against the two drifting apart.
    for (const auto& errors : {validate(doc.params), validate(doc.trace)}) {
        if (!errors.empty()) {
            throw TraceProblem{"$", "invalid", errors.front()};
        }
    }
    return doc;
}

}  // namespace

TraceFileError::TraceFileError(std::string file, std::string location, std::string rule,
                               std::string detail)
    : std::runtime_error(error_message(file, location, rule, detail)),
      file_(std::move(file)),
      location_(std::move(location)),
      rule_(std::move(rule)),
      detail_(std::move(detail)) {}

TraceDocument parse_trace(std::string_view json_text, const std::string& source_name) {
    if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        throw TraceFileError(source_name, "", "file-empty", "the file is empty");
    }
    if (const auto encoding = detail::wide_unicode_encoding(json_text)) {
        throw TraceFileError(source_name, "1:1", "invalid-utf8",
                             "the file is " + std::string(*encoding) +
                                 " text; trace files are UTF-8 (save it again as UTF-8)");
    }
    try {
        return build_document(detail::read_trace_json(json_text));
    } catch (const TraceProblem& problem) {
        throw TraceFileError(source_name, problem.location, problem.rule, problem.detail);
    } catch (const std::bad_alloc&) {
        throw TraceFileError(source_name, "", "out-of-memory", "not enough memory to load it");
    }
}

Tick effective_duration(const TraceDocument& doc) {
    if (doc.duration) {
        return *doc.duration;
    }
    // One window past the last request, what the app's timeline opens on: long enough to see
    // the last request leave the window it counts in.
    const Tick last = doc.trace.requests.empty() ? 0 : doc.trace.requests.back().tick;
    return last + doc.params.base.window;
}

}  // namespace ratelab::io
