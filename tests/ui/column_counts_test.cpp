// ColumnCounts sums pixel columns of a zoomed-out timeline from running totals; these checks
// compare it with counting request by request on seeded random traces.
#include <QTest>
#include <cmath>
#include <random>
#include <utility>

#include "session/trace_edits.h"
#include "timeline/column_counts.h"

using namespace ratelab;
using ratelab::ui::ColumnCounts;
using ratelab::ui::ColumnSummary;
using ratelab::ui::LaneTally;
using ratelab::ui::summarizeColumns;

namespace {

std::shared_ptr<const SimulationResult> randomResult(unsigned seed, std::size_t requests) {
    std::mt19937 random(seed);
    TraceBuilder builder;
    Tick tick = 0;
    for (std::size_t i = 0; i < requests; ++i) {
        tick += static_cast<Tick>(random() % 3);
        builder.add(tick, static_cast<std::uint32_t>(1 + random() % 4));
    }
    Params params;
    params.base.limit = 6;
    params.base.window = 5;
    return simulate(std::make_shared<const Trace>(std::move(builder).take()), params);
}

/// What a range holds, counted request by request: its cost and `run`'s tally.
std::pair<std::uint64_t, LaneTally> countOneByOne(const SimulationResult& result, std::size_t run,
                                                  std::size_t begin, std::size_t end,
                                                  std::size_t decided) {
    std::uint64_t cost = 0;
    LaneTally tally;
    for (std::size_t i = begin; i < end; ++i) {
        cost += result.trace->requests[i].cost;
        if (i >= decided)
            ++tally.pending;
        else if (result.runs[run].accepted(i))
            ++tally.accepted;
        else
            ++tally.rejected;
    }
    return {cost, tally};
}

}  // namespace

class ColumnCountsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void totalsBroughtUpToDateAfterAnEditMatchThoseSummedAgain() {
        // Edits of every kind and size, at every place relative to the blocks of 64: the
        // totals taken over from the counts before the edit must be those summed afresh.
        std::mt19937 random(41);
        for (int round = 0; round < 400; ++round) {
            const auto before = randomResult(static_cast<unsigned>(round), random() % 700);
            const ColumnCounts old_counts(before);
            const Trace& trace = *before->trace;
            const std::size_t size = trace.requests.size();
            Trace edited;
            std::optional<ratelab::TraceChange> change;
            ratelab::ui::IndexList some;
            const std::size_t many = 1 + random() % (round % 4 == 0 ? 150 : 3);
            for (std::size_t i = 0; i < size && some.size() < many; ++i) {
                if (random() % std::max<std::size_t>(1, size / many) == 0)
                    some.push_back(i);
            }
            switch (round % 4) {
                case 0: {
                    const std::size_t at = size == 0 ? 0 : random() % (size + 1);
                    const Tick tick = size == 0 ? 0 : trace.requests[std::min(at, size - 1)].tick;
                    edited = ratelab::ui::withInserted(trace, at, Request{tick, 5, 0});
                    change = ratelab::ui::changeOf({}, size, {at}, size + 1);
                    break;
                }
                case 1:
                    edited = ratelab::ui::withRemoved(trace, some).trace;
                    change = ratelab::ui::changeOf(some, size, {}, size - some.size());
                    break;
                case 2: {
                    const Tick delta = ratelab::ui::clampMoveDelta(trace, some, 3);
                    const ratelab::ui::Move move = ratelab::ui::withMoved(trace, some, delta);
                    edited = move.trace;
                    change = ratelab::ui::changeOf(some, size, move.indices, size);
                    break;
                }
                default:
                    edited = ratelab::ui::withCosts(trace, some,
                                                    std::vector<std::uint32_t>(some.size(), 9));
                    change = ratelab::ui::changeInPlace(some, size);
            }
            if (!change)
                continue;
            const auto after =
                resimulate(*before, std::make_shared<const Trace>(std::move(edited)), {}, change);
            const ColumnCounts updated(after, &old_counts);
            const ColumnCounts fresh(after);
            for (std::size_t i = 0; i <= after->trace->requests.size(); ++i) {
                if (updated.costBefore(i) != fresh.costBefore(i)) {
                    QFAIL(qPrintable(QStringLiteral("round %1, index %2: %3 instead of %4")
                                         .arg(round)
                                         .arg(i)
                                         .arg(updated.costBefore(i))
                                         .arg(fresh.costBefore(i))));
                }
            }
        }
        // Counts of another result are not taken over.
        const auto one = randomResult(1, 300);
        const auto other = randomResult(2, 300);
        const ColumnCounts of_one(one);
        const ColumnCounts of_other(other, &of_one);
        QCOMPARE(of_other.costBefore(300), ColumnCounts(other).costBefore(300));
    }

    void countsAfterAnEditShareTheChunksTheTracesShare() {
        // 60,000 requests, a dozen chunks or more: an edit in the middle copies one or two of
        // them, and the counts after it sum only those again; the same trace under other
        // parameters sums none. Either way the totals are those summed afresh.
        const auto before = randomResult(7, 60'000);
        const ColumnCounts old_counts(before);
        const Trace& trace = *before->trace;
        const std::size_t chunks = trace.requests.chunks();
        QVERIFY(chunks >= 12);
        const std::size_t at = 31'000;
        auto inserted = std::make_shared<const Trace>(
            ratelab::ui::withInserted(trace, at, Request{trace.requests[at].tick, 5, 0}));
        const auto after = resimulate(
            *before, inserted, {},
            ratelab::ui::changeOf({}, trace.requests.size(), {at}, trace.requests.size() + 1));
        const ColumnCounts updated(after, &old_counts);
        const std::size_t shared = inserted->requests.shared_chunks(trace.requests);
        QVERIFY(shared + 2 >= chunks);
        QCOMPARE(updated.sharedChunks(old_counts), shared);
        const ColumnCounts fresh(after);
        QCOMPARE(fresh.sharedChunks(old_counts), std::size_t{0});
        for (std::size_t i = 0; i <= inserted->requests.size(); i += 7)
            QCOMPARE(updated.costBefore(i), fresh.costBefore(i));
        QCOMPARE(updated.costBefore(inserted->requests.size()),
                 fresh.costBefore(inserted->requests.size()));

        Params other = before->params;
        other.base.limit += 3;
        const auto relimited = simulate(before->trace, other);
        const ColumnCounts same_trace(relimited, &old_counts);
        QCOMPARE(same_trace.sharedChunks(old_counts), chunks);
        QCOMPARE(same_trace.costBefore(trace.requests.size()),
                 old_counts.costBefore(trace.requests.size()));
    }

    void rangesMatchCountingOneByOne() {
        for (unsigned seed : {1u, 2u, 3u}) {
            const auto result = randomResult(seed, 1000 + seed * 77);
            const ColumnCounts counts(result);
            const auto& requests = result->trace->requests;
            std::mt19937 random(seed);
            for (int round = 0; round < 200; ++round) {
                std::size_t begin = random() % (requests.size() + 1);
                std::size_t end = random() % (requests.size() + 1);
                if (begin > end)
                    std::swap(begin, end);
                const std::size_t decided = random() % (requests.size() + 1);
                const std::size_t run = random() % result->runs.size();
                const auto [cost, expected] = countOneByOne(*result, run, begin, end, decided);
                const LaneTally got = counts.lane(run, begin, end, decided);
                const QByteArray where = QByteArray("seed ") + QByteArray::number(seed) +
                                         " range " + QByteArray::number(begin) + ".." +
                                         QByteArray::number(end);
                QVERIFY2(counts.cost(begin, end) == cost, where.constData());
                QVERIFY2(got.accepted == expected.accepted, where.constData());
                QVERIFY2(got.rejected == expected.rejected, where.constData());
                QVERIFY2(got.pending == expected.pending, where.constData());
            }
        }
    }

    void summariesAgreeCountedEitherWay() {
        // Counted one by one (few requests visible) or from running totals (many), every
        // column's cost and tallies must be those of counting each request.
        for (unsigned seed : {4u, 5u}) {
            const auto result = randomResult(seed, 3000 + seed * 31);
            const ColumnCounts counts(result);
            const auto& requests = result->trace->requests;
            std::mt19937 random(seed);
            for (int round = 0; round < 20; ++round) {
                std::vector<std::size_t> bounds{random() % 200};
                while (bounds.back() < requests.size() - 300)
                    bounds.push_back(bounds.back() + random() % 40);  // empty columns too
                const std::size_t decided = random() % (requests.size() + 1);
                const ColumnSummary one_by_one =
                    summarizeColumns(*result, bounds, decided, nullptr);
                const ColumnSummary from_totals =
                    summarizeColumns(*result, bounds, decided, &counts);
                QCOMPARE(one_by_one.cost, from_totals.cost);
                QCOMPARE(one_by_one.lanes.size(), result->runs.size());
                for (std::size_t run = 0; run < result->runs.size(); ++run) {
                    for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
                        const auto [cost, expected] =
                            countOneByOne(*result, run, bounds[c], bounds[c + 1], decided);
                        QCOMPARE(one_by_one.cost[c], cost);
                        for (const ColumnSummary* summary : {&one_by_one, &from_totals}) {
                            const LaneTally& got = summary->lanes[run][c];
                            QCOMPARE(got.accepted, expected.accepted);
                            QCOMPARE(got.rejected, expected.rejected);
                            QCOMPARE(got.pending, expected.pending);
                        }
                    }
                }
            }
        }
    }

    void columnsHoldTheRequestsWhoseXFallsInThem() {
        const auto result = randomResult(9, 5000);
        const Trace& trace = *result->trace;
        const double ticks_per_pixel = 3.7;
        const double offset = 40.0;  // ticks scrolled out on the left
        const auto x_of = [&](Tick tick) {
            return (static_cast<double>(tick) + 0.5 - offset) / ticks_per_pixel;
        };
        const double width = 801.0;
        const std::vector<std::size_t> bounds =
            ColumnCounts::columnBounds(trace, 0, trace.requests.size(), 2.0, width, x_of);
        QCOMPARE(bounds.size(), static_cast<std::size_t>(width / 2.0) + 2);
        for (std::size_t i = 0; i < trace.requests.size(); ++i) {
            const double x = x_of(trace.requests[i].tick);
            const auto column = std::upper_bound(bounds.begin(), bounds.end(), i) - bounds.begin();
            if (x < 0.0 || x >= width) {
                // Outside the plot: before the first bound or from the last on.
                QVERIFY(i < bounds.front() || i >= bounds.back());
            } else {
                QCOMPARE(static_cast<std::ptrdiff_t>(column - 1),
                         static_cast<std::ptrdiff_t>(std::floor(x / 2.0)));
            }
        }
    }

    void boundsFromAHintAreThoseSearchedFor() {
        // Whatever the hint (right, off by a little, past the end, of another view), the bounds
        // are those a search finds; and the counts after an edit start from the bounds found
        // before it, moved past the edit.
        const auto before = randomResult(5, 40'000);
        const Trace& trace = *before->trace;
        const auto x_in = [](double ticks_per_pixel) {
            return [ticks_per_pixel](Tick tick) {
                return (static_cast<double>(tick) + 0.5 - 100.0) / ticks_per_pixel;
            };
        };
        const std::size_t size = trace.requests.size();
        const auto searched = [&](const Trace& of, double ticks_per_pixel) {
            return ColumnCounts::columnBounds(of, 0, of.requests.size(), 2.0, 700.0,
                                              x_in(ticks_per_pixel));
        };
        const std::vector<std::size_t> right = searched(trace, 53.0);
        std::mt19937 random(3);
        for (int round = 0; round < 50; ++round) {
            std::vector<std::size_t> hint = round % 5 == 0 ? searched(trace, 41.0) : right;
            for (std::size_t& guess : hint) {
                if (random() % 3 == 0)
                    guess = round % 2 == 0 ? guess + random() % 3 - 1 : random() % (size + 9);
            }
            QCOMPARE(ColumnCounts::columnBounds(trace, 0, size, 2.0, 700.0, x_in(53.0), hint),
                     right);
        }

        const ColumnCounts old_counts(before);
        const ColumnCounts::View view{100.0, 1.0 / 53.0, 700.0, 2.0};
        QCOMPARE(old_counts.viewColumns(view, 0, size, x_in(53.0)), right);
        const std::size_t at = 12'345;
        auto inserted = std::make_shared<const Trace>(
            ratelab::ui::withInserted(trace, at, Request{trace.requests[at].tick, 2, 0}));
        const auto after =
            resimulate(*before, inserted, {}, ratelab::ui::changeOf({}, size, {at}, size + 1));
        const ColumnCounts updated(after, &old_counts);
        // Two reads a column, but for the few columns next to the edit: those are searched for.
        std::size_t reads = 0;
        const auto counted = [&](Tick tick) {
            ++reads;
            return x_in(53.0)(tick);
        };
        QCOMPARE(updated.viewColumns(view, 0, size + 1, counted), searched(*inserted, 53.0));
        QVERIFY2(reads <= 2 * right.size() + 2 * 20, qPrintable(QString::number(reads)));
        const ColumnCounts::View zoomed{100.0, 1.0 / 41.0, 700.0, 2.0};
        QCOMPARE(updated.viewColumns(zoomed, 0, size + 1, x_in(41.0)), searched(*inserted, 41.0));
    }
};

QTEST_GUILESS_MAIN(ColumnCountsTest)
#include "column_counts_test.moc"
