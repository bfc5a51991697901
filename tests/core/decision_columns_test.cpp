// Decision columns: what is written is read back exactly, however it is chunked, and stretches
// taken over from another run share its chunks instead of copying them.

#include <random>
#include <vector>

#include "catch.h"
#include "ratelab/decision_columns.h"
#include "test_support.h"

namespace ratelab {
namespace {

using Outcome = DecisionColumns::Outcome;

/// The plain columns the chunked ones must agree with.
struct Model {
    std::vector<Outcome> outcomes;
    std::vector<Rational> durations;
};

/// A duration of the kinds runs produce: mostly 0 or small whole numbers, some on one or two
/// fine grids, and now and then one too large for 32 bits or off every grid.
Rational random_duration(std::mt19937_64& rng) {
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
        case 0:
        case 1:
        case 2:
            return Rational();
        case 3:
        case 4:
            return Rational(std::uniform_int_distribution<std::int64_t>(1, 40)(rng));
        case 5:
            return Rational(std::uniform_int_distribution<std::int64_t>(1, 90)(rng), 6);
        case 6:
            return Rational(std::uniform_int_distribution<std::int64_t>(1, 90)(rng), 4);
        case 7: {
            // Too large for the grid: a fraction; a whole number that only the grid makes too
            // large; one whose product with the grid is past 64 bits.
            const int which = std::uniform_int_distribution<int>(0, 2)(rng);
            return which == 0   ? Rational(std::int64_t{1} << 40, 3)
                   : which == 1 ? Rational(std::int64_t{1} << 30)
                                : Rational(std::int64_t{1} << 62);
        }
        case 8:
            return Rational(7, 1000003);  // off every grid the others make
        default:
            return Rational(std::uniform_int_distribution<std::int64_t>(1, 5)(rng), 10);
    }
}

Outcome random_outcome(std::mt19937_64& rng) {
    const int pick = std::uniform_int_distribution<int>(0, 9)(rng);
    return pick < 5 ? DecisionColumns::kAccepted
                    : (pick < 9 ? DecisionColumns::kRejected : DecisionColumns::kRejectedNever);
}

void push_random(DecisionColumns::Builder& builder, Model& model, std::size_t count,
                 std::mt19937_64& rng) {
    for (std::size_t k = 0; k < count; ++k) {
        const Outcome outcome = random_outcome(rng);
        const Rational duration = random_duration(rng);
        builder.push(outcome, duration);
        model.outcomes.push_back(outcome);
        model.durations.push_back(duration);
    }
}

/// `count` random decisions, written one at a time; `model` gets the same.
DecisionColumns written(std::size_t count, Model& model, std::mt19937_64& rng) {
    DecisionColumns::Builder builder;
    push_random(builder, model, count, rng);
    return builder.finish();
}

void check_same(const DecisionColumns& columns, const Model& model) {
    REQUIRE(columns.size() == model.outcomes.size());
    std::size_t accepted = 0;
    for (std::size_t i = 0; i < model.outcomes.size(); ++i) {
        INFO("decision " << i);
        REQUIRE(columns.outcome(i) == model.outcomes[i]);
        REQUIRE(columns.duration(i) == model.durations[i]);
        REQUIRE(columns.accepted_before(i) == accepted);
        accepted += model.outcomes[i] == DecisionColumns::kAccepted ? 1 : 0;
    }
    CHECK(columns.accepted_before(columns.size()) == accepted);
}

/// Every chunk but the last holds at least half a chunk and at most two; views line up.
void check_chunking(const DecisionColumns& columns) {
    std::size_t start = 0;
    for (std::size_t c = 0; c < columns.chunk_count(); ++c) {
        const DecisionColumns::ChunkView view = columns.chunk(c);
        INFO("chunk " << c << " of " << columns.chunk_count() << ", size " << view.size);
        REQUIRE(view.start == start);
        if (c + 1 < columns.chunk_count())
            REQUIRE(view.size >= DecisionColumns::kChunk / 2);
        REQUIRE(view.size <= 2 * DecisionColumns::kChunk);
        REQUIRE(columns.chunk_of(start) == c);
        REQUIRE(columns.chunk_of(start + view.size - 1) == c);
        start += view.size;
    }
    REQUIRE(start == columns.size());
}

TEST_CASE("decision columns: read back exactly what was written") {
    const auto seed = test::base_seed();
    std::mt19937_64 rng(seed);
    INFO("seed " << seed);
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{4095},
                                    std::size_t{4096}, std::size_t{4097}, std::size_t{20000}}) {
        Model model;
        const DecisionColumns columns = written(count, model, rng);
        check_same(columns, model);
        check_chunking(columns);
        CHECK(columns == columns);
    }
}

TEST_CASE("decision columns: a chunk of accepted decisions keeps no durations") {
    DecisionColumns::Builder all_accepted;
    DecisionColumns::Builder all_rejected;
    for (std::size_t k = 0; k < 3 * DecisionColumns::kChunk; ++k) {
        all_accepted.push(DecisionColumns::kAccepted, Rational());
        all_rejected.push(DecisionColumns::kRejected, Rational(5, 2));
    }
    const DecisionColumns accepted = all_accepted.finish();
    const DecisionColumns rejected = all_rejected.finish();
    // A byte per decision, and four more where a duration is kept.
    CHECK(accepted.memory_bytes() < 3 * DecisionColumns::kChunk * 5 / 4);
    CHECK(rejected.memory_bytes() > 3 * DecisionColumns::kChunk * 5);
    CHECK(rejected.memory_bytes() < 3 * DecisionColumns::kChunk * 6);
    CHECK(rejected.duration(1234) == Rational(5, 2));
    CHECK(accepted.accepted_before(5000) == 5000);
    CHECK(rejected.accepted_between(10, 5000) == 0);
}

TEST_CASE("decision columns: taken-over stretches share whole chunks and read back exactly") {
    const auto seed = test::base_seed();
    std::mt19937_64 rng(seed);
    INFO("seed " << seed);
    Model model;
    DecisionColumns columns = written(100000, model, rng);
    // Edits as the run loop makes them: keep a prefix, decide a stretch anew, take the rest over
    // (shifted by what the edit added or removed).
    for (int edit = 0; edit < 200; ++edit) {
        INFO("edit " << edit);
        const std::size_t size = model.outcomes.size();
        std::uniform_int_distribution<std::size_t> at(0, size);
        std::size_t keep = at(rng);
        std::size_t resume = at(rng);
        if (resume < keep)
            std::swap(keep, resume);
        const std::size_t fresh = std::uniform_int_distribution<std::size_t>(0, 9000)(rng);

        DecisionColumns::Builder builder;
        Model next;
        builder.append(columns, 0, keep);
        next.outcomes.assign(model.outcomes.begin(), model.outcomes.begin() + keep);
        next.durations.assign(model.durations.begin(), model.durations.begin() + keep);
        push_random(builder, next, fresh, rng);
        builder.append(columns, resume, size);
        next.outcomes.insert(next.outcomes.end(), model.outcomes.begin() + resume,
                             model.outcomes.end());
        next.durations.insert(next.durations.end(), model.durations.begin() + resume,
                              model.durations.end());
        DecisionColumns edited = builder.finish();
        check_chunking(edited);
        // All but a few chunks around the two seams and the fresh stretch are shared.
        const std::size_t kept_chunks = (keep + size - resume) / (2 * DecisionColumns::kChunk);
        CHECK(edited.chunks_shared_with(columns) + 4 >= kept_chunks);
        if (edit % 20 == 0)
            check_same(edited, next);
        columns = std::move(edited);
        model = std::move(next);
    }
    check_same(columns, model);
}

TEST_CASE("decision columns: equal whatever the chunking") {
    const auto seed = test::base_seed();
    std::mt19937_64 rng(seed);
    INFO("seed " << seed);
    Model model;
    const DecisionColumns a = written(30000, model, rng);
    DecisionColumns::Builder pieces;
    pieces.append(a, 0, 777);
    pieces.append(a, 777, 9000);
    pieces.append(a, 9000, 30000);
    DecisionColumns b = pieces.finish();
    CHECK(a == b);
    DecisionColumns::Builder changed;
    changed.append(a, 0, 12345);
    changed.push(model.outcomes[12345] == DecisionColumns::kAccepted ? DecisionColumns::kRejected
                                                                     : DecisionColumns::kAccepted,
                 model.durations[12345]);
    changed.append(a, 12346, 30000);
    CHECK_FALSE(a == changed.finish());
    DecisionColumns::Builder other_duration;
    other_duration.append(a, 0, 12345);
    // Another duration, whatever this one is (adding to one near 2^62 would overflow).
    const Rational other =
        model.durations[12345] == Rational(1, 7) ? Rational(2, 7) : Rational(1, 7);
    other_duration.push(model.outcomes[12345], other);
    other_duration.append(a, 12346, 30000);
    CHECK_FALSE(a == other_duration.finish());
}

}  // namespace
}  // namespace ratelab
