// Session, undo commands, playback clock and frames, without any widget.
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>
#include <memory>

#include "ratelab/registry.h"
#include "session/frame_model.h"
#include "session/playback_clock.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

std::int64_t decidedCount(const SimulationResult& result, const std::string& id) {
    const AlgorithmRun* run = result.find(id);
    return run->totals.accepted + run->totals.rejected;
}

}  // namespace

class SessionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void opensOnTheDefaultScenario() {
        Session session;
        QVERIFY(session.trace() == default_trace());
        QVERIFY(session.params() == default_params());
        QVERIFY(session.result());
        QCOMPARE(session.result()->runs.size(), Registry::instance().all().size());
        QVERIFY(!session.isModified());
    }

    void addingARequestResimulatesAndUndoRemovesIt() {
        Session session;
        QSignalSpy published(&session, &Session::resultChanged);
        const auto before = session.result();
        session.addRequest(14);
        QCOMPARE(published.count(), 1);
        QCOMPARE(session.trace().requests.size(), default_trace().requests.size() + 1);
        QCOMPARE(session.trace().requests.back().tick, Tick(14));
        QCOMPARE(session.selection(), (IndexList{session.trace().requests.size() - 1}));
        for (const AlgorithmRun& run : session.result()->runs) {
            QCOMPARE(decidedCount(*session.result(), run.id), decidedCount(*before, run.id) + 1);
        }
        QVERIFY(before->trace->requests.size() == default_trace().requests.size());  // immutable
        QVERIFY(session.isModified());
        session.undoStack()->undo();
        QVERIFY(session.trace() == default_trace());
        QVERIFY(!session.isModified());
    }

    void anEditOfALongTraceSharesWhatItDidNotChange() {
        // 100,000 requests in chunks of RequestColumn::kChunk: an edit copies the chunks it
        // changes, and the trace before it (held by the result on show and by undo) keeps
        // the rest, shared.
        TraceBuilder builder;
        for (Tick t = 0; t < 100'000; ++t)
            builder.add(t, 1, t % 3 == 0 ? "a" : "b");
        SessionDocument document = SessionDocument::defaultScenario();
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        Session session;
        QVERIFY(session.reset(document, QString()).isEmpty());
        const auto chunks = [&] { return session.trace().requests.chunks(); };
        const auto sharedWith = [&](const std::shared_ptr<const SimulationResult>& before) {
            return session.trace().requests.shared_chunks(before->trace->requests);
        };
        QVERIFY(chunks() >= 20);

        auto before = session.result();
        session.addRequest(50'000);
        QCOMPARE(session.trace().requests.size(), std::size_t(100'001));
        QVERIFY(sharedWith(before) >= chunks() - 2);
        before = session.result();
        session.moveRequests({10, 70'000}, 3, session.newGesture());
        QVERIFY(sharedWith(before) >= chunks() - 4);
        before = session.result();
        session.removeRequests({0, 99'999});
        QVERIFY(sharedWith(before) >= chunks() - 4);
        before = session.result();
        session.setCosts({5}, {9});
        QVERIFY(sharedWith(before) >= chunks() - 1);

        // Undone and redone, the edits give what a fresh simulation of the same trace gives.
        for (int step = 0; step < 4; ++step)
            session.undoStack()->undo();
        QVERIFY(session.trace() == *document.trace);
        for (int step = 0; step < 4; ++step)
            session.undoStack()->redo();
        QCOMPARE(session.trace().requests[5].cost, 9U);
        const std::shared_ptr<const SimulationResult> fresh =
            simulate(session.document().trace, session.params());
        for (std::size_t lane = 0; lane < fresh->runs.size(); ++lane)
            QVERIFY(session.result()->runs[lane].decisions == fresh->runs[lane].decisions);
    }

    void deleteAndUndoRestoreTheSameTraceAndSelection() {
        Session session;
        session.removeRequests({0, 3, 7});
        QCOMPARE(session.trace().requests.size(), std::size_t(5));
        QVERIFY(session.selection().empty());
        session.undoStack()->undo();
        QVERIFY(session.trace() == default_trace());
        QCOMPARE(session.selection(), (IndexList{0, 3, 7}));
        session.undoStack()->redo();
        QCOMPARE(session.trace().requests.size(), std::size_t(5));
    }

    void aDragIsOneUndoStep() {
        Session session;
        const int drag = session.newGesture();
        IndexList moving{0};
        moving = session.moveRequests(moving, 2, drag);
        moving = session.moveRequests(moving, 3, drag);
        moving = session.moveRequests(moving, -1, drag);
        QCOMPARE(session.undoStack()->count(), 1);
        QCOMPARE(session.trace().requests[moving.front()].tick, Tick(6 + 4));
        QCOMPARE(session.selection(), moving);
        session.undoStack()->undo();
        QVERIFY(session.trace() == default_trace());
        session.undoStack()->redo();
        QCOMPARE(session.trace().requests[session.selection().front()].tick, Tick(10));
    }

    void separateDragsAreSeparateSteps() {
        Session session;
        session.moveRequests({0}, 1, session.newGesture());
        session.moveRequests(session.selection(), 1, session.newGesture());
        QCOMPARE(session.undoStack()->count(), 2);
    }

    void movesStopAtTickZero() {
        Session session;
        session.moveRequests({0}, -100, session.newGesture());
        QCOMPARE(session.trace().requests.front().tick, Tick(0));
    }

    void wheelStepsOnTheSameRequestsMerge() {
        Session session;
        session.stepCosts({1, 2}, +1);
        session.stepCosts({1, 2}, +1);
        QCOMPARE(session.undoStack()->count(), 1);
        QCOMPARE(session.trace().requests[1].cost, 3U);
        session.stepCosts({1, 2}, -10);
        QCOMPARE(session.trace().requests[2].cost, 1U);  // never below 1
        session.undoStack()->undo();
        QVERIFY(session.trace() == default_trace());
    }

    void aRequestGetsAKeyAndUndoGivesBackTheOld() {
        Session session;  // the default scenario: eight requests of the default key
        QVERIFY(session.setKey({1, 3}, "alice").isEmpty());
        QCOMPARE(session.undoStack()->count(), 1);
        const Trace& keyed = session.trace();
        QCOMPARE(keyed.key_name(keyed.requests[1].key), std::string("alice"));
        QCOMPARE(keyed.key_name(keyed.requests[3].key), std::string("alice"));
        QCOMPARE(keyed.key_name(keyed.requests[2].key), std::string());
        // Each key has its own state now: alice's two requests are judged apart.
        QVERIFY(!session.result()->sole_key.has_value());
        // The same key again changes nothing and adds no step; a known key is reused.
        QVERIFY(session.setKey({1}, "alice").isEmpty());
        QCOMPARE(session.undoStack()->count(), 1);
        QVERIFY(session.setKey({2}, "alice").isEmpty());
        QCOMPARE(session.trace().keys.size(), std::size_t{2});
        // A key too long to save is refused with the reason, and nothing changes.
        const QString refused = session.setKey({4}, std::string(300, 'k'));
        QVERIFY(refused.contains(QStringLiteral("at most 256 bytes")));
        QCOMPARE(session.undoStack()->count(), 2);
        session.undoStack()->undo();
        session.undoStack()->undo();
        QVERIFY(session.trace() == default_trace());  // the key table as it was, too
    }

    void aRequestHoldsForItsOwnDurationAndEditsCarryIt() {
        Session session;  // the default scenario: one request on each of ticks 6 to 13
        Params params = session.params();
        params.lanes = {Lane{
            "concurrency", {{"max_in_flight", Rational(1)}, {"duration", Rational(1)}}, {}, false}};
        QVERIFY(session.setParams(params, QStringLiteral("lanes"), 1).isEmpty());
        QCOMPARE(session.result()->runs.front().totals.rejected, std::int64_t{0});
        // The request at 6 now holds until 9: those at 7 and 8 find no room.
        QVERIFY(session.setDuration({0}, 3).isEmpty());
        QCOMPARE(session.trace().duration(0), Tick{3});
        QCOMPARE(session.result()->runs.front().totals.rejected, std::int64_t{2});
        QVERIFY(!session.result()->runs.front().accepted(1));
        // The same again adds no step; one out of bounds is refused with the reason.
        const int steps = session.undoStack()->count();
        QVERIFY(session.setDuration({0}, 3).isEmpty());
        QVERIFY(session.setDuration({0}, -1).contains(QStringLiteral("0 for the lane's own")));
        QCOMPARE(session.undoStack()->count(), steps);
        // Deleting the request before it and moving it keep its duration with it.
        session.removeRequests({1});
        QCOMPARE(session.trace().duration(0), Tick{3});
        const IndexList moved = session.moveRequests({0}, 4, 1);
        QCOMPARE(moved.size(), std::size_t{1});
        const std::size_t at = moved.front();
        QCOMPARE(session.trace().requests[at].tick, Tick{10});
        QCOMPARE(session.trace().duration(at), Tick{3});
        for (int i = 0; i < 3; ++i)
            session.undoStack()->undo();
        // Back to no duration at all: the trace has no column, as it had none when opened.
        QVERIFY(session.trace().durations.empty());
        QCOMPARE(session.result()->runs.front().totals.rejected, std::int64_t{0});
    }

    void invalidParametersAreRefusedWithAReason() {
        Session session;
        Params params = session.params();
        params.base.limit = 0;
        const QString problem = session.setParams(params, QStringLiteral("L = 0"), 1);
        QVERIFY(!problem.isEmpty());
        QCOMPARE(session.undoStack()->count(), 0);
        QVERIFY(session.params() == default_params());
    }

    void changingLResimulatesAndMergesConsecutiveEdits() {
        Session session;
        for (const int limit : {5, 6, 2}) {
            Params params = session.params();
            params.base.limit = limit;
            QVERIFY(session.setParams(params, QStringLiteral("L"), 1).isEmpty());
        }
        QCOMPARE(session.undoStack()->count(), 1);
        Params expected_params = default_params();
        expected_params.base.limit = 2;
        const auto expected =
            simulate(std::make_shared<const Trace>(default_trace()), expected_params);
        for (const AlgorithmRun& run : expected->runs) {
            QCOMPARE(session.result()->find(run.id)->totals, run.totals);
        }
        session.undoStack()->undo();
        QVERIFY(session.params() == default_params());
    }

    void savingClearsTheModifiedMark() {
        Session session;
        QSignalSpy modified(&session, &Session::modifiedChanged);
        session.addRequest(3);
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().at(0).toBool(), true);
        session.markSaved(QStringLiteral("/tmp/some-trace.json"));
        QVERIFY(!session.isModified());
        QCOMPARE(session.displayName(), QStringLiteral("some-trace.json"));
        session.undoStack()->undo();
        QVERIFY(session.isModified());  // the file holds the edit, the session no longer does
    }

    void aDocumentThatCannotBeSimulatedReplacesNothing() {
        Session session;
        session.addRequest(17);
        const auto result_before = session.result();
        const SessionDocument before = session.document();
        QSignalSpy results(&session, &Session::resultChanged);
        QSignalSpy resets(&session, &Session::documentReset);
        SessionDocument unusable = SessionDocument::defaultScenario();
        unusable.name = "Cannot be simulated";
        unusable.params.base.window = 0;
        const QString error = session.reset(std::move(unusable), QStringLiteral("/tmp/x.json"));
        QVERIFY(!error.isEmpty());
        QVERIFY(session.result() == result_before);
        QCOMPARE(session.document().name, before.name);
        QVERIFY(session.trace() == *before.trace);
        QVERIFY(session.filePath().isEmpty());
        QVERIFY(session.isModified());  // the unsaved edit is still there, and undoable
        QCOMPARE(session.undoStack()->count(), 1);
        QCOMPARE(results.count(), 0);
        QCOMPARE(resets.count(), 0);
    }

    void aNewDocumentAfterRecoveredWorkIsUnmodified() {
        Session session;
        session.markUnsaved();  // as recovery does
        QVERIFY(session.isModified());
        QVERIFY(session.reset(SessionDocument::defaultScenario(), QStringLiteral("/tmp/a.json"))
                    .isEmpty());
        QVERIFY(!session.isModified());
        session.addRequest(3);
        session.undoStack()->undo();
        QVERIFY(!session.isModified());
    }

    void theEndCoversAWindowAndTheLongestQueueWait() {
        Session session;
        Rational longest;
        for (const AlgorithmRun& run : session.result()->runs) {
            longest = std::max(longest, run.totals.max_delay);
        }
        const Tick last = session.trace().requests.back().tick;
        QVERIFY(longest > Rational(0));
        QCOMPARE(session.endTick(),
                 std::max(last + session.params().base.window, last + longest.ceil() + 1));
        // A long, slow queue: its last release comes well after one window.
        SessionDocument queued = SessionDocument::defaultScenario();
        queued.params.base.set_override("leaky_bucket", "queue_size", Rational(8));
        queued.params.base.set_override("leaky_bucket", "drain_interval", Rational(10));
        session.reset(queued, {});
        longest = Rational();
        for (const AlgorithmRun& run : session.result()->runs) {
            longest = std::max(longest, run.totals.max_delay);
        }
        QVERIFY(longest.ceil() + 1 > session.params().base.window);
        QCOMPARE(session.endTick(), last + longest.ceil() + 1);
        queued.duration = 500;
        session.reset(queued, {});
        QCOMPARE(session.endTick(), Tick(500));
    }

    void theClockStepsWithinItsRange() {
        PlaybackClock clock;
        clock.setEnd(5);
        QSignalSpy moved(&clock, &PlaybackClock::nowChanged);
        clock.stepBack();
        QCOMPARE(clock.now(), Tick(0));
        QCOMPARE(moved.count(), 0);
        for (int i = 0; i < 8; ++i) {
            clock.stepForward();
        }
        QCOMPARE(clock.now(), Tick(5));
        QCOMPARE(moved.count(), 5);
        clock.setEnd(3);
        QCOMPARE(clock.now(), Tick(3));
        clock.reset();
        QCOMPARE(clock.now(), Tick(0));
    }

    void playingRunsToTheEndAndStops() {
        PlaybackClock clock;
        clock.setEnd(6);
        clock.setSpeed(100);
        QSignalSpy playing(&clock, &PlaybackClock::playingChanged);
        clock.play();
        QVERIFY(clock.isPlaying());
        QTRY_COMPARE_WITH_TIMEOUT(clock.now(), Tick(6), 3000);
        QTRY_VERIFY_WITH_TIMEOUT(!clock.isPlaying(), 1000);
        QCOMPARE(playing.count(), 2);
        clock.play();  // at the end, play starts over
        QVERIFY(clock.now() < Tick(6));
        clock.pause();
    }

    void speedStepsThroughTheOfferedSpeeds() {
        PlaybackClock clock;
        const double start = clock.speed();
        clock.faster();
        QVERIFY(clock.speed() > start);
        clock.slower();
        QCOMPARE(clock.speed(), start);
        for (int i = 0; i < 20; ++i) {
            clock.slower();
        }
        QCOMPARE(clock.speed(), PlaybackClock::speeds().front());
    }

    void framesRevealOnlyWhatTheClockHasReached() {
        Session session;
        PlaybackClock clock;
        FrameModel frames(&session, &clock);
        QCOMPARE(clock.end(), session.endTick());
        clock.setNow(9);  // requests at 6, 7, 8, 9 are decided
        const Frame& frame = frames.frame();
        QCOMPARE(frame.decided, std::size_t(4));
        QVERIFY(frame.isRevealed(3) && !frame.isRevealed(4));
        Trace prefix = default_trace();
        prefix.requests.resize(4);
        const auto expected = simulate(std::make_shared<const Trace>(prefix), session.params());
        for (const AlgorithmRun& run : expected->runs) {
            QCOMPARE(frame.revealed->find(run.id)->totals, run.totals);
            if (!run.releases)
                QCOMPARE(frame.revealed->find(run.id)->worst_burst, run.worst_burst);
        }
        // The leaky bucket has let through only its units at 6 and 8.5 by t = 9; those at 11 and
        // 13.5 are still queued.
        QCOMPARE(frame.revealed->find("leaky_bucket")->worst_burst, (Burst{2, Rational(6)}));
        // Every request is decided at t = 13, but the queue still holds units until t = 21.
        clock.setNow(13);
        QCOMPARE(frames.frame().decided, session.trace().requests.size());
        QCOMPARE(frames.frame().revealed->find("leaky_bucket")->worst_burst.cost, 3);
        clock.setNow(16);  // no request in between: the units at 13.5 and 16 have left
        QCOMPARE(frames.frame().revealed->find("leaky_bucket")->worst_burst.cost, 4);
        clock.jumpToEnd();
        QCOMPARE(frames.frame().revealed, session.result());
    }

    void anEditExtendsTheClock() {
        Session session;
        PlaybackClock clock;
        FrameModel frames(&session, &clock);
        const Tick end = clock.end();
        session.addRequest(end + 5);
        QVERIFY(clock.end() > end + 5);
    }
};

QTEST_GUILESS_MAIN(SessionTest)
#include "session_test.moc"
