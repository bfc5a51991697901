#include "ratelab/rational.h"

#include <charconv>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace ratelab {
namespace {

Int128 gcd128(Int128 a, Int128 b) {
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b != 0) {
        Int128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

constexpr Int128 kMax64 = std::numeric_limits<std::int64_t>::max();

/// Brings a 128-bit fraction to lowest terms with a positive denominator.
void reduce(Int128& num, Int128& den) {
    if (den == 0)
        throw std::domain_error("rational with zero denominator");
    if (den < 0) {
        num = -num;
        den = -den;
    }
    const Int128 g = gcd128(num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
}

bool fits64(Int128 num, Int128 den) {
    return num <= kMax64 && num >= -kMax64 && den <= kMax64;
}

/// Reduces a 128-bit fraction and narrows it; validated inputs always fit.
Rational narrow(Int128 num, Int128 den) {
    reduce(num, den);
    if (!fits64(num, den))
        throw std::overflow_error("rational value out of 64-bit range");
    return Rational(static_cast<std::int64_t>(num), static_cast<std::int64_t>(den));
}

std::string to_string128(Int128 value) {
    if (value == 0)
        return "0";
    const bool negative = value < 0;
    if (negative)
        value = -value;
    std::string digits;
    while (value > 0) {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
        value /= 10;
    }
    return negative ? "-" + digits : digits;
}

}  // namespace

void Rational::reduce_from(std::int64_t num, std::int64_t den) {
    if (den == 0)
        throw std::domain_error("rational with zero denominator");
    if (den < 0 || num == std::numeric_limits<std::int64_t>::min()) {
        // In 128 bits: std::gcd and the sign flip would negate INT64_MIN, which 64 bits cannot.
        *this = den < 0 ? narrow(-static_cast<Int128>(num), -static_cast<Int128>(den))
                        : narrow(num, den);
        return;
    }
    // gcd(num, den) = gcd(num mod den, den): one division brings a large numerator (a time in
    // fine units) down to the size of the denominator before the gcd loop.
    const std::int64_t g = std::gcd(num % den, den);
    num_ = g > 1 ? num / g : num;
    den_ = g > 1 ? den / g : den;
}

std::int64_t Rational::floor() const {
    std::int64_t q = num_ / den_;
    if (num_ % den_ != 0 && num_ < 0)
        --q;
    return q;
}

std::int64_t Rational::ceil() const {
    std::int64_t q = num_ / den_;
    if (num_ % den_ != 0 && num_ > 0)
        ++q;
    return q;
}

std::string Rational::to_string() const {
    return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

std::string Rational::to_fixed(int places) const {
    Int128 scale = 1;
    for (int i = 0; i < places; ++i)
        scale *= 10;
    const bool negative = num_ < 0;
    const Int128 magnitude = negative ? -static_cast<Int128>(num_) : static_cast<Int128>(num_);
    // Round half away from zero on the exact value.
    const Int128 scaled = (magnitude * scale * 2 + den_) / (static_cast<Int128>(den_) * 2);
    std::string whole = to_string128(scaled / scale);
    std::string result = (negative && scaled != 0 ? "-" : "") + whole;
    if (places > 0) {
        std::string frac = to_string128(scaled % scale);
        frac.insert(frac.begin(), static_cast<std::size_t>(places) - frac.size(), '0');
        result += "." + frac;
    }
    return result;
}

std::string Rational::to_short(int max_places) const {
    std::string text = to_fixed(max_places);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    if (text == "-0")
        text = "0";
    return text;
}

Rational Rational::from_wide(Int128 num, Int128 den) {
    if (den > 0 && fits64(num, den))  // the common case: a 64-bit gcd
        return Rational(static_cast<std::int64_t>(num), static_cast<std::int64_t>(den));
    reduce(num, den);
    if (fits64(num, den))
        return Rational(static_cast<std::int64_t>(num), static_cast<std::int64_t>(den));
    constexpr Int128 kMicro = 1'000'000;
    Int128 scaled = num * kMicro / den;
    if (scaled * den < num * kMicro)
        ++scaled;  // round toward +infinity
    return narrow(scaled, kMicro);
}

std::optional<Rational> Rational::parse(std::string_view text) {
    auto parse_int = [](std::string_view part) -> std::optional<std::int64_t> {
        std::int64_t value = 0;
        if (part.empty())
            return std::nullopt;
        auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (error != std::errc() || end != part.data() + part.size())
            return std::nullopt;
        return value;
    };
    const auto slash = text.find('/');
    if (slash == std::string_view::npos) {
        auto whole = parse_int(text);
        if (!whole)
            return std::nullopt;
        return Rational(*whole);
    }
    auto num = parse_int(text.substr(0, slash));
    auto den = parse_int(text.substr(slash + 1));
    if (!num || !den || *den == 0)
        return std::nullopt;
    try {
        return Rational(*num, *den);
    } catch (const std::overflow_error&) {  // "-9223372036854775808/-1" is 2^63
        return std::nullopt;
    }
}

Rational operator+(const Rational& a, const Rational& b) {
    return narrow(static_cast<Int128>(a.num_) * b.den_ + static_cast<Int128>(b.num_) * a.den_,
                  static_cast<Int128>(a.den_) * b.den_);
}

Rational operator-(const Rational& a, const Rational& b) {
    return narrow(static_cast<Int128>(a.num_) * b.den_ - static_cast<Int128>(b.num_) * a.den_,
                  static_cast<Int128>(a.den_) * b.den_);
}

Rational operator*(const Rational& a, const Rational& b) {
    return narrow(static_cast<Int128>(a.num_) * b.num_, static_cast<Int128>(a.den_) * b.den_);
}

Rational operator/(const Rational& a, const Rational& b) {
    return narrow(static_cast<Int128>(a.num_) * b.den_, static_cast<Int128>(a.den_) * b.num_);
}

std::strong_ordering operator<=>(const Rational& a, const Rational& b) {
    return static_cast<Int128>(a.num_) * b.den_ <=> static_cast<Int128>(b.num_) * a.den_;
}

}  // namespace ratelab
