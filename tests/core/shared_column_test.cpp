// The chunked column that key figures are held in (ratelab/shared_column.h): read as a vector,
// with copies sharing chunks, and a change to a copy copying only the chunk it falls in.
#include "ratelab/shared_column.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "catch.h"

using namespace ratelab;

namespace {

constexpr std::size_t kChunk = SharedColumn<int>::kChunk;

/// Whether `column` reads as `expected` by index, through its iterators and at its ends.
bool holds(const SharedColumn<int>& column, const std::vector<int>& expected) {
    if (column.size() != expected.size() || column.empty() != expected.empty())
        return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (column[i] != expected[i] || column.at(i) != expected[i])
            return false;
    }
    if (!expected.empty() &&
        (column.front() != expected.front() || column.back() != expected.back()))
        return false;
    return std::equal(column.begin(), column.end(), expected.begin(), expected.end()) &&
           column.end() - column.begin() == static_cast<std::ptrdiff_t>(expected.size());
}

std::vector<int> counting(std::size_t size) {
    std::vector<int> values(size);
    std::iota(values.begin(), values.end(), 0);
    return values;
}

}  // namespace

TEST_CASE("a shared column reads as the values it was made from") {
    for (const std::size_t size :
         {std::size_t{0}, std::size_t{1}, kChunk - 1, kChunk, kChunk + 1, 3 * kChunk + 17}) {
        INFO("size " << size);
        CHECK(holds(SharedColumn<int>(counting(size)), counting(size)));
        SharedColumn<int> pushed;
        for (const int value : counting(size))
            pushed.push_back(value);
        CHECK(holds(pushed, counting(size)));
        CHECK(pushed == SharedColumn<int>(counting(size)));
        SharedColumn<int> filled = SharedColumn<int>::filled(size);
        CHECK(holds(filled, std::vector<int>(size, 0)));
        for (std::size_t i = 0; i < size; ++i)
            filled.edit(i) = static_cast<int>(i);
        CHECK(holds(filled, counting(size)));
    }
    const SharedColumn<int> some(counting(10));
    CHECK_THROWS_AS(some.at(10), std::out_of_range);
    // Found by a binary search, as the figures of a key are.
    CHECK(std::lower_bound(some.begin(), some.end(), 7) - some.begin() == 7);
}

TEST_CASE("a change to a copy of a shared column copies only its chunk") {
    const std::vector<int> values = counting(4 * kChunk + 5);  // five chunks
    const SharedColumn<int> before(values);
    SharedColumn<int> after = before;
    CHECK(after.shared_with(before) == 5);
    after.edit(kChunk + 3) = -1;
    after.edit(kChunk + 900) = -2;  // the same chunk: copied once
    std::vector<int> expected = values;
    expected[kChunk + 3] = -1;
    expected[kChunk + 900] = -2;
    CHECK(holds(after, expected));
    CHECK(holds(before, values));  // the column copied from is as it was
    CHECK(after.shared_with(before) == 4);
    CHECK(before.shared_with(after) == 4);
    CHECK_FALSE(after == before);
    // Equal values in other chunks are equal columns.
    after.edit(kChunk + 3) = values[kChunk + 3];
    after.edit(kChunk + 900) = values[kChunk + 900];
    CHECK(after == before);

    // Appending to a copy leaves the shared last chunk of the other as it was.
    SharedColumn<int> longer = before;
    longer.push_back(-3);
    CHECK(holds(before, values));
    expected = values;
    expected.push_back(-3);
    CHECK(holds(longer, expected));
    CHECK(longer.shared_with(before) == 4);

    // A column that holds a chunk alone changes it where it is; one that shares it does not.
    SharedColumn<int> alone(values);
    const int* const first = &alone[0];
    alone.edit(0) = 5;
    CHECK(&alone[0] == first);
    const SharedColumn<int> copy = alone;
    alone.edit(1) = 6;
    CHECK(&alone[0] != first);
    CHECK(&copy[0] == first);
}
