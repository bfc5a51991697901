#pragma once
// The one place that includes Catch2, so that both Catch2 2.13 (Debian 12) and Catch2 3 build.
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif

#include <string>

namespace ratelab::test {
/// A "message contains" matcher under the name both Catch2 versions understand.
inline auto contains(const std::string& text) {
#if __has_include(<catch2/catch_all.hpp>)
    return Catch::Matchers::ContainsSubstring(text);
#else
    return Catch::Contains(text);
#endif
}
}  // namespace ratelab::test
