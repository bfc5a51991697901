// ratelab-cli import: turns a CSV file or an access log into a trace file.
#include <cstdio>
#include <ostream>

#include <unistd.h>

#include "cli_support.h"
#include "ratelab/io/importers.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/limits.h"

namespace ratelab::cli {

namespace {

io::ImportOptions read_options(const Arguments& args) {
    io::ImportOptions options;
    const auto format = io::parse_import_format(args.get("format").value_or(""));
    if (!format) {
        throw UsageError("--format must be csv, clf or combined");
    }
    options.format = *format;
    options.tick_ms = args.integer("tick-ms", io::kMinTickMs, io::kMaxTickMs).value_or(1000);
    if (auto key = args.get("key")) {
        (options.format == io::ImportFormat::kCsv ? options.key_column : options.log_key) = *key;
    }
    if (auto start = args.get("start")) {
        // The same forms the time column accepts: epoch seconds or ms, or ISO 8601.
        options.origin_ms = io::parse_time(*start);
        if (!options.origin_ms) {
            throw UsageError("--start must be a time like 2024-03-01T12:00:00Z or epoch seconds");
        }
    }
    if (auto delimiter = args.get("delimiter")) {
        if (*delimiter == "tab" || *delimiter == "\\t") {
            options.delimiter = '\t';
        } else if (delimiter->size() == 1) {
            options.delimiter = (*delimiter)[0];
        } else {
            throw UsageError("--delimiter must be one character or \"tab\"");
        }
    }
    if (auto header = args.get("header")) {
        if (*header != "yes" && *header != "no") {
            throw UsageError("--header must be yes or no");
        }
        options.header = *header == "yes";
    }
    options.time_column = args.get("time-column").value_or("");
    options.cost_column = args.get("cost-column").value_or("");
    if (auto unit = args.get("time-unit")) {
        const auto parsed = io::parse_time_unit(*unit);
        if (!parsed) {
            throw UsageError("--time-unit must be auto, s, ms or iso");
        }
        options.time_unit = *parsed;
    }
    if (::isatty(STDERR_FILENO)) {
        options.progress = [](const io::ImportProgress& p) {
            if (p.total_bytes > 0) {
                std::fprintf(stderr, "\rreading: %3d%% (%llu lines)",
                             static_cast<int>(100.0 * static_cast<double>(p.bytes) /
                                              static_cast<double>(p.total_bytes)),
                             static_cast<unsigned long long>(p.lines));
            } else {
                std::fprintf(stderr, "\rreading: %llu lines",
                             static_cast<unsigned long long>(p.lines));
            }
        };
    }
    return options;
}

int run_import(const Arguments& args, CommandIo& io) {
    const io::ImportOptions options = read_options(args);
    io::ImportResult result;
    try {
        result = io::import_file(args.positionals[0], options);
    } catch (const io::ImportError& error) {
        if (options.progress) {
            io.err << "\n";
        }
        throw UsageError(args.positionals[0] + ": " + error.what());
    }
    if (options.progress) {
        io.err << "\n";
    }
    io::TraceDocument& doc = result.document;
    if (auto limit = args.integer("limit", 1, bounds::kMaxLimit)) {
        doc.params.base.limit = *limit;
    }
    if (auto window = args.integer("window", 1, bounds::kMaxWindow)) {
        doc.params.base.window = *window;
    }
    if (auto name = args.get("name")) {
        doc.name = *name;
    }
    write_output(args, io::serialize_trace(doc), io);
    io.err << "imported " << result.imported << " requests from " << result.lines << " lines";
    if (result.skipped > 0) {
        io.err << "; skipped " << result.skipped << ":";
    }
    io.err << "\n";
    for (const io::SkippedLine& skipped : result.first_skipped) {
        io.err << "  line " << skipped.line << ": " << io::terminal_safe(skipped.reason) << "\n";
    }
    if (result.skipped > result.first_skipped.size()) {
        io.err << "  ... and " << result.skipped - result.first_skipped.size() << " more\n";
    }
    return kExitOk;
}

}  // namespace

Command make_import_command() {
    return {"import",
            "turn a CSV file or an access log into a trace",
            "import FILE --format csv|clf|combined [options] [-o OUT.json]",
            "Reads FILE line by line; real times become ticks of --tick-ms milliseconds, the\n"
            "earliest request at tick 0 unless --start says otherwise. Lines that cannot be\n"
            "read are skipped: the first few are listed on stderr with their line numbers, and\n"
            "all are counted. CSV: the delimiter and a header line are detected; a time column\n"
            "named timestamp/time/ts/date/datetime (else column 1) holds epoch seconds, epoch\n"
            "milliseconds (numbers >= 10^11) or ISO 8601 times.",
            {{"format", "FORMAT", "csv, clf (Common Log Format) or combined"},
             {"tick-ms", "N", "milliseconds per tick (default 1000)"},
             {"key", "FIELD", "CSV: key column; logs: host (default), user, path, ... or none"},
             {"start", "TIME", "the real time of tick 0 (default: the first request)"},
             {"delimiter", "C", "CSV: the field delimiter (\"tab\" for a tab)"},
             {"header", "yes|no", "CSV: whether line 1 is a header"},
             {"time-column", "COL", "CSV: the time column, by name or number"},
             {"cost-column", "COL", "CSV: the cost column (default cost or weight)"},
             {"time-unit", "UNIT", "CSV: auto (default), s, ms or iso"},
             {"limit", "L", "the limit to store in the trace (default 4)"},
             {"window", "W", "the window to store in the trace (default 10)"},
             {"name", "TEXT", "the trace's name"},
             output_option("the trace")},
            1,
            1,
            false,
            run_import};
}

}  // namespace ratelab::cli
