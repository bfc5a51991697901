// Where each key's requests lie (ratelab/key_index.h), and what reads it: a key's state at a
// tick and the why of a decision on a trace of many keys, which replay that key's requests
// alone when the run holds the index, must be what replaying the whole trace gives.
#include "ratelab/key_index.h"

#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "catch.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;

namespace {

/// Requests on `keys` keys, the first few keys far busier than the rest.
std::shared_ptr<const Trace> many_keys(std::mt19937_64& rng, std::size_t count, int keys) {
    TraceBuilder builder;
    Tick tick = 0;
    for (std::size_t i = 0; i < count; ++i) {
        tick += static_cast<Tick>(rng() % 3);
        const auto u = static_cast<double>(rng() % 1000) / 1000.0;
        const auto key = static_cast<int>(u * u * keys);
        builder.add(tick, static_cast<std::uint32_t>(1 + rng() % 3), "k" + std::to_string(key));
    }
    return std::make_shared<const Trace>(std::move(builder).take());
}

std::vector<std::uint32_t> by_reading(const Trace& trace, const std::vector<KeyId>& keys) {
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        if (std::find(keys.begin(), keys.end(), trace.requests[i].key) != keys.end())
            out.push_back(static_cast<std::uint32_t>(i));
    }
    return out;
}

}  // namespace

TEST_CASE("the key index lists each key's requests in order") {
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    // Long enough for the request column to hold several chunks.
    const auto trace = many_keys(rng, 70'000, 40);
    {
        // An index that goes leaves its column for the next of about its size to write over:
        // nothing of what it held may show.
        const KeyIndex earlier(*many_keys(rng, 70'000, 40));
    }
    const KeyIndex index(*trace);
    CHECK(index.fits(*trace));
    CHECK(index.stretches() > 1);
    // Held in stretches of the usual size, of a few requests, or in one.
    for (const std::size_t stretch : {std::size_t{0}, std::size_t{97}, std::size_t{1} << 20}) {
        INFO("stretches of " << stretch);
        const KeyIndex held(*trace, &index, stretch);
        CHECK(held.fits(*trace));
        if (stretch > trace->requests.size())
            CHECK(held.stretches() == 1);
        std::size_t listed = 0;
        for (KeyId key = 0; key < trace->keys.size(); ++key) {
            INFO("key " << key);
            const KeyPositions theirs = held.of(key);
            const std::vector<std::uint32_t> want = by_reading(*trace, {key});
            CHECK(std::vector<std::uint32_t>(theirs.begin(), theirs.end()) == want);
            CHECK(theirs.size() == want.size());
            // How many lie before a request, and a slice of them, anywhere.
            const std::size_t end = rng() % (trace->requests.size() + 1);
            CHECK(theirs.count_before(end) ==
                  static_cast<std::size_t>(std::lower_bound(want.begin(), want.end(), end) -
                                           want.begin()));
            const std::size_t from = want.empty() ? 0 : rng() % want.size();
            const std::size_t to = from + rng() % (want.size() - from + 1);
            std::vector<std::uint32_t> slice{7};
            theirs.append(from, to, slice);
            CHECK(slice.front() == 7);
            CHECK(std::equal(slice.begin() + 1, slice.end(),
                             want.begin() + static_cast<std::ptrdiff_t>(from),
                             want.begin() + static_cast<std::ptrdiff_t>(to)));
            listed += theirs.size();
        }
        CHECK(listed == trace->requests.size());
        CHECK(held == index);
    }
    // Every key once in the order of names; an index of the same key table shares that order.
    const auto names = index.by_name();
    CHECK(names.size() == trace->keys.size());
    CHECK(std::is_sorted(names.begin(), names.end(), [&](KeyId a, KeyId b) {
        return trace->key_name(a) < trace->key_name(b);
    }));
    CHECK(std::set<KeyId>(names.begin(), names.end()).size() == trace->keys.size());
    const KeyIndex again(*trace, &index);
    CHECK(again.by_name().data() == names.data());
    const std::vector<KeyId> some = {7, 1, 30};
    CHECK(index.of(some) == by_reading(*trace, some));
    std::vector<KeyId> every(trace->keys.size());
    std::iota(every.begin(), every.end(), KeyId{0});
    std::shuffle(every.begin(), every.end(), rng);
    CHECK(index.of(every) == by_reading(*trace, every));
    CHECK(index.of(std::span<const KeyId>()).empty());
    Trace shorter = *trace;
    shorter.requests.erase(shorter.requests.begin());
    CHECK_FALSE(index.fits(shorter));
}

TEST_CASE("the key index of an edited trace, from the index before, is indexing it again") {
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    auto trace = many_keys(rng, 20'000, 40);
    // In stretches of about 500 requests: an edit within one indexes that one again, one that
    // spans several or grows one past twice the size indexes them again in stretches of about
    // that size, and one that empties one leaves it out.
    constexpr std::size_t kStretch = 500;
    auto index = std::make_shared<const KeyIndex>(*trace, nullptr, kStretch);
    CHECK(index->stretches() == 40);
    for (int edit = 0; edit < 90; ++edit) {
        Trace next = *trace;
        auto& requests = next.requests;
        const std::size_t size = requests.size();
        // A place, and how many requests go and come there: none or a few; requests added at
        // one place time and again, into one stretch; now and then up to 1,200 (a stretch or
        // more), or too many for an edit, which indexes every request again.
        const bool grow = edit >= 60 && edit < 80;
        const std::size_t at = grow ? 1'234 : rng() % size;
        const std::size_t most = edit % 10 == 9   ? size / 4
                                 : edit % 10 == 8 ? 1'200
                                 : grow           ? 150
                                                  : 4;
        const std::size_t gone =
            grow && most == 150 ? 0 : std::min<std::size_t>(rng() % (most + 1), size - at);
        const std::size_t come = rng() % (most + 1);
        const Tick tick = requests[at].tick;
        requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(at),
                       requests.begin() + static_cast<std::ptrdiff_t>(at + gone));
        for (std::size_t i = 0; i < come; ++i) {
            const auto key = static_cast<KeyId>(rng() % next.keys.size());
            requests.insert(requests.begin() + static_cast<std::ptrdiff_t>(at),
                            Request{tick, 1, key});
        }
        INFO("edit " << edit << ": at " << at << ", " << gone << " gone, " << come << " come, "
                     << 1 + edit % 3 << " threads");
        const std::size_t tail = size - at - gone;
        // On one thread, or shared out by ranges of keys over two or three.
        const unsigned threads = 1 + static_cast<unsigned>(edit % 3);
        auto edited = std::make_shared<const KeyIndex>(next, *index, *trace, at, tail, threads);
        CHECK(edited->fits(next));
        CHECK(*edited == KeyIndex(next));
        CHECK(edited->by_name().data() == index->by_name().data());
        // Not many more stretches than the size gives; a small edit shares all but one or two
        // stretches with the index before.
        CHECK(edited->stretches() <= 2 * (next.requests.size() / kStretch + 1));
        if (most == 4)
            CHECK(edited->shared_with(*index) + 2 >= index->stretches());
        // Told a change that does not fit, or given the index of a trace of another length:
        // indexed again.
        CHECK(KeyIndex(next, *index, *trace, size, size) == KeyIndex(next));
        if (gone != come)
            CHECK(KeyIndex(next, KeyIndex(next), *trace, at, tail) == KeyIndex(next));
        trace = std::make_shared<const Trace>(std::move(next));
        index = std::move(edited);
    }
    // A stretch that edits grow past twice its size is split: 600 requests added one at a
    // time into the first of 40 stretches of 500 (it splits past 1,000).
    trace = many_keys(rng, 20'000, 40);
    index = std::make_shared<const KeyIndex>(*trace, nullptr, kStretch);
    for (int added = 0; added < 600; ++added) {
        Trace next = *trace;
        next.requests.insert(next.requests.begin() + 7, Request{next.requests[7].tick, 1, 3});
        index = std::make_shared<const KeyIndex>(next, *index, *trace, 7, next.requests.size() - 8);
        trace = std::make_shared<const Trace>(std::move(next));
    }
    CHECK(index->stretches() >= 41);
    CHECK(*index == KeyIndex(*trace));
}

TEST_CASE("with many keys the key index gives the same state and why as reading the trace") {
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    Params params = test::limits(4, 12);
    params.lanes = test::every_lane();
    RunOptions indexed;
    indexed.index_keys = true;
    auto result = simulate(many_keys(rng, 20'000, 30), params, {}, indexed);
    for (int edit = 0; edit < 2; ++edit) {
        INFO("edit " << edit);
        const Trace& trace = *result->trace;
        const Tick last = trace.requests.back().tick;
        for (const AlgorithmRun& run : result->runs) {
            INFO(run.id);
            REQUIRE(run.key_index);
            REQUIRE(run.key_index->fits(trace));
            REQUIRE_FALSE(run.checkpoints);  // many keys: nothing else to start from
            const auto algorithm = Registry::instance().find(run.id)->make();
            for (const Tick at : {Tick(0), last / 3, last}) {
                for (const KeyId key : {KeyId(1), KeyId(2), KeyId(trace.keys.size() - 1)}) {
                    CHECK(algorithm->state_at(trace, params, key, at, &run) ==
                          algorithm->state_at(trace, params, key, at, nullptr));
                }
            }
            for (const std::size_t index :
                 {std::size_t(0), std::size_t(9'999), trace.requests.size() - 1}) {
                const Explanation fast = algorithm->explain(trace, params, index, &run);
                const Explanation slow = algorithm->explain(trace, params, index, nullptr);
                CHECK(fast.state_before == slow.state_before);
                CHECK(fast.check == slow.check);
                CHECK(fast.decision == run.decision(trace, index));
            }
        }
        // After an edit that moves a request to the middle, the new runs hold the new index.
        Trace moved = trace;
        Request r = moved.requests[100];
        moved.requests.erase(moved.requests.begin() + 100);
        r.tick = moved.requests[10'000].tick;
        moved.requests.insert(moved.requests.begin() + 10'000, r);
        result = resimulate(*result, std::make_shared<const Trace>(std::move(moved)), indexed);
        const KeyIndex fresh(*result->trace);
        for (KeyId key = 0; key < result->trace->keys.size(); ++key) {
            const auto held = result->runs.front().key_index->of(key);
            const auto want = fresh.of(key);
            CHECK(std::equal(held.begin(), held.end(), want.begin(), want.end()));
        }
    }
}

TEST_CASE("with many keys every key's figures are the same counted key by key as in trace order") {
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    Params params = test::limits(3, 10);
    params.lanes = test::every_lane();
    // Tiers of other limits and windows, so that keys are counted over windows of their own.
    for (const auto& [key, limit, window] :
         {std::tuple{"k0", 6, 25}, std::tuple{"k3", 2, 4}, std::tuple{"k17", 1, 40}}) {
        params.keys[key].limit = limit;
        params.keys[key].window = window;
    }
    RunOptions indexed;
    indexed.index_keys = true;
    auto result = simulate(many_keys(rng, 30'000, 200), params, {}, indexed);
    for (int edit = 0; edit < 2; ++edit) {
        INFO("edit " << edit);
        const Trace& trace = *result->trace;
        // The same runs without the index: key_figures() then reads the trace in order.
        SimulationResult in_order = *result;
        for (AlgorithmRun& run : in_order.runs)
            run.key_index = nullptr;
        const std::size_t size = trace.requests.size();
        for (const KeyScope& scope : {KeyScope{}, KeyScope{size / 2, trace.requests[size / 2].tick},
                                      KeyScope{size / 2, trace.requests[size / 2].tick + 30},
                                      KeyScope{777, {}}, KeyScope{0, {}}}) {
            INFO("first " << scope.count.value_or(size) << " requests");
            for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
                INFO(result->runs[lane].id);
                REQUIRE(result->runs[lane].key_index);
                const LaneKeys by_key = key_figures(*result, lane, scope);
                if (scope.count != 0)
                    CHECK(by_key.keys.size() > 10);
                CHECK(by_key == key_figures(in_order, lane, scope));
            }
        }
        // After an edit of one key, the new index shares the order of names.
        Trace added = trace;
        added.requests.insert(added.requests.begin() + 5'000, added.requests[5'000]);
        result = resimulate(*result, std::make_shared<const Trace>(std::move(added)), indexed);
    }
}
