// The chunked column of a trace's requests (ratelab/request_column.h): read as a vector, edited
// as one, with copies sharing chunks. Checked against std::vector over seeded random edits; a
// failure prints the seed and the step.
#include "ratelab/request_column.h"

#include <algorithm>
#include <random>
#include <vector>

#include "catch.h"
#include "test_support.h"

using namespace ratelab;
using ratelab::test::base_seed;

namespace {

constexpr std::size_t kChunk = RequestColumn::kChunk;

/// Whether `column` reads as `expected` every way it can be read, and keeps its chunks within
/// their bounds.
bool holds(const RequestColumn& column, const std::vector<Request>& expected) {
    if (column.size() != expected.size() || column.empty() != expected.empty())
        return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!(column[i] == expected[i]))
            return false;
    }
    if (!std::equal(column.begin(), column.end(), expected.begin(), expected.end()))
        return false;
    // The contiguous stretches are the chunks: each but the last within [kLeast, kMost].
    std::size_t at = 0;
    while (at < column.size()) {
        const std::span<const Request> piece = column.contiguous(at, column.size());
        if (piece.empty() || piece.size() > RequestColumn::kMost)
            return false;
        if (at + piece.size() < column.size() && piece.size() < RequestColumn::kLeast)
            return false;
        if (!std::equal(piece.begin(), piece.end(), expected.begin() + static_cast<long>(at)))
            return false;
        at += piece.size();
    }
    return expected.empty() ||
           (column.front() == expected.front() && column.back() == expected.back() &&
            column == RequestColumn(expected));
}

Request request(std::mt19937_64& rng) {
    return Request{static_cast<Tick>(rng() % 1'000'000), static_cast<std::uint32_t>(1 + rng() % 9),
                   static_cast<KeyId>(rng() % 4)};
}

}  // namespace

TEST_CASE("request column: random edits read as they do on a vector") {
    const std::uint64_t seed0 = base_seed();
    for (int n = 0; n < 6; ++n) {
        const std::uint64_t seed = seed0 + static_cast<std::uint64_t>(n);
        INFO("seed " << seed << " (RATELAB_PROPERTY_SEED=" << seed << ")");
        std::mt19937_64 rng(seed);
        std::vector<Request> expected;
        RequestColumn column;
        const auto index = [&](std::size_t size) { return size == 0 ? 0 : rng() % (size + 1); };
        for (int step = 0; step < 400; ++step) {
            INFO("step " << step);
            const RequestColumn previous = column;
            const std::vector<Request> previous_expected = expected;
            const Request r = request(rng);
            switch (rng() % 9) {
                case 0:  // a run of requests at the end
                    for (std::size_t k = rng() % (3 * kChunk); k > 0; --k) {
                        const Request more = request(rng);
                        column.push_back(more);
                        expected.push_back(more);
                    }
                    break;
                case 1: {
                    const std::size_t at = index(expected.size());
                    const auto it = column.insert(column.begin() + static_cast<long>(at), r);
                    REQUIRE(it - column.begin() == static_cast<long>(at));
                    expected.insert(expected.begin() + static_cast<long>(at), r);
                    break;
                }
                case 2: {  // a stretch taken out
                    const std::size_t from = index(expected.size());
                    const std::size_t to = std::min(expected.size(), from + rng() % (2 * kChunk));
                    column.erase(column.begin() + static_cast<long>(from),
                                 column.begin() + static_cast<long>(to));
                    expected.erase(expected.begin() + static_cast<long>(from),
                                   expected.begin() + static_cast<long>(to));
                    break;
                }
                case 3:  // one request changed in place, in a copy that shares the chunks
                    if (!expected.empty()) {
                        const std::size_t at = rng() % expected.size();
                        const RequestColumn before = column;
                        const std::vector<Request> was = expected;
                        column[at] = r;
                        expected[at] = r;
                        REQUIRE(holds(before, was));  // the copy does not see the change
                    }
                    break;
                case 4: {  // rebuilt from stretches of itself, as an edit is
                    RequestColumn rebuilt;
                    std::vector<Request> model;
                    std::size_t at = 0;
                    while (at < expected.size()) {
                        const std::size_t to =
                            std::min(expected.size(), at + 1 + rng() % (3 * kChunk));
                        rebuilt.append(column, at, to);
                        model.insert(model.end(), expected.begin() + static_cast<long>(at),
                                     expected.begin() + static_cast<long>(to));
                        if (rng() % 2 == 0) {
                            rebuilt.push_back(r);
                            model.push_back(r);
                        }
                        at = to;
                    }
                    column = std::move(rebuilt);
                    expected = std::move(model);
                    break;
                }
                case 5:
                    column.resize(index(expected.size()));
                    expected.resize(column.size());
                    break;
                case 6: {  // a moved-from column is empty and usable
                    RequestColumn taken = std::move(column);
                    REQUIRE(column.empty());
                    column.push_back(r);
                    column = std::move(taken);
                    break;
                }
                default:
                    column.push_back(r);
                    expected.push_back(r);
                    break;
            }
            REQUIRE(holds(column, expected));
            // What is the same at either end as before the step, as resimulate() asks.
            const std::size_t common = std::min(expected.size(), previous_expected.size());
            const std::size_t prefix = static_cast<std::size_t>(
                std::mismatch(expected.begin(), expected.begin() + static_cast<long>(common),
                              previous_expected.begin())
                    .first -
                expected.begin());
            REQUIRE(column.common_prefix(previous) == prefix);
            const std::size_t most = common - prefix;
            const std::size_t suffix = static_cast<std::size_t>(
                std::mismatch(expected.rbegin(), expected.rbegin() + static_cast<long>(most),
                              previous_expected.rbegin())
                    .first -
                expected.rbegin());
            REQUIRE(column.common_suffix(previous, most) == suffix);
            if (!expected.empty()) {
                const std::size_t at = rng() % expected.size();
                REQUIRE(column.at(at) == expected[at]);
                const auto it = column.begin() + static_cast<long>(at);
                REQUIRE(*it == expected[at]);
                REQUIRE(it[0] == expected[at]);
                REQUIRE((it - 1 + 1) - column.begin() == static_cast<long>(at));
            }
            REQUIRE_THROWS_AS(column.at(expected.size()), std::out_of_range);
        }
    }
}

TEST_CASE("request column: an edit of a long column copies the chunks around it only") {
    RequestColumn column;
    for (Tick t = 0; t < 1'000'000; ++t)
        column.push_back(Request{t, 1, 0});
    const std::size_t chunks = column.chunks();
    CHECK(chunks == 1'000'000 / kChunk + 1);
    CHECK(column.shared_chunks(RequestColumn(column)) == chunks);  // a copy shares them all

    // An insertion, as the app's edits make it: the stretch before, the request, the rest.
    RequestColumn inserted;
    inserted.append(column, 0, 500'000);
    inserted.push_back(Request{500'000, 2, 0});
    inserted.append(column, 500'000, column.size());
    CHECK(inserted.shared_chunks(column) >= chunks - 1);
    CHECK(inserted.size() == column.size() + 1);
    CHECK(inserted[500'000].cost == 2);
    CHECK(inserted[500'001].tick == 500'000);

    // A request removed and one changed in place, each in its own chunk.
    RequestColumn edited = inserted;
    edited.erase(edited.begin() + 10);
    edited[900'000].cost = 5;
    CHECK(edited.shared_chunks(inserted) >= edited.chunks() - 2);
    CHECK(inserted[900'000].cost == 1);
    CHECK(edited[900'000].cost == 5);
    CHECK(edited[10].tick == 11);

    // Many edits in one place: the chunk there splits instead of growing, and may take in the
    // chunk after it when a split leaves a short one.
    for (int k = 0; k < 20'000; ++k)
        edited.insert(edited.begin() + 700'000, Request{700'000, 1, 0});
    CHECK(edited.shared_chunks(inserted) >= chunks - 4);
    CHECK(edited[700'000].cost == 1);
    CHECK(edited.size() == inserted.size() + 19'999);
    for (std::size_t at = 0; at < edited.size(); at += RequestColumn::kLeast)
        REQUIRE(edited.contiguous(at, edited.size()).size() <= RequestColumn::kMost);
}

TEST_CASE("request column: chunks are told apart by identity, and found by place") {
    RequestColumn column;
    for (Tick t = 0; t < 100'000; ++t)
        column.push_back(Request{t, 1, 0});
    // Each chunk's stretch: the chunks tile the column, and each request is found in its own.
    CHECK(column.chunk_start(0) == 0);
    CHECK(column.chunk_start(column.chunks()) == column.size());
    for (std::size_t c = 0; c < column.chunks(); ++c) {
        REQUIRE(column.chunk_start(c) < column.chunk_start(c + 1));
        const std::span<const Request> held =
            column.contiguous(column.chunk_start(c), column.size());
        REQUIRE(held.size() == column.chunk_start(c + 1) - column.chunk_start(c));
        REQUIRE(column.chunk_holding(column.chunk_start(c)) == c);
        REQUIRE(column.chunk_holding(column.chunk_start(c + 1) - 1) == c);
    }
    CHECK(RequestColumn().chunk_start(0) == 0);

    // A copy sees the same identities; a request changed in the copy gives its chunk a new one
    // there, and leaves the original's as it was.
    RequestColumn copy = column;
    for (std::size_t c = 0; c < column.chunks(); ++c)
        REQUIRE(copy.chunk_identity(c) == column.chunk_identity(c));
    copy[50'000].cost = 3;
    const std::size_t changed = copy.chunk_holding(50'000);
    for (std::size_t c = 0; c < column.chunks(); ++c)
        REQUIRE((copy.chunk_identity(c) == column.chunk_identity(c)) == (c != changed));
    CHECK(column[50'000].cost == 1);
}

TEST_CASE("request column: binary searches over its iterators find what they find in a vector") {
    std::mt19937_64 rng(base_seed());
    std::vector<Request> requests(50'000);
    Tick tick = 0;
    for (Request& r : requests) {
        tick += static_cast<Tick>(rng() % 3);
        r.tick = tick;
    }
    const RequestColumn column(requests);
    const auto before = [](Tick t, const Request& r) { return t < r.tick; };
    for (int probe = 0; probe < 2'000; ++probe) {
        const Tick t = static_cast<Tick>(rng() % static_cast<std::uint64_t>(tick + 2));
        const auto in_column = std::upper_bound(column.begin(), column.end(), t, before);
        const auto in_vector = std::upper_bound(requests.begin(), requests.end(), t, before);
        REQUIRE(in_column - column.begin() == in_vector - requests.begin());
    }
}
