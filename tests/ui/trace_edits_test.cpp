// The pure trace edits behind the undo commands: each edit and its inverse.
#include <QTest>
#include <random>

#include "session/trace_edits.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

Trace traceOf(std::initializer_list<std::pair<Tick, std::uint32_t>> requests) {
    TraceBuilder builder;
    for (const auto& [tick, cost] : requests) {
        builder.add(tick, cost);
    }
    return std::move(builder).take();
}

std::vector<Tick> ticks(const Trace& trace) {
    std::vector<Tick> out;
    for (const Request& request : trace.requests) {
        out.push_back(request.tick);
    }
    return out;
}

// A random sorted trace whose costs tell requests apart, for checking exact inverses.
Trace randomTrace(std::mt19937& random, std::size_t size) {
    std::uniform_int_distribution<Tick> tick(0, 30);
    std::vector<Tick> all(size);
    for (Tick& t : all) {
        t = tick(random);
    }
    std::sort(all.begin(), all.end());
    // A third of the requests hold for a duration of their own, which edits carry with them.
    std::uniform_int_distribution<Tick> duration(-20, 40);
    TraceBuilder builder;
    for (std::size_t i = 0; i < size; ++i) {
        builder.add(all[i], static_cast<std::uint32_t>(i + 1), {},
                    std::max<Tick>(duration(random), 0));
    }
    return std::move(builder).take();
}

IndexList randomSubset(std::mt19937& random, std::size_t size) {
    IndexList subset;
    std::bernoulli_distribution pick(0.3);
    for (std::size_t i = 0; i < size; ++i) {
        if (pick(random)) {
            subset.push_back(i);
        }
    }
    return subset;
}

/// What withMoved() must give, built the plain way: the moved requests taken out, shifted, and
/// merged back one by one after every request already on their new tick.
Trace movedThePlainWay(const Trace& trace, const IndexList& indices, Tick delta) {
    Removal removal = withRemoved(trace, indices);
    Trace out;
    out.keys = trace.keys;
    std::size_t r = 0;
    for (std::size_t m = 0; m < removal.removed.requests.size(); ++m) {
        Request moved = removal.removed.requests[m];
        moved.tick += delta;
        while (r < removal.trace.requests.size() && removal.trace.requests[r].tick <= moved.tick)
            out.append_from(removal.trace, r++);
        out.append(moved, removal.removed.duration(m));
    }
    while (r < removal.trace.requests.size())
        out.append_from(removal.trace, r++);
    return out;
}

/// Whether `change` is true of `before` and `after`: the requests before change.first and the
/// last change.tail ones are the same in both, durations included.
bool changeHolds(const Trace& before, const Trace& after, const TraceChange& change) {
    const std::size_t old_size = before.requests.size();
    const std::size_t new_size = after.requests.size();
    if (change.first + change.tail > std::min(old_size, new_size))
        return false;
    for (std::size_t i = 0; i < change.first; ++i) {
        if (before.requests[i] != after.requests[i] || before.duration(i) != after.duration(i))
            return false;
    }
    for (std::size_t k = 1; k <= change.tail; ++k) {
        if (before.requests[old_size - k] != after.requests[new_size - k] ||
            before.duration(old_size - k) != after.duration(new_size - k))
            return false;
    }
    return true;
}

}  // namespace

class TraceEditsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aNewRequestGoesAfterThoseOnItsTick() {
        const Trace trace = traceOf({{2, 1}, {5, 1}, {5, 2}, {9, 1}});
        QCOMPARE(insertionIndex(trace, 0), std::size_t(0));
        QCOMPARE(insertionIndex(trace, 5), std::size_t(3));
        QCOMPARE(insertionIndex(trace, 6), std::size_t(3));
        QCOMPARE(insertionIndex(trace, 100), std::size_t(4));
        const TickRange group = requestsOnTick(trace, 5);
        QCOMPARE(group.first, std::size_t(1));
        QCOMPARE(group.last, std::size_t(3));
        QCOMPARE(countUpTo(trace, 4), std::size_t(1));
        QCOMPARE(countUpTo(trace, 9), std::size_t(4));
    }

    void removingThenRestoringGivesBackTheSameTrace() {
        std::mt19937 random(7);
        for (int round = 0; round < 200; ++round) {
            const Trace trace = randomTrace(random, 12);
            const IndexList indices = randomSubset(random, trace.requests.size());
            const Removal removal = withRemoved(trace, indices);
            QCOMPARE(removal.trace.requests.size(), trace.requests.size() - indices.size());
            QCOMPARE(removal.removed.requests.size(), indices.size());
            for (std::size_t k = 0; k < indices.size(); ++k)
                QCOMPARE(removal.removed.duration(k), trace.duration(indices[k]));
            QVERIFY(withRestored(removal.trace, indices, removal.removed) == trace);
        }
    }

    void movedRequestsKeepTheirOrderAndGoAfterOthers() {
        // Requests: a@2 b@4 c@4 d@6; move a and b by +2 -> they land on 4 and 6.
        const Trace trace = traceOf({{2, 10}, {4, 20}, {4, 30}, {6, 40}});
        const Move move = withMoved(trace, {0, 1}, 2);
        QCOMPARE(ticks(move.trace), (std::vector<Tick>{4, 4, 6, 6}));
        QCOMPARE(move.trace.requests[0].cost, 30U);  // c stays first on tick 4
        QCOMPARE(move.trace.requests[1].cost, 10U);  // a follows it
        QCOMPARE(move.trace.requests[2].cost, 40U);  // d stays first on tick 6
        QCOMPARE(move.trace.requests[3].cost, 20U);
        QCOMPARE(move.indices, (IndexList{1, 3}));
        QVERIFY(move.trace.is_well_formed());
    }

    void aMoveIsUndoneExactly() {
        std::mt19937 random(11);
        std::uniform_int_distribution<Tick> delta(-8, 8);
        for (int round = 0; round < 200; ++round) {
            const Trace trace = randomTrace(random, 10);
            const IndexList indices = randomSubset(random, trace.requests.size());
            const Tick d = clampMoveDelta(trace, indices, delta(random));
            const Move move = withMoved(trace, indices, d);
            QVERIFY(move.trace.is_well_formed());
            const Removal back = withRemoved(move.trace, move.indices);
            const Trace restored =
                withRestored(back.trace, indices, withRemoved(trace, indices).removed);
            QVERIFY(restored == trace);
        }
    }

    void aMoveGivesWhatTheMergeOfTheMovedRequestsGives() {
        // withMoved() copies the requests that stay in stretches; it must give exactly what
        // taking the moved ones out and merging them back one by one gives.
        std::mt19937 random(23);
        std::uniform_int_distribution<Tick> delta(-12, 12);
        for (int round = 0; round < 300; ++round) {
            const Trace trace = randomTrace(random, 1 + round % 25);
            const IndexList indices = randomSubset(random, trace.requests.size());
            const Tick d = clampMoveDelta(trace, indices, delta(random));
            const Move move = withMoved(trace, indices, d);
            QVERIFY(move.trace == movedThePlainWay(trace, indices, d));
            QCOMPARE(move.trace.durations.size(), trace.durations.size());
            QCOMPARE(move.indices.size(), indices.size());
            for (std::size_t k = 0; k < indices.size(); ++k)
                QCOMPARE(move.trace.requests[move.indices[k]].cost,
                         trace.requests[indices[k]].cost);
        }
    }

    void everyEditSaysTrulyWhichRequestsItChanged() {
        std::mt19937 random(29);
        for (int round = 0; round < 300; ++round) {
            const Trace trace = randomTrace(random, 2 + round % 20);
            const std::size_t size = trace.requests.size();
            IndexList indices = randomSubset(random, size);
            if (indices.empty())
                indices.push_back(random() % size);
            // An insertion.
            const std::size_t at = random() % (size + 1);
            const Trace inserted = withInserted(trace, at, Request{trace.requests[0].tick, 7, 0});
            QCOMPARE(inserted.requests.size(), size + 1);
            QCOMPARE(inserted.requests[at].cost, 7U);
            QCOMPARE(inserted.duration(at), Tick{0});
            QVERIFY(changeHolds(trace, inserted, *changeOf({}, size, {at}, size + 1)));
            QVERIFY(withRemoved(inserted, {at}).trace == trace);
            // A removal and its undo.
            const Removal removal = withRemoved(trace, indices);
            const std::size_t left = removal.trace.requests.size();
            QVERIFY(changeHolds(trace, removal.trace, *changeOf(indices, size, {}, left)));
            QVERIFY(changeHolds(removal.trace, trace, *changeOf({}, left, indices, size)));
            // A move and its undo.
            const Tick d = clampMoveDelta(trace, indices, static_cast<Tick>(random() % 9) - 4);
            const Move move = withMoved(trace, indices, d);
            QVERIFY(changeHolds(trace, move.trace, *changeOf(indices, size, move.indices, size)));
            QVERIFY(changeHolds(move.trace, trace, *changeOf(move.indices, size, indices, size)));
            // A change in place.
            const Trace costly =
                withCosts(trace, indices, std::vector<std::uint32_t>(indices.size(), 99));
            QCOMPARE(costly.requests.size(), size);
            QCOMPARE(costly.durations.size(), trace.durations.size());
            QVERIFY(changeHolds(trace, costly, *changeInPlace(indices, size)));
        }
        QVERIFY(!changeOf({}, 4, {}, 4).has_value());  // nothing changed: nothing to say
        const std::optional<TraceChange> ends = changeOf({0}, 5, {4}, 5);
        QCOMPARE(ends->first, std::size_t(0));
        QCOMPARE(ends->tail, std::size_t(0));
    }

    void stepsOfADragAddUpToOneMove() {
        // A drag is merged into one undo command that replays the total delta in one go.
        std::mt19937 random(5);
        std::uniform_int_distribution<Tick> delta(-3, 3);
        for (int round = 0; round < 200; ++round) {
            const Trace original = randomTrace(random, 10);
            const IndexList start = randomSubset(random, original.requests.size());
            Trace current = original;
            IndexList indices = start;
            Tick total = 0;
            for (int step = 0; step < 4; ++step) {
                const Tick d = clampMoveDelta(current, indices, delta(random));
                Move move = withMoved(current, indices, d);
                current = std::move(move.trace);
                indices = std::move(move.indices);
                total += d;
            }
            const Move direct = withMoved(original, start, total);
            QVERIFY(direct.trace == current);
            QCOMPARE(direct.indices, indices);
        }
    }

    void movesStopAtTickZero() {
        const Trace trace = traceOf({{3, 1}, {8, 1}});
        QCOMPARE(clampMoveDelta(trace, {0, 1}, -10), Tick(-3));
        QCOMPARE(clampMoveDelta(trace, {1}, -10), Tick(-8));
        QCOMPARE(clampMoveDelta(trace, {}, 5), Tick(0));
    }

    void costsChangeOnlyWhereAsked() {
        const Trace trace = traceOf({{1, 1}, {2, 1}, {3, 1}});
        const Trace changed = withCosts(trace, {0, 2}, {5, 7});
        QCOMPARE(costsAt(changed, {0, 1, 2}), (std::vector<std::uint32_t>{5, 1, 7}));
        QVERIFY(withCosts(changed, {0, 2}, {1, 1}) == trace);
    }

    void normalizedDropsBadIndices() {
        QCOMPARE(normalized({4, 1, 9, 1, 2}, 5), (IndexList{1, 2, 4}));
    }
};

QTEST_APPLESS_MAIN(TraceEditsTest)
#include "trace_edits_test.moc"
