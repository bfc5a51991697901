#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ratelab/io/generators.h"
#include "ratelab/rational.h"

namespace ratelab::io::detail {

/// The parameter values of one generate_pattern() call, with their defaults filled in, read as
/// the type each parameter needs. Throws GeneratorError naming the parameter.
class PatternArgs {
public:
    PatternArgs(const PatternInfo& info, const std::map<std::string, std::string>& values);

    std::int64_t integer(const std::string& name, std::int64_t min, std::int64_t max) const;
    /// "3", "5/2" or "0.25", exactly; must lie in [min, max].
    Rational rational(const std::string& name, const Rational& min, const Rational& max) const;
    const std::string& text(const std::string& name) const;

private:
    std::string pattern_;
    std::map<std::string, std::string> values_;
};

/// "0.25" -> 1/4, "5/2" -> 5/2, "3" -> 3; nothing for anything else.
std::optional<Rational> parse_decimal_or_fraction(const std::string& text);

/// A small deterministic random source (SplitMix64), identical on every platform.
class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1), from the top 53 bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in [0, bound).
    std::uint64_t below(std::uint64_t bound) {
        __extension__ using U128 = unsigned __int128;
        return static_cast<std::uint64_t>((static_cast<U128>(next()) * bound) >> 64);
    }

private:
    std::uint64_t state_;
};

}  // namespace ratelab::io::detail
