#include "ratelab/io/decisions_csv.h"

#include <stdexcept>

#include "ratelab/simulation.h"

namespace ratelab::io {
namespace {

std::string decimal(const std::optional<Rational>& value) {
    return value ? value->to_short(6) : std::string();
}

/// The header fields a response of `style` may carry, in the order header_fields() lists them.
std::vector<std::string> field_names(HeaderStyle style) {
    std::vector<std::string> names = {"Retry-After"};
    if (style != HeaderStyle::x_ratelimit) {
        names.emplace_back("RateLimit-Policy");
        names.emplace_back("RateLimit");
    }
    if (style != HeaderStyle::ietf) {
        names.emplace_back("X-RateLimit-Limit");
        names.emplace_back("X-RateLimit-Remaining");
        names.emplace_back("X-RateLimit-Reset");
    }
    return names;
}

/// ",status,field,..." for one response, a column per name of `names`.
std::string response_columns(const Response& response, HeaderStyle style,
                             const std::vector<std::string>& names) {
    const std::vector<HeaderField> fields = header_fields(response, style);
    std::string text = ',' + std::to_string(response.status);
    for (const std::string& name : names) {
        text += ',';
        for (const auto& [field, value] : fields) {
            if (field == name)
                text += csv_field(value);
        }
    }
    return text;
}

}  // namespace

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

void write_decisions_csv(std::ostream& out, const SimulationResult& result,
                         const std::vector<std::vector<Response>>* responses, HeaderStyle style) {
    const Trace& trace = *result.trace;
    for (const AlgorithmRun& run : result.runs) {
        if (run.decisions.size() != trace.requests.size())
            throw std::invalid_argument("the simulation of " + run.id +
                                        " kept no per-request decisions");
    }
    std::vector<std::string> keys;
    keys.reserve(trace.keys.size());
    for (const std::string& key : trace.keys)
        keys.push_back(csv_field(key));
    std::vector<std::string> labels;
    for (const AlgorithmRun& run : result.runs)
        labels.push_back(csv_field(run.label));
    const std::vector<std::string> names = field_names(style);
    out << kDecisionsCsvHeader;
    if (responses) {
        out << ",status";
        for (const std::string& name : names)
            out << ',' << name;
    }
    out << '\n';
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const Request& r = trace.requests[i];
        const std::string prefix = std::to_string(i) + ',' + std::to_string(r.tick) + ',' +
                                   keys[r.key] + ',' + std::to_string(r.cost) + ',';
        for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
            const AlgorithmRun& run = result.runs[lane];
            const Decision d = run.decision(trace, i);
            out << prefix << run.id << ',' << labels[lane] << ',' << (d.accepted ? "true" : "false")
                << ',' << decimal(d.release) << ',' << decimal(d.delay) << ','
                << (d.retry_never ? std::string("never") : decimal(d.retry_after));
            if (responses)
                out << response_columns((*responses)[lane][i], style, names);
            out << '\n';
        }
    }
}

}  // namespace ratelab::io
