// resimulate() after an edit must give exactly what simulate() gives on the edited trace, while
// taking the decisions before the edit from the previous result; simulate_prefix() must give
// what simulate() gives on a prefix of the trace, while resuming from checkpoints. Seeded random
// traces long enough to have several checkpoints; a failure prints the seed.
#include <algorithm>
#include <random>
#include <set>

#include "catch.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "test_support.h"

using namespace ratelab;
using test::random_trace;

namespace {

/// One edit such as the app makes: add, remove, move (remove and add) or change a cost.
std::shared_ptr<const Trace> edited(const Trace& trace, std::mt19937_64& rng) {
    Trace out = trace;
    auto& requests = out.requests;
    const std::size_t at = rng() % requests.size();
    const auto insert = [&](Request r) {
        const auto place =
            std::upper_bound(requests.begin(), requests.end(), r.tick,
                             [](Tick tick, const Request& other) { return tick < other.tick; });
        requests.insert(place, r);
    };
    switch (rng() % 4) {
        case 0:
            insert(Request{requests[at].tick, 1, requests[at].key});
            break;
        case 1:
            requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(at));
            break;
        case 2: {
            Request moved = requests[at];
            requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(at));
            moved.tick += 2;
            insert(moved);
            break;
        }
        default:
            requests[at].cost = requests[at].cost % 3 + 1;
    }
    return std::make_shared<const Trace>(std::move(out));
}

void require_same(const SimulationResult& got, const SimulationResult& want) {
    REQUIRE(got.runs.size() == want.runs.size());
    for (std::size_t i = 0; i < got.runs.size(); ++i) {
        const AlgorithmRun& a = got.runs[i];
        const AlgorithmRun& b = want.runs[i];
        INFO(b.id);
        CHECK(a.id == b.id);
        CHECK(a.totals == b.totals);
        CHECK(a.worst_burst == b.worst_burst);
        CHECK(a.decisions == b.decisions);
    }
}

std::shared_ptr<const Trace> head(const Trace& trace, std::size_t count) {
    Trace out;
    out.keys = trace.keys;
    out.requests.assign(trace.requests.begin(),
                        trace.requests.begin() + static_cast<std::ptrdiff_t>(count));
    return std::make_shared<const Trace>(std::move(out));
}

}  // namespace

TEST_CASE("resimulate after edits equals simulating the edited trace") {
    const std::uint64_t base = std::random_device{}();
    for (std::uint64_t round = 0; round < 6; ++round) {
        const std::uint64_t seed = base + round;
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        const int keys = round % 3 == 2 ? 2 : 1;
        Params params = test::limits(static_cast<std::int64_t>(3 + rng() % 20),
                                     static_cast<Tick>(2 + rng() % 30));
        params.rejections_count = round % 2 == 1;
        auto result = simulate(random_trace(rng, 14'000, keys), params);
        // Several edits in a row: each resumes from checkpoints a resumed run saved.
        for (int edit = 0; edit < 4; ++edit) {
            const auto trace = edited(*result->trace, rng);
            const auto fast = resimulate(*result, trace);
            require_same(*fast, *simulate(trace, params));
            result = fast;
        }
    }
}

TEST_CASE("resimulate told where an edit was gives what it gives when it compares the traces") {
    const std::uint64_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    const Params params = test::limits(4, 12);
    auto result = simulate(random_trace(rng, 12'000, 2), params);
    for (int edit = 0; edit < 6; ++edit) {
        const Trace& before = *result->trace;
        const auto trace = edited(before, rng);
        // The change, as an editor knows it: here found by comparing, as resimulate would.
        std::size_t first = 0;
        while (first < std::min(before.requests.size(), trace->requests.size()) &&
               before.requests[first] == trace->requests[first])
            ++first;
        std::size_t tail = 0;
        while (tail + first < std::min(before.requests.size(), trace->requests.size()) &&
               before.requests[before.requests.size() - 1 - tail] ==
                   trace->requests[trace->requests.size() - 1 - tail])
            ++tail;
        const auto told = resimulate(*result, trace, {}, TraceChange{first, tail});
        require_same(*told, *simulate(trace, params));
        CHECK(told->sole_key == simulate(trace, params)->sole_key);
        // A wider change than the edit made gives the same too: it only decides more.
        require_same(*resimulate(*result, trace, {}, TraceChange{first / 2, tail / 2}), *told);
        result = told;
    }
    // One key of two all along: the result says so without looking at every request, and not
    // once a changed request is the other key's.
    TraceBuilder builder;
    builder.intern("b");
    for (Tick t = 0; t < 100; ++t)
        builder.add(t, 1, "a");
    const auto one_key = simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
    const KeyId a = *one_key->trace->find_key("a");
    REQUIRE(one_key->sole_key == a);
    Trace still_a = *one_key->trace;
    still_a.requests[50].cost = 2;
    CHECK(resimulate(*one_key, std::make_shared<const Trace>(still_a), {}, TraceChange{50, 49})
              ->sole_key == a);
    Trace now_b = *one_key->trace;
    now_b.requests[50].key = *one_key->trace->find_key("b");
    CHECK_FALSE(resimulate(*one_key, std::make_shared<const Trace>(now_b), {}, TraceChange{50, 49})
                    ->sole_key.has_value());
}

TEST_CASE("resimulate told where an edit was still refuses a bad request there") {
    const auto result = simulate(test::ticks({1, 2, 3, 4, 5}), test::limits(2, 5));
    Trace backwards = *result->trace;
    backwards.requests[3].tick = 1;  // before request 2's tick
    const auto trace = std::make_shared<const Trace>(backwards);
    CHECK_THROWS_WITH(resimulate(*result, trace, {}, TraceChange{3, 1}),
                      Catch::Contains("request 3: tick 1 is before"));
    // The request after the change is checked against it as well.
    Trace after = *result->trace;
    after.requests[2].tick = 5;  // changed, and now after request 3's tick 4
    CHECK_THROWS_WITH(
        resimulate(*result, std::make_shared<const Trace>(after), {}, TraceChange{2, 2}),
        Catch::Contains("request 3: tick 4 is before"));
    // A change that does not fit these traces is not believed: they are compared instead.
    CHECK_THROWS_WITH(resimulate(*result, trace, {}, TraceChange{4, 4}),
                      Catch::Contains("request 3"));
}

TEST_CASE("resimulate stops deciding once a run is back in the state it had before the edit") {
    // One request more in the middle of a long trace: the fixed window, sliding log and
    // sliding counter forget it within a window, so each run decides from the checkpoint
    // before the edit to the first checkpoint after it in the same state, and takes the rest.
    std::mt19937_64 rng(17);
    const auto result = simulate(random_trace(rng, 40'000, 1), test::limits(6, 10));
    Trace trace = *result->trace;
    const std::size_t middle = trace.requests.size() / 2;
    trace.requests.insert(trace.requests.begin() + static_cast<std::ptrdiff_t>(middle),
                          trace.requests[middle]);
    const auto edited_trace = std::make_shared<const Trace>(std::move(trace));
    const auto fast = resimulate(*result, edited_trace);
    require_same(*fast, *simulate(edited_trace, result->params));
    for (const AlgorithmRun& run : fast->runs) {
        INFO(run.id);
        CHECK(run.requests_decided > 0);
        if (run.id == "fixed_window" || run.id == "sliding_log" || run.id == "sliding_counter") {
            CHECK(run.requests_decided <= 3 * 4096);
            // What it took over is shared with the run before, not copied: all chunks but
            // those around the edit.
            const DecisionColumns& before = result->find(run.id)->decisions;
            CHECK(run.decisions.chunks_shared_with(before) + 4 >= before.chunk_count());
        }
    }
    // A run that took its end from the one before saves checkpoints there as well: an edit
    // after it again decides only around the edit, with the same result as from the start.
    Trace again = *edited_trace;
    again.requests.erase(again.requests.end() - 100);
    const auto later = std::make_shared<const Trace>(std::move(again));
    const auto second = resimulate(*fast, later);
    require_same(*second, *simulate(later, result->params));
    CHECK(second->find("fixed_window")->requests_decided <= 2 * 4096);
}

TEST_CASE("with many keys resimulate decides again only the keys an edit touched") {
    // More keys than runs keep checkpoints for: a run decides again the requests of the keys
    // an edit changed, from the edit on, and takes every other decision from the run before.
    const std::uint64_t base = std::random_device{}();
    for (std::uint64_t round = 0; round < 4; ++round) {
        const std::uint64_t seed = base + round;
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        Params params = test::limits(static_cast<std::int64_t>(2 + rng() % 6),
                                     static_cast<Tick>(2 + rng() % 20));
        params.rejections_count = round % 2 == 1;
        params.keys["k3"].limit = 1 + static_cast<std::int64_t>(rng() % 4);
        params.keys["k5"].window = 1 + static_cast<Tick>(rng() % 40);
        params.lanes = test::every_lane();
        // The last two rounds as the app runs: each run holds where every key's requests are,
        // and an edit's re-run reads the touched keys' requests alone.
        RunOptions options;
        options.index_keys = round >= 2;
        auto result = simulate(random_trace(rng, 30'000, 9 + static_cast<int>(rng() % 30)), params,
                               {}, options);
        for (int edit = 0; edit < 6; ++edit) {
            INFO("edit " << edit);
            const Trace& before = *result->trace;
            std::shared_ptr<const Trace> trace;
            if (edit == 5) {  // one request given to another key: both keys are touched
                Trace other = before;
                other.requests[other.requests.size() / 3].key =
                    (other.requests[other.requests.size() / 3].key + 1) %
                    static_cast<KeyId>(other.keys.size());
                trace = std::make_shared<const Trace>(std::move(other));
            } else {
                trace = edited(before, rng);
            }
            const auto fast = resimulate(*result, trace, options);
            require_same(*fast, *simulate(trace, params));
            for (const AlgorithmRun& run : fast->runs) {
                INFO(run.id);
                CHECK(run.requests_decided < trace->requests.size() / 2);
                const DecisionColumns& old = result->find(run.id)->decisions;
                CHECK(run.decisions.chunks_shared_with(old) > 0);
                CHECK((run.key_index && run.key_index->fits(*trace)) == options.index_keys);
            }
            // The index, made from the one before the edit, is that of the edited trace.
            if (options.index_keys)
                CHECK(*fast->runs.front().key_index == KeyIndex(*trace));
            result = fast;
        }
        // An edit of many keys at once decides everything again, alike.
        Trace spread = *result->trace;
        for (std::size_t i = 0; i < 2'000; ++i)
            spread.requests[10'000 + i].cost = spread.requests[10'000 + i].cost % 3 + 1;
        const auto wide = std::make_shared<const Trace>(std::move(spread));
        require_same(*resimulate(*result, wide), *simulate(wide, params));
    }
}

TEST_CASE("with many keys a move across the requests of hundreds of keys decides only its key") {
    // A request moved past 400 others (about 360 keys' requests, as a drag through a busy
    // minute of an access log does): those keys' requests sit in new places, but they are the
    // same requests in the same order, so their decisions stand. Only the moved request's key
    // is decided again, and only its figures are counted again.
    std::mt19937_64 rng(23);
    Params params = test::limits(3, 12);
    params.keys["k7"].window = 30;
    params.lanes = test::every_lane();
    const auto trace = random_trace(rng, 40'000, 2'000);
    for (const bool indexed : {false, true}) {
        INFO((indexed ? "with" : "without") << " the key index");
        RunOptions options;
        options.index_keys = indexed;
        const auto result = simulate(trace, params, {}, options);
        Trace moved = *trace;
        const std::size_t from = 20'000;
        const std::size_t to = from + 400;
        Request request = moved.requests[from];
        request.tick = moved.requests[to].tick;
        moved.requests.erase(moved.requests.begin() + static_cast<std::ptrdiff_t>(from));
        moved.requests.insert(moved.requests.begin() + static_cast<std::ptrdiff_t>(to), request);
        const auto edited_trace = std::make_shared<const Trace>(std::move(moved));
        std::set<KeyId> keys;
        for (std::size_t i = from; i <= to; ++i)
            keys.insert(edited_trace->requests[i].key);
        REQUIRE(keys.size() > 300);
        const auto fast = resimulate(*result, edited_trace, options);
        require_same(*fast, *simulate(edited_trace, params));
        const std::size_t theirs = static_cast<std::size_t>(
            std::count_if(trace->requests.begin(), trace->requests.end(),
                          [&request](const Request& r) { return r.key == request.key; }));
        for (const AlgorithmRun& run : fast->runs) {
            INFO(run.id);
            CHECK(run.requests_decided > 0);
            CHECK(run.requests_decided <= theirs);
        }
        CHECK(every_lane_key_figures_after_edit(*fast, *result, every_lane_key_figures(*result)) ==
              every_lane_key_figures(*fast));
    }
}

TEST_CASE("with many keys a shaper's worst burst and longest delay are counted again alike") {
    // A shaper's worst burst over every key's units, and its longest delay, are counted again
    // around an edit; edits where they lie take the counts that cannot stand over everything.
    const std::uint64_t base = std::random_device{}();
    for (std::uint64_t round = 0; round < 6; ++round) {
        const std::uint64_t seed = base + round;
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        Params params = test::limits(static_cast<std::int64_t>(2 + rng() % 5),
                                     static_cast<Tick>(4 + rng() % 30));
        if (round % 2 == 1)  // a tier of its own pace: units counted one by one
            params.keys["k2"].window = 1 + static_cast<Tick>(rng() % 40);
        for (const Lane& lane : test::every_lane()) {
            if (Registry::instance().find(lane.algorithm)->releases)
                params.lanes.push_back(lane);
        }
        REQUIRE(params.lanes.size() >= 3);  // the leaky bucket and the presets that shape
        // A key that drains twenty times slower, with a few costly requests: each delay of its
        // own, the longest, and runs of units longer than a window.
        Trace busy = *random_trace(rng, 8'000, 6 + static_cast<int>(rng() % 4));
        params.keys["slow"].window = params.base.window * 20;
        busy.keys.push_back("slow");
        for (int k = 0; k < 4; ++k) {
            const Request slow{busy.requests[rng() % busy.requests.size()].tick,
                               static_cast<std::uint32_t>(2 + k % 2),
                               static_cast<KeyId>(busy.keys.size() - 1)};
            busy.requests.insert(
                std::upper_bound(busy.requests.begin(), busy.requests.end(), slow.tick,
                                 [](Tick tick, const Request& other) { return tick < other.tick; }),
                slow);
        }
        RunOptions options;
        options.index_keys = round % 3 == 0;
        auto result = simulate(std::make_shared<const Trace>(std::move(busy)), params, {}, options);
        for (int edit = 0; edit < 8; ++edit) {
            // Each edit aims at one lane's longest delay or worst burst, in turn.
            const AlgorithmRun& aimed =
                result->runs[static_cast<std::size_t>(edit) % result->runs.size()];
            INFO("edit " << edit << " aimed at " << aimed.id);
            const Trace& before = *result->trace;
            std::size_t longest = 0;   // the accepted request let through last after it came
            std::size_t at_worst = 0;  // the first accepted request let through in the worst span
            for (std::size_t i = 0; i < before.requests.size(); ++i) {
                if (!aimed.decisions.accepted(i))
                    continue;
                const Rational delay = aimed.decisions.duration(i);
                if (delay > aimed.decisions.duration(longest) || !aimed.decisions.accepted(longest))
                    longest = i;
                if (Rational(before.requests[i].tick) + delay >= aimed.worst_burst.start &&
                    !aimed.decisions.accepted(at_worst))
                    at_worst = i;
            }
            Trace changed = before;
            auto& requests = changed.requests;
            const auto erase = [&requests](std::size_t i) {
                requests.erase(requests.begin() + static_cast<std::ptrdiff_t>(i));
            };
            switch (edit / 2 % 4) {
                case 0:  // the longest delay taken away
                    erase(longest);
                    break;
                case 1:  // a unit of the worst span taken away
                    erase(at_worst);
                    break;
                case 2:  // one more request where the worst span starts
                    requests.insert(requests.begin() + static_cast<std::ptrdiff_t>(at_worst),
                                    requests[at_worst]);
                    break;
                default:  // the request with the longest delay costs one more
                    ++requests[longest].cost;
            }
            const auto trace = std::make_shared<const Trace>(std::move(changed));
            const auto fast = resimulate(*result, trace, options);
            require_same(*fast, *simulate(trace, params));
            for (const AlgorithmRun& run : fast->runs) {
                INFO(run.id);
                CHECK(run.requests_decided < trace->requests.size() / 2);
            }
            result = fast;
        }
    }
}

TEST_CASE("resimulate with a new key decides everything again, with the same result") {
    std::mt19937_64 rng(5);
    const auto result = simulate(random_trace(rng, 9'000, 1), test::limits(5, 10));
    TraceBuilder builder;
    for (const Request& r : result->trace->requests)
        builder.add(r.tick, r.cost);
    builder.add(result->trace->requests.back().tick, 1, "new");
    const auto trace = std::make_shared<const Trace>(std::move(builder).take());
    require_same(*resimulate(*result, trace), *simulate(trace, result->params));
}

TEST_CASE("resimulate rejects an invalid trace like simulate") {
    const auto result = simulate(test::ticks({1, 2, 3}), test::limits(2, 5));
    Trace backwards;
    backwards.keys = {""};
    backwards.requests = {Request{3, 1, 0}, Request{1, 1, 0}};
    CHECK_THROWS_AS(resimulate(*result, std::make_shared<const Trace>(backwards)), SimulationError);
    CHECK_THROWS_AS(resimulate(*result, nullptr), SimulationError);
}

TEST_CASE("simulate_prefix equals simulating the prefix alone") {
    const std::uint64_t base = std::random_device{}();
    // One and two keys keep checkpoints; five keys do not, and decide the prefix from the start.
    for (const int keys : {1, 2, 5}) {
        const std::uint64_t seed = base + static_cast<std::uint64_t>(keys);
        INFO("seed " << seed << ", " << keys << " keys");
        std::mt19937_64 rng(seed);
        Params params = test::limits(static_cast<std::int64_t>(3 + rng() % 20),
                                     static_cast<Tick>(2 + rng() % 30));
        params.rejections_count = keys == 2;
        auto result = simulate(random_trace(rng, 13'000, keys), params);
        if (keys == 1)  // checkpoints saved by a resumed run as well
            result = resimulate(*result, edited(*result->trace, rng));
        const std::size_t size = result->trace->requests.size();
        RunOptions summary;
        summary.keep_decisions = false;
        for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{4095},
                                        std::size_t{4096}, std::size_t{4097}, std::size_t{8192},
                                        static_cast<std::size_t>(rng() % size), size - 1, size}) {
            INFO("first " << count << " requests");
            const auto got = simulate_prefix(*result, count);
            const auto want = simulate(head(*result->trace, count), params, {}, summary);
            CHECK(got->trace == result->trace);
            require_same(*got, *want);
        }
        CHECK(simulate_prefix(*result, size + 10)->runs.front().totals ==
              result->runs.front().totals);
    }
}

TEST_CASE("a run counts what it decides and stops when its control says so") {
    std::mt19937_64 rng(7);
    const auto trace = random_trace(rng, 10'000, 2);
    const Params params = test::limits(5, 10);
    RunControl control;
    RunOptions options;
    options.control = &control;
    const auto result = simulate(trace, params, {"sliding_log", "leaky_bucket"}, options);
    CHECK(control.decided.load() == 2 * trace->requests.size());
    // An edit near the end resumes from a checkpoint: only the requests after it are decided.
    control.decided = 0;
    Trace edited_trace = *trace;
    edited_trace.requests.back().cost = 3;
    (void)resimulate(*result, std::make_shared<const Trace>(edited_trace), options);
    CHECK(control.decided.load() > 0);
    CHECK(control.decided.load() <= 2 * 4'096);

    control.stop = true;
    CHECK_THROWS_AS(simulate(trace, params, {"sliding_log"}, options), SimulationCancelled);
    CHECK_THROWS_AS(resimulate(*result, std::make_shared<const Trace>(edited_trace), options),
                    SimulationCancelled);
}
