#include "ratelab/io/sweep_output.h"

#include <algorithm>

#include "ratelab/io/report.h"
#include "ratelab/io/terminal_text.h"

namespace ratelab::io {

namespace {

using Json = nlohmann::ordered_json;
using Cells = std::vector<std::string>;

/// A parameter value in a table or CSV cell: exactly as --lane and --vary take it ("5/2"),
/// where figures that are only read (percentages, delays) are short decimals.
std::string cell(const ParamValue& value) {
    return to_text(value);
}

/// A parameter value as the report writes one: a whole number as a number, a fraction as
/// its exact text ("5/2").
Json json_of(const ParamValue& value) {
    if (const auto* number = std::get_if<Rational>(&value)) {
        return number->is_integer() ? Json(number->num()) : Json(number->to_string());
    }
    if (const auto* flag = std::get_if<bool>(&value)) {
        return *flag;
    }
    return std::get<std::string>(value);
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

std::string render_csv(const std::vector<Cells>& rows) {
    std::string text;
    for (const Cells& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            text += (c == 0 ? "" : ",") + csv_field(row[c]);
        }
        text += "\n";
    }
    return text;
}

/// Columns two spaces apart: text left-aligned, numbers right-aligned.
std::string render_table(const std::vector<Cells>& rows, const std::vector<bool>& is_text) {
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const Cells& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            widths[c] = std::max(widths[c], row[c].size());
        }
    }
    std::string text;
    for (const Cells& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - row[c].size(), ' ');
            const bool last = c + 1 == row.size();
            line += is_text[c] ? row[c] + (last ? "" : pad) : pad + row[c];
            line += last ? "" : "  ";
        }
        text += line + "\n";
    }
    return text;
}

Cells header_of(const std::vector<SweepAxis>& axes) {
    Cells header;
    for (const SweepAxis& axis : axes) {
        header.push_back(axis.target.name());
    }
    header.emplace_back("lane");
    return header;
}

std::string optional_text(const std::optional<Rational>& value, bool csv) {
    if (!value) {
        return csv ? "" : "-";
    }
    return csv ? value->to_short(6) : value->to_short(2);
}

Json optional_json(const std::optional<Rational>& value) {
    return value ? io::time_to_json(*value) : Json(nullptr);
}

}  // namespace

std::string format_sweep(const SweepResult& result, SweepFormat format) {
    if (format == SweepFormat::json) {
        Json root = Json::object();
        Json axes = Json::array();
        for (const SweepAxis& axis : result.axes) {
            Json values = Json::array();
            for (const ParamValue& value : axis.values) {
                values.push_back(json_of(value));
            }
            axes.push_back({{"name", axis.target.name()}, {"values", std::move(values)}});
        }
        root["axes"] = std::move(axes);
        root["lanes"] = result.labels;
        Json rows = Json::array();
        for (const SweepRow& row : result.rows) {
            Json entry = Json::object();
            for (std::size_t a = 0; a < result.axes.size(); ++a) {
                entry[result.axes[a].target.name()] = json_of(row.values[a]);
            }
            entry["lane"] = result.labels[row.lane];
            entry["accepted"] = row.totals.accepted;
            entry["rejected"] = row.totals.rejected;
            entry["rejected_percent"] = io::time_to_json(row.rejected_percent());
            entry["rejected_cost"] = row.totals.rejected_cost;
            entry["worst_burst"] = row.worst_burst.cost;
            entry["worst_burst_per_limit"] = io::time_to_json(row.burst_ratio());
            entry["max_delay"] =
                row.releases ? io::time_to_json(row.totals.max_delay) : Json(nullptr);
            entry["p95_delay"] = optional_json(row.p95_delay);
            entry["keys"] = row.keys;
            entry["keys_over_limit"] = row.keys_over_limit;
            if (row.several_keys && row.judged.limit > 0) {
                entry["worst_key"] = {{"key", row.worst_key},
                                      {"cost", row.judged.burst.cost},
                                      {"limit", row.judged.limit},
                                      {"window", row.judged.window}};
            }
            rows.push_back(std::move(entry));
        }
        root["rows"] = std::move(rows);
        return io::format_json(root);
    }
    const bool csv = format == SweepFormat::csv;
    Cells header = header_of(result.axes);
    const std::vector<std::string> names =
        csv ? std::vector<std::string>{"accepted",       "rejected",    "rejected_percent",
                                       "rejected_cost",  "worst_burst", "worst_burst_per_limit",
                                       "max_delay",      "p95_delay",   "keys",
                                       "keys_over_limit"}
            : std::vector<std::string>{"accepted",    "rejected",  "rejected %", "rejected cost",
                                       "worst burst", "burst / L", "max delay",  "p95 delay",
                                       "keys",        "over own L"};
    header.insert(header.end(), names.begin(), names.end());
    const bool several_keys = !result.rows.empty() && result.rows.front().several_keys && !csv;
    if (several_keys) {
        // The columns hold the worst key's burst against its own L: see the rows below.
        const std::size_t burst = result.axes.size() + 5;
        header[burst] = "worst key";
        header[burst + 1] = "burst / own L";
    }
    std::vector<Cells> rows = {header};
    for (const SweepRow& row : result.rows) {
        Cells cells;
        for (const ParamValue& value : row.values) {
            cells.push_back(cell(value));
        }
        cells.push_back(csv ? result.labels[row.lane] : io::terminal_safe(result.labels[row.lane]));
        cells.push_back(std::to_string(row.totals.accepted));
        cells.push_back(std::to_string(row.totals.rejected));
        cells.push_back(csv ? row.rejected_percent().to_short(6)
                            : row.rejected_percent().to_fixed(2));
        cells.push_back(std::to_string(row.totals.rejected_cost));
        if (!csv && row.several_keys && row.judged.limit > 0) {
            // Several keys: the sum over them is held to no one L; the worst key to its own.
            const Rational ratio(row.judged.burst.cost, row.judged.limit);
            cells.push_back(io::terminal_safe(row.worst_key) + ": " +
                            std::to_string(row.judged.burst.cost));
            cells.push_back(ratio.to_fixed(2));
        } else {
            cells.push_back(std::to_string(row.worst_burst.cost));
            cells.push_back(csv ? row.burst_ratio().to_short(6) : row.burst_ratio().to_fixed(2));
        }
        cells.push_back(optional_text(
            row.releases ? std::optional<Rational>(row.totals.max_delay) : std::nullopt, csv));
        cells.push_back(optional_text(row.p95_delay, csv));
        cells.push_back(std::to_string(row.keys));
        cells.push_back(std::to_string(row.keys_over_limit));
        rows.push_back(std::move(cells));
    }
    std::vector<bool> text(header.size(), false);
    text[result.axes.size()] = true;  // the lane
    if (several_keys)
        text[result.axes.size() + 5] = true;
    return csv ? render_csv(rows) : render_table(rows, text);
}

namespace {

/// One printed line of the fits: a lane at a point, for all its keys or one tier.
struct FitLine {
    const FitSweepRow* row;
    std::string lane;
    const TierFit* tier;
    std::string tier_name;
    bool fleet;
};

std::vector<FitLine> fit_lines(const FitSweepResult& result) {
    std::vector<FitLine> lines;
    for (const FitSweepRow& row : result.rows) {
        const std::string& lane = result.labels[row.lane];
        lines.push_back({&row, lane, &row.fit.fleet, "all keys", true});
        for (const TierFit& tier : row.fit.tiers) {
            lines.push_back(
                {&row, lane, &tier, tier.tier.empty() ? "keys without a tier" : tier.tier, false});
        }
    }
    return lines;
}

bool is_interval(const LaneFit& fit) {
    return fit.rate_parameter == "emission_interval";
}

/// The rate parameter's answer: the least refill_rate, or the largest emission_interval
/// (1 / rate); 0 when any value will do, nothing when none will.
std::optional<Rational> rate_answer(const FitLine& line) {
    const std::optional<Rational>& rate = line.tier->rate;
    if (!rate || *rate == Rational(0) || !is_interval(line.row->fit)) {
        return rate;
    }
    return Rational(1) / *rate;
}

/// "capacity 17 at refill_rate 2/5"
std::string capacity_text(const FitLine& line) {
    const LaneFit& fit = line.row->fit;
    const auto& at = line.tier->at_rate_parameter;
    return fit.capacity_parameter + " " + std::to_string(line.tier->capacity) + " at " +
           fit.rate_parameter + " " + (at ? at->to_string() : "of each tier");
}

/// "refill_rate 13/20 at capacity 8", "emission_interval at most 20/13 at burst 8"
std::string rate_text(const FitLine& line) {
    const LaneFit& fit = line.row->fit;
    const auto& at = line.tier->at_capacity;
    const std::string at_text = " at " + fit.capacity_parameter + " " +
                                (at ? std::to_string(*at) : std::string("of each tier"));
    const std::optional<Rational> answer = rate_answer(line);
    if (!answer) {
        return "none: one tick's requests cost more than the " + fit.capacity_parameter;
    }
    if (*answer == Rational(0)) {
        return "any " + fit.rate_parameter + at_text;
    }
    std::string text =
        fit.rate_parameter + (is_interval(fit) ? " at most " : " ") + answer->to_string() + at_text;
    if (line.fleet && fit.settable_rate_parameter && *fit.settable_rate_parameter != *answer) {
        text += " (as a parameter: " + fit.settable_rate_parameter->to_string() + ")";
    }
    return text;
}

}  // namespace

std::string format_fits(const FitSweepResult& result, SweepFormat format) {
    const std::vector<SweepAxis>& axes = result.axes;
    const std::vector<FitLine> lines = fit_lines(result);
    if (format == SweepFormat::json) {
        Json list = Json::array();
        for (const FitLine& line : lines) {
            Json entry = Json::object();
            for (std::size_t a = 0; a < axes.size(); ++a) {
                entry[axes[a].target.name()] = json_of(line.row->values[a]);
            }
            const LaneFit& fit = line.row->fit;
            const TierFit& tier = *line.tier;
            const auto answer = rate_answer(line);
            entry["lane"] = line.lane;
            entry["tier"] = line.tier_name;
            entry["keys"] = tier.keys;
            entry["capacity_parameter"] = fit.capacity_parameter;
            entry["smallest_capacity"] = tier.capacity;
            entry["at_rate"] =
                tier.at_rate_parameter ? Json(tier.at_rate_parameter->to_string()) : Json(nullptr);
            entry["rate_parameter"] = fit.rate_parameter;
            entry["rate_for_zero_rejections"] = answer ? Json(answer->to_string()) : Json(nullptr);
            entry["at_capacity"] = tier.at_capacity ? Json(*tier.at_capacity) : Json(nullptr);
            if (line.fleet) {
                entry["settable_rate"] = fit.settable_rate_parameter
                                             ? Json(fit.settable_rate_parameter->to_string())
                                             : Json(nullptr);
            }
            list.push_back(std::move(entry));
        }
        return io::format_json(Json{{"fits", std::move(list)}});
    }
    const bool csv = format == SweepFormat::csv;
    Cells header = header_of(axes);
    const std::vector<std::string> names =
        csv ? std::vector<std::string>{"tier",
                                       "keys",
                                       "capacity_parameter",
                                       "smallest_capacity",
                                       "at_rate",
                                       "rate_parameter",
                                       "rate_for_zero_rejections",
                                       "at_capacity"}
            : std::vector<std::string>{"tier", "keys", "rejects nothing with",
                                       "or rejects nothing with"};
    header.insert(header.end(), names.begin(), names.end());
    std::vector<Cells> table = {header};
    for (const FitLine& line : lines) {
        Cells cells;
        for (const ParamValue& value : line.row->values) {
            cells.push_back(cell(value));
        }
        const LaneFit& fit = line.row->fit;
        const TierFit& tier = *line.tier;
        cells.push_back(csv ? line.lane : io::terminal_safe(line.lane));
        cells.push_back(csv ? line.tier_name : io::terminal_safe(line.tier_name));
        cells.push_back(std::to_string(tier.keys));
        if (csv) {
            const auto answer = rate_answer(line);
            cells.push_back(fit.capacity_parameter);
            cells.push_back(std::to_string(tier.capacity));
            cells.push_back(tier.at_rate_parameter ? tier.at_rate_parameter->to_string() : "");
            cells.push_back(fit.rate_parameter);
            cells.push_back(answer ? answer->to_string() : "");
            cells.push_back(tier.at_capacity ? std::to_string(*tier.at_capacity) : "");
        } else {
            cells.push_back(capacity_text(line));
            cells.push_back(rate_text(line));
        }
        table.push_back(std::move(cells));
    }
    std::vector<bool> text(header.size(), true);
    for (std::size_t c = 0; c < axes.size(); ++c) {
        text[c] = false;
    }
    text[axes.size() + 2] = false;  // keys
    return csv ? render_csv(table) : render_table(table, text);
}

}  // namespace ratelab::io
