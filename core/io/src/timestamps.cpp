#include "timestamps.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace ratelab::io::detail {

namespace {

constexpr std::int64_t kMsPerDay = 86'400'000;
/// Epoch numbers at or above this are taken as milliseconds (10^11 s is the year 5138).
constexpr std::int64_t kMillisecondsFrom = 100'000'000'000;

/// Reads exactly `digits` decimal digits at `pos`.
std::optional<unsigned> fixed_digits(std::string_view text, std::size_t& pos, std::size_t digits) {
    if (pos + digits > text.size()) {
        return std::nullopt;
    }
    unsigned value = 0;
    for (std::size_t i = 0; i < digits; ++i) {
        const char c = text[pos + i];
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    pos += digits;
    return value;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
    if (pos < text.size() && text[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

bool valid_date(std::int64_t year, unsigned month, unsigned day) {
    static constexpr std::array<unsigned, 12> kDays = {31, 29, 31, 30, 31, 30,
                                                       31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1 || day > kDays[month - 1]) {
        return false;
    }
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month != 2 || day <= 28 || leap;
}

std::optional<std::int64_t> civil_ms(std::int64_t year, unsigned month, unsigned day, unsigned hour,
                                     unsigned minute, unsigned second) {
    if (!valid_date(year, month, day) || hour > 23 || minute > 59 || second > 60) {
        return std::nullopt;
    }
    return days_from_civil(year, month, day) * kMsPerDay +
           (static_cast<std::int64_t>(hour) * 3600 + minute * 60 + second) * 1000;
}

/// "+02:00", "-0700", "Z" -> offset in ms to subtract; nothing if malformed.
std::optional<std::int64_t> zone_offset_ms(std::string_view text, std::size_t& pos) {
    if (expect(text, pos, 'Z') || expect(text, pos, 'z')) {
        return 0;
    }
    if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) {
        return std::nullopt;
    }
    const int sign = text[pos++] == '-' ? -1 : 1;
    const auto hours = fixed_digits(text, pos, 2);
    expect(text, pos, ':');
    const auto minutes = fixed_digits(text, pos, 2);
    if (!hours || !minutes || *hours > 23 || *minutes > 59) {
        return std::nullopt;
    }
    return sign * (static_cast<std::int64_t>(*hours) * 60 + *minutes) * 60'000;
}

/// A decimal number of `unit_ms` milliseconds ("1700000000.25" seconds), exactly to the ms.
std::optional<std::int64_t> decimal_ms(std::string_view text, std::int64_t unit_ms) {
    const std::size_t dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), value);
    if (whole.empty() || error != std::errc() || end != whole.data() + whole.size() || value < 0 ||
        value > INT64_MAX / unit_ms / 2) {
        return std::nullopt;
    }
    std::int64_t ms = value * unit_ms;
    if (dot != std::string_view::npos) {
        const std::string_view fraction = text.substr(dot + 1);
        std::int64_t numerator = 0;
        std::int64_t denominator = 1;
        for (std::size_t i = 0; i < fraction.size(); ++i) {
            const char c = fraction[i];
            if (c < '0' || c > '9') {
                return std::nullopt;
            }
            if (i < 9) {  // finer digits cannot change a whole millisecond
                numerator = numerator * 10 + (c - '0');
                denominator *= 10;
            }
        }
        ms += numerator * unit_ms / denominator;
    }
    return ms;
}

}  // namespace

std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) {
    // Howard Hinnant's algorithm: count in 400-year eras starting in March.
    year -= month <= 2;
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const auto year_of_era = static_cast<unsigned>(year - era * 400);
    const unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const unsigned day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + static_cast<std::int64_t>(day_of_era) - 719468;
}

std::optional<std::int64_t> parse_iso8601_ms(std::string_view text) {
    std::size_t pos = 0;
    const auto year = fixed_digits(text, pos, 4);
    if (!year || !expect(text, pos, '-')) {
        return std::nullopt;
    }
    const auto month = fixed_digits(text, pos, 2);
    if (!month || !expect(text, pos, '-')) {
        return std::nullopt;
    }
    const auto day = fixed_digits(text, pos, 2);
    if (!day) {
        return std::nullopt;
    }
    if (pos == text.size()) {
        return civil_ms(*year, *month, *day, 0, 0, 0);
    }
    if (!expect(text, pos, 'T') && !expect(text, pos, 't') && !expect(text, pos, ' ')) {
        return std::nullopt;
    }
    const auto hour = fixed_digits(text, pos, 2);
    const bool colon1 = expect(text, pos, ':');
    const auto minute = fixed_digits(text, pos, 2);
    const bool colon2 = expect(text, pos, ':');
    const auto second = fixed_digits(text, pos, 2);
    if (!hour || !colon1 || !minute || !colon2 || !second) {
        return std::nullopt;
    }
    std::int64_t ms = 0;
    if (expect(text, pos, '.') || expect(text, pos, ',')) {
        std::int64_t scale = 100;
        const std::size_t start = pos;
        for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
            ms += (text[pos] - '0') * scale;
            scale /= 10;
        }
        if (pos == start) {
            return std::nullopt;
        }
    }
    std::int64_t offset = 0;
    if (pos < text.size()) {
        const auto zone = zone_offset_ms(text, pos);
        if (!zone || pos != text.size()) {
            return std::nullopt;
        }
        offset = *zone;
    }
    const auto base = civil_ms(*year, *month, *day, *hour, *minute, *second);
    return base ? std::optional<std::int64_t>(*base + ms - offset) : std::nullopt;
}

std::optional<std::int64_t> parse_clf_time_ms(std::string_view text) {
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::size_t pos = 0;
    const auto day = fixed_digits(text, pos, 2);
    if (!day || !expect(text, pos, '/') || pos + 3 > text.size()) {
        return std::nullopt;
    }
    unsigned month = 0;
    for (unsigned m = 0; m < 12; ++m) {
        if (text.substr(pos, 3) == kMonths[m]) {
            month = m + 1;
        }
    }
    pos += 3;
    if (month == 0 || !expect(text, pos, '/')) {
        return std::nullopt;
    }
    const auto year = fixed_digits(text, pos, 4);
    const bool c0 = expect(text, pos, ':');
    const auto hour = fixed_digits(text, pos, 2);
    const bool c1 = expect(text, pos, ':');
    const auto minute = fixed_digits(text, pos, 2);
    const bool c2 = expect(text, pos, ':');
    const auto second = fixed_digits(text, pos, 2);
    if (!year || !c0 || !hour || !c1 || !minute || !c2 || !second || !expect(text, pos, ' ')) {
        return std::nullopt;
    }
    const auto zone = zone_offset_ms(text, pos);
    const auto base = civil_ms(*year, month, *day, *hour, *minute, *second);
    if (!zone || !base || pos != text.size()) {
        return std::nullopt;
    }
    return *base - *zone;
}

std::optional<std::int64_t> parse_time_ms(std::string_view text, TimeUnit unit) {
    switch (unit) {
        case TimeUnit::kSeconds:
            return decimal_ms(text, 1000);
        case TimeUnit::kMilliseconds:
            return decimal_ms(text, 1);
        case TimeUnit::kIso8601:
            return parse_iso8601_ms(text);
        case TimeUnit::kAuto:
            break;
    }
    if (!text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos) {
        const auto whole = decimal_ms(text.substr(0, text.find('.')), 1);
        if (whole && *whole >= kMillisecondsFrom) {
            return decimal_ms(text, 1);
        }
        return decimal_ms(text, 1000);
    }
    return parse_iso8601_ms(text);
}

}  // namespace ratelab::io::detail

namespace ratelab::io::detail {

std::string format_iso8601_ms(std::int64_t ms) {
    std::int64_t days = ms / kMsPerDay;
    std::int64_t rest = ms % kMsPerDay;
    if (rest < 0) {
        rest += kMsPerDay;
        --days;
    }
    // The inverse of days_from_civil (same era arithmetic).
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto day_of_era = static_cast<unsigned>(z - era * 146097);
    const unsigned year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const unsigned day_of_year =
        day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const unsigned mp = (5 * day_of_year + 2) / 153;
    const unsigned day = day_of_year - (153 * mp + 2) / 5 + 1;
    const unsigned month = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t year = static_cast<std::int64_t>(year_of_era) + era * 400 + (month <= 2);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ",
                  static_cast<long long>(year), month, day,
                  static_cast<long long>(rest / 3'600'000),
                  static_cast<long long>(rest / 60'000 % 60),
                  static_cast<long long>(rest / 1000 % 60), static_cast<long long>(rest % 1000));
    return buffer;
}

}  // namespace ratelab::io::detail
