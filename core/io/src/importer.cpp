// Streams traffic in line by line and turns it into a trace: times to ticks, skipped lines
// counted with their reasons, progress reported as it goes.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>
#include <numeric>
#include <sstream>
#include <unordered_map>

#include "input_file.h"
#include "line_parsers.h"
#include "line_reader.h"
#include "ratelab/limits.h"
#include "timestamps.h"
#include "utf8.h"

namespace ratelab::io {

namespace detail {

std::optional<std::string> key_problem(std::string_view key) {
    if (key.size() > bounds::kMaxKeyBytes) {
        return "the key is longer than " + std::to_string(bounds::kMaxKeyBytes) + " bytes";
    }
    if (!is_valid_utf8(key)) {
        return std::string("the key is not valid UTF-8");
    }
    return std::nullopt;
}

}  // namespace detail

namespace {

constexpr std::uint64_t kProgressEvery = 16'384;
const char* const kFormatNames[] = {"CSV", "Common Log Format", "Combined Log Format"};

/// The requests read so far, in input order, with keys interned.
struct Collected {
    std::vector<std::int64_t> times;
    std::vector<std::uint32_t> costs;
    std::vector<KeyId> keys;
    std::vector<std::string> key_names{std::string()};
    std::unordered_map<std::string, KeyId> key_ids{{std::string(), 0}};

    void add(const detail::ImportRecord& record) {
        if (times.size() >= bounds::kMaxRequests) {
            throw ImportError("more than " + std::to_string(bounds::kMaxRequests) +
                              " requests: too many for one trace");
        }
        auto [it, added] =
            key_ids.try_emplace(std::string(record.key), static_cast<KeyId>(key_names.size()));
        if (added) {
            if (key_names.size() >= bounds::kMaxKeys) {
                throw ImportError("more than " + std::to_string(bounds::kMaxKeys) +
                                  " different keys");
            }
            key_names.emplace_back(record.key);
        }
        times.push_back(record.time_ms);
        costs.push_back(record.cost);
        keys.push_back(it->second);
    }
};

Trace to_trace(const Collected& c, std::int64_t origin, std::int64_t tick_ms) {
    // Logs are written as requests finish, so times can step back a little: sort, stably.
    std::vector<std::uint32_t> order(c.times.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return c.times[a] < c.times[b]; });
    TraceBuilder builder;
    builder.reserve(order.size());
    for (std::uint32_t i : order) {
        // In 128 bits: a start time given far in the past must not overflow the subtraction.
        const Int128 tick = (static_cast<Int128>(c.times[i]) - origin) / tick_ms;
        if (tick > bounds::kMaxTick) {
            throw ImportError("the traffic spans more than " + std::to_string(bounds::kMaxTick) +
                              " ticks; choose a longer tick");
        }
        builder.add(static_cast<Tick>(tick), c.costs[i], c.key_names[c.keys[i]]);
    }
    return std::move(builder).take();
}

}  // namespace

std::optional<ImportFormat> parse_import_format(std::string_view name) {
    if (name == "csv") {
        return ImportFormat::kCsv;
    }
    if (name == "clf" || name == "common") {
        return ImportFormat::kCommonLog;
    }
    if (name == "combined") {
        return ImportFormat::kCombinedLog;
    }
    return std::nullopt;
}

std::optional<std::int64_t> parse_time(std::string_view text, TimeUnit unit) {
    return detail::parse_time_ms(text, unit);
}

std::optional<TimeUnit> parse_time_unit(std::string_view name) {
    if (name == "auto") {
        return TimeUnit::kAuto;
    }
    if (name == "s") {
        return TimeUnit::kSeconds;
    }
    if (name == "ms") {
        return TimeUnit::kMilliseconds;
    }
    if (name == "iso") {
        return TimeUnit::kIso8601;
    }
    return std::nullopt;
}

ImportResult import_traffic(std::istream& in, const ImportOptions& options,
                            std::uint64_t total_bytes) {
    if (options.tick_ms < kMinTickMs || options.tick_ms > kMaxTickMs) {
        throw ImportError("the tick length must be from " + std::to_string(kMinTickMs) + " to " +
                          std::to_string(kMaxTickMs) + " ms");
    }
    const auto parser = options.format == ImportFormat::kCsv
                            ? detail::make_csv_parser(options)
                            : detail::make_access_log_parser(options);
    ImportResult result;
    Collected collected;
    ImportProgress progress{0, 0, total_bytes};
    const auto skip = [&](std::uint64_t line, std::string reason) {
        ++result.skipped;
        if (result.first_skipped.size() < options.skipped_to_keep) {
            result.first_skipped.push_back({line, std::move(reason)});
        }
    };
    const std::string too_long =
        "longer than " + std::to_string(kMaxImportLineBytes) + " bytes (1 MiB)";
    detail::LineReader reader(in, options.max_input_bytes);
    std::string line;
    std::uint64_t record_line = 0;  // where the record being read began
    std::size_t record_bytes = 0;
    bool record_too_long = false;
    while (reader.next(line)) {
        progress.lines = reader.line_number();
        progress.bytes = reader.bytes();
        if (progress.lines % kProgressEvery == 0 && options.progress) {
            options.progress(progress);
        }
        if (reader.too_long() && reader.too_long_line_had_quote() && parser->quotes_span_lines()) {
            // The quotes in what was passed over decide where the record ends, and they are
            // gone: stop rather than guess, which could make requests of quoted text.
            throw ImportError("line " + std::to_string(progress.lines) + " is " + too_long +
                              " and has quotes in it: where its record ends cannot be told");
        }
        if (parser->pending()) {  // the line goes on with a record a quoted field left open
            record_bytes += line.size() + 1;
            if (!record_too_long && (reader.too_long() || record_bytes > kMaxImportLineBytes)) {
                record_too_long = true;
                parser->discard_pending();
            }
        } else {
            if (reader.too_long()) {
                ++result.lines;
                skip(progress.lines, "the line is " + too_long);
                continue;
            }
            if (progress.lines == 1) {
                if (line.rfind("\xEF\xBB\xBF", 0) == 0) {
                    line.erase(0, 3);  // a byte-order mark some spreadsheets write
                }
                if (parser->take_first_line(line)) {
                    continue;
                }
            }
            if (line.find_first_not_of(" \t") == std::string::npos) {
                continue;
            }
            ++result.lines;
            record_line = progress.lines;
            record_bytes = line.size();
            record_too_long = false;
        }
        detail::ImportRecord record;
        auto reason = parser->parse(line, record);
        if (parser->pending()) {
            continue;
        }
        if (record_too_long) {
            skip(record_line,
                 "the record is " + too_long + "; a quote opened in it may not be closed");
        } else if (reason) {
            skip(record_line, std::move(*reason));
        } else if (options.origin_ms && record.time_ms < *options.origin_ms) {
            skip(record_line, "earlier than the chosen start time");
        } else {
            collected.add(record);
        }
    }
    if (parser->pending()) {
        skip(record_line, record_too_long
                              ? "the record is " + too_long + "; a quote opened in it is not closed"
                              : "a quoted field is not closed");
    }
    if (options.progress) {
        options.progress(progress);
    }
    if (collected.times.empty()) {
        throw ImportError("no line could be imported" +
                          (result.first_skipped.empty()
                               ? std::string(" (the input is empty)")
                               : " (line " + std::to_string(result.first_skipped.front().line) +
                                     ": " + result.first_skipped.front().reason + ")"));
    }
    result.imported = collected.times.size();
    result.layout = parser->layout();
    result.origin_ms = options.origin_ms.value_or(
        *std::min_element(collected.times.begin(), collected.times.end()));
    TraceDocument& doc = result.document;
    doc.tick_ms = options.tick_ms;
    doc.trace = to_trace(collected, result.origin_ms, options.tick_ms);
    doc.name = "Imported traffic";
    doc.description = std::to_string(result.imported) + " requests imported from " +
                      kFormatNames[static_cast<int>(options.format)] + "; tick 0 is " +
                      detail::format_iso8601_ms(result.origin_ms) + " and one tick is " +
                      std::to_string(options.tick_ms) + " ms.";
    return result;
}

ImportResult import_file(const std::filesystem::path& file, const ImportOptions& options) {
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
        throw ImportError(file.string() + " is a directory");
    }
    detail::InputFile input(file);  // a FIFO without a writer reads as empty, without waiting
    if (!input.is_open()) {
        throw ImportError("cannot open " + file.string() + ": " + std::strerror(errno));
    }
    std::istream in(&input);
    const auto size = std::filesystem::file_size(file, error);
    ImportResult result = import_traffic(in, options, error ? 0 : size);
    result.document.name = "Imported from " + file.filename().string();
    return result;
}

ImportResult import_file_head(const std::filesystem::path& file, const ImportOptions& options,
                              std::size_t max_bytes) {
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
        throw ImportError(file.string() + " is a directory");
    }
    detail::InputFile input(file);
    if (!input.is_open()) {
        throw ImportError("cannot open " + file.string() + ": " + std::strerror(errno));
    }
    std::string head(max_bytes, '\0');
    std::istream in(&input);
    in.read(head.data(), static_cast<std::streamsize>(max_bytes));
    head.resize(static_cast<std::size_t>(in.gcount()));
    const bool more = in.peek() != std::char_traits<char>::eof();
    if (more) {
        // Whole lines only: a line cut in two would be skipped as unreadable.
        const std::size_t end = head.find_last_of('\n');
        head.resize(end == std::string::npos ? 0 : end + 1);
    }
    std::istringstream lines(head);
    ImportOptions quiet = options;
    quiet.progress = nullptr;
    ImportResult result = import_traffic(lines, quiet, head.size());
    result.document.name = "Imported from " + file.filename().string();
    result.complete = !more;
    return result;
}

}  // namespace ratelab::io
