#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace ratelab {

/// 128-bit intermediate for products of two validated 64-bit quantities.
__extension__ using Int128 = __int128;

/// An exact fraction num/den with den > 0, always kept in lowest terms.
///
/// Every rate, interval, delay and retry time in the core is a Rational, so no decision ever
/// depends on floating point. Decimals appear only when a value is formatted for display.
class Rational {
public:
    constexpr Rational() = default;
    /// A whole number of ticks (or tokens).
    constexpr Rational(std::int64_t whole) : num_(whole) {}  // NOLINT: implicit on purpose
    /// num/den reduced to lowest terms; den must not be 0.
    Rational(std::int64_t num, std::int64_t den) {
        // Whole ticks are most times in a run: no call and no gcd for them.
        if (den == 1 && num != std::numeric_limits<std::int64_t>::min()) {
            num_ = num;
        } else {
            reduce_from(num, den);
        }
    }

    std::int64_t num() const { return num_; }
    std::int64_t den() const { return den_; }
    bool is_integer() const { return den_ == 1; }

    /// Largest integer <= value, smallest integer >= value.
    std::int64_t floor() const;
    std::int64_t ceil() const;
    double to_double() const { return static_cast<double>(num_) / static_cast<double>(den_); }

    /// "5/2" or "3": the exact form used in files.
    std::string to_string() const;
    /// Decimal with exactly `places` digits, rounded half away from zero: "2.40".
    std::string to_fixed(int places) const;
    /// Shortest decimal up to `max_places` digits, trailing zeros trimmed: "13.5", "6", "0.33".
    std::string to_short(int max_places = 2) const;

    /// num/den computed in 128 bits: exact whenever the reduced fraction fits in 64 bits, else
    /// rounded up to a multiple of 10^-6 (never below the exact value).
    static Rational from_wide(Int128 num, Int128 den);

    /// Parses "3", "-3", "5/2"; returns nothing for anything else or a zero denominator.
    static std::optional<Rational> parse(std::string_view text);

    friend Rational operator+(const Rational& a, const Rational& b);
    friend Rational operator-(const Rational& a, const Rational& b);
    friend Rational operator*(const Rational& a, const Rational& b);
    friend Rational operator/(const Rational& a, const Rational& b);
    friend bool operator==(const Rational& a, const Rational& b) = default;
    friend std::strong_ordering operator<=>(const Rational& a, const Rational& b);

private:
    void reduce_from(std::int64_t num, std::int64_t den);

    std::int64_t num_ = 0;
    std::int64_t den_ = 1;
};

}  // namespace ratelab
