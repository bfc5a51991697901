#include "ratelab/rational.h"
#include "catch.h"

using ratelab::Rational;

TEST_CASE("rationals are kept in lowest terms with a positive denominator") {
    const Rational r(10, -4);
    CHECK(r.num() == -5);
    CHECK(r.den() == 2);
    CHECK(Rational(6, 3) == Rational(2));
    CHECK_THROWS(Rational(1, 0));
}

TEST_CASE("rational arithmetic and ordering are exact") {
    // The float classic: 0.1 + 0.2 is exactly 0.3 here.
    CHECK(Rational(1, 10) + Rational(2, 10) == Rational(3, 10));
    CHECK(Rational(5, 2) * Rational(2, 5) == Rational(1));
    CHECK(Rational(1, 3) - Rational(1, 2) == Rational(-1, 6));
    CHECK(Rational(7, 2) / Rational(7, 4) == Rational(2));
    CHECK(Rational(1, 3) < Rational(34, 100));
    CHECK(Rational(-1, 2) < Rational(0));
}

TEST_CASE("floor and ceil round toward the right integer for both signs") {
    CHECK(Rational(5, 2).floor() == 2);
    CHECK(Rational(5, 2).ceil() == 3);
    CHECK(Rational(-5, 2).floor() == -3);
    CHECK(Rational(-5, 2).ceil() == -2);
    CHECK(Rational(4).ceil() == 4);
}

TEST_CASE("rationals format exactly for files and rounded for display") {
    CHECK(Rational(5, 2).to_string() == "5/2");
    CHECK(Rational(3).to_string() == "3");
    CHECK(Rational(12, 5).to_fixed(2) == "2.40");
    CHECK(Rational(2, 3).to_fixed(2) == "0.67");
    CHECK(Rational(-1, 8).to_fixed(2) == "-0.13");
    CHECK(Rational(27, 2).to_short() == "13.5");
    CHECK(Rational(6).to_short() == "6");
    CHECK(Rational(1, 3).to_short() == "0.33");
}

TEST_CASE("rationals parse the forms trace files use") {
    CHECK(Rational::parse("5/2") == Rational(5, 2));
    CHECK(Rational::parse("-3") == Rational(-3));
    CHECK_FALSE(Rational::parse("1/0"));
    CHECK_FALSE(Rational::parse("1.5"));
    CHECK_FALSE(Rational::parse("2/"));
    CHECK_FALSE(Rational::parse(""));
}

TEST_CASE("wide fractions stay exact when they fit and round up when they do not") {
    using ratelab::Int128;
    CHECK(Rational::from_wide(Int128(10), Int128(4)) == Rational(5, 2));
    const Int128 huge = Int128(1) << 100;
    const Rational rounded = Rational::from_wide(huge + 1, huge);
    CHECK(rounded.den() <= 1'000'000);
    CHECK(rounded > Rational(1));
    CHECK(rounded <= Rational(1'000'001, 1'000'000));
}
