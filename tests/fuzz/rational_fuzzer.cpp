// Fuzzes Rational, the exact arithmetic every decision rests on, over the whole 64-bit range:
// each result is either exact (checked in 128 bits) or a clean overflow_error/domain_error,
// never undefined behaviour; parsing and printing round-trip.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz_support.h"
#include "ratelab/rational.h"

using ratelab::Int128;
using ratelab::Rational;

namespace {

Int128 gcd(Int128 a, Int128 b) {
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b != 0) {
        const Int128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/// num/den in lowest terms with a positive denominator; den != 0.
std::pair<Int128, Int128> reduced(Int128 num, Int128 den) {
    if (den < 0) {
        num = -num;
        den = -den;
    }
    const Int128 g = gcd(num, den);
    return {num / g, den / g};
}

bool fits(Int128 num, Int128 den) {
    const auto [n, d] = reduced(num, den);
    constexpr Int128 kMax = std::numeric_limits<std::int64_t>::max();
    return n <= kMax && n >= -kMax && d <= kMax;
}

bool equals(const Rational& r, Int128 num, Int128 den) {
    return reduced(num, den) == std::pair<Int128, Int128>(r.num(), r.den());
}

void check_shape(const Rational& r) {
    FUZZ_CHECK(r.den() > 0 && gcd(r.num(), r.den()) == 1, r.to_string());
}

/// `op` gives `r`, which must equal num/den exactly, or throws only when num/den cannot be held.
template <class Op>
void check_exact(const char* name, Op op, Int128 num, Int128 den) {
    try {
        const Rational r = op();
        check_shape(r);
        FUZZ_CHECK(den != 0 && equals(r, num, den), name);
    } catch (const std::overflow_error&) {
        FUZZ_CHECK(!fits(num, den), name << ": overflow_error for a value that fits");
    } catch (const std::domain_error&) {
        FUZZ_CHECK(den == 0, name << ": domain_error with a nonzero denominator");
    }
}

Rational consume(FuzzedDataProvider& data) {
    for (;;) {
        const auto num = data.ConsumeIntegral<std::int64_t>();
        const auto den = data.ConsumeIntegral<std::int64_t>();
        if (den == 0)
            return Rational(num);
        try {
            return Rational(num, den);
        } catch (const std::overflow_error&) {
            FUZZ_CHECK(!fits(num, den), "Rational(" << num << ", " << den << ") threw");
            if (data.remaining_bytes() == 0)
                return Rational(0);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    FuzzedDataProvider data(bytes, size);
    const std::string text = data.ConsumeRandomLengthString(48);
    if (const auto parsed = Rational::parse(text)) {
        check_shape(*parsed);
        FUZZ_CHECK(Rational::parse(parsed->to_string()) == parsed, text);
    }
    const Rational a = consume(data);
    const Rational b = consume(data);
    check_shape(a);
    check_shape(b);
    const Int128 an = a.num(), ad = a.den(), bn = b.num(), bd = b.den();
    check_exact(
        "+", [&] { return a + b; }, an * bd + bn * ad, ad * bd);
    check_exact(
        "-", [&] { return a - b; }, an * bd - bn * ad, ad * bd);
    check_exact(
        "*", [&] { return a * b; }, an * bn, ad * bd);
    check_exact(
        "/", [&] { return a / b; }, an * bd, ad * bn);
    FUZZ_CHECK((a < b) == (an * bd < bn * ad), a.to_string() << " < " << b.to_string());

    const Int128 floor = a.floor();
    FUZZ_CHECK(floor * ad <= an && an < (floor + 1) * ad, a.to_string());
    const Int128 ceil = a.ceil();
    FUZZ_CHECK(ceil - floor == (ad == 1 ? 0 : 1), a.to_string());

    const int places = data.ConsumeIntegralInRange<int>(0, 18);
    const std::string fixed = a.to_fixed(places);
    FUZZ_CHECK(!fixed.empty() && (places == 0 || fixed.find('.') != std::string::npos), fixed);
    FUZZ_CHECK(!a.to_short(places).empty(), a.to_string());

    // from_wide: exact when the reduced fraction fits, else at most 10^-6 above the value.
    const Int128 wide_num = an * data.ConsumeIntegralInRange<std::int64_t>(1, 1'000'000'000);
    const Int128 wide_den = ad * data.ConsumeIntegralInRange<std::int64_t>(1, 1'000'000'000);
    try {
        const Rational w = Rational::from_wide(wide_num, wide_den);
        check_shape(w);
        if (fits(wide_num, wide_den)) {
            FUZZ_CHECK(equals(w, wide_num, wide_den), "from_wide not exact");
        } else {
            FUZZ_CHECK(w.den() == 1'000'000 || 1'000'000 % w.den() == 0, w.to_string());
        }
    } catch (const std::overflow_error&) {
        FUZZ_CHECK(!fits(wide_num, wide_den), "from_wide threw for a value that fits");
    }
    return 0;
}
