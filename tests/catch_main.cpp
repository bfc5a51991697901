// Catch2 2 needs one translation unit to define main(); Catch2 3 links Catch2::Catch2WithMain.
#if !__has_include(<catch2/catch_all.hpp>)
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
