#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ratelab/io/importers.h"

namespace ratelab::io::detail {

/// Milliseconds since 1970-01-01T00:00:00Z of a time written as `unit` says; nothing if the
/// text is not such a time.
std::optional<std::int64_t> parse_time_ms(std::string_view text, TimeUnit unit);
/// ISO 8601: 2024-03-01, 2024-03-01T12:00:00, ...:00.5Z, ...:00+02:00, a space instead of T.
std::optional<std::int64_t> parse_iso8601_ms(std::string_view text);
/// The access-log form: 10/Oct/2000:13:55:36 -0700.
std::optional<std::int64_t> parse_clf_time_ms(std::string_view text);
/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day);

}  // namespace ratelab::io::detail

namespace ratelab::io::detail {

/// 2024-03-01T12:00:00.250Z for milliseconds since the epoch.
std::string format_iso8601_ms(std::int64_t ms);

}  // namespace ratelab::io::detail
