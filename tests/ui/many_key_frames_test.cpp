// FrameModel over traces of many keys, whose runs keep no checkpoints: the figures up to the
// clock are counted again only for the keys an edit or a move touched, far moves and new
// settings are counted on a thread, and whatever the path the frame must show what counting
// every key gives.
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>
#include <functional>
#include <future>
#include <memory>
#include <new>

#include "ratelab/key_figures.h"
#include "session/frame_model.h"
#include "session/playback_clock.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// `count` requests from eight clients, more keys than runs keep checkpoints for.
SessionDocument eightClients(Tick count = 6'000) {
    TraceBuilder builder;
    for (Tick t = 0; t < count; ++t) {
        builder.add(t / 2, t % 5 == 0 ? 2u : 1u,
                    "client-" + std::to_string(static_cast<int>(t * 7 % 8)));
    }
    SessionDocument document = SessionDocument::defaultScenario();
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    return document;
}

/// Whether `frame`'s key figures are those of counting every key of the session's simulation up to
/// the frame's clock.
bool countedUpToClock(const Frame& frame, const Session& session) {
    const bool everything = frame.revealed == session.result();
    const KeyScope scope{frame.decided, everything ? std::nullopt : std::optional<Tick>(frame.now)};
    return frame.keys && *frame.keys == every_lane_key_figures(*session.result(), scope);
}

/// Makes `step`, each thread it starts counting figures calling `gate` first; later threads none.
void countingThrough(std::function<void()> gate, const std::function<void()>& step) {
    FrameModel::setCountingGateForTest(std::move(gate));
    step();
    FrameModel::setCountingGateForTest({});
}

/// A gate that holds the count until `until` is set.
std::function<void()> heldUntil(std::promise<void>& until) {
    return [done = until.get_future().share()] { done.wait(); };
}

/// 60,000 requests from eight clients, past FrameModel::kSynchronousRevealLimit, with the clock
/// at the end and its figures counted.
struct AtTheEnd {
    Session session;
    PlaybackClock clock;
    FrameModel frames{&session, &clock};

    AtTheEnd() {
        QVERIFY(session.reset(eightClients(60'000), QString()).isEmpty());
        clock.jumpToEnd();
        QTRY_VERIFY_WITH_TIMEOUT(!frames.counting(), 60'000);
    }
};

}  // namespace

class ManyKeyFramesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void framesAfterAnEditOfManyKeysCountTheirFiguresAlike() {
        // Eight clients, more than runs keep checkpoints for: after an edit the frame counts
        // again only the keys it touched, and must show what counting every key gives.
        Session session;
        QVERIFY(session.reset(eightClients(), QString()).isEmpty());
        PlaybackClock clock;
        FrameModel frames(&session, &clock);
        clock.jumpToEnd();
        const auto countedAlike = [&] {
            return frames.frame().keys && frames.frame().revealed == session.result() &&
                   *frames.frame().keys == every_lane_key_figures(*session.result());
        };
        QVERIFY(countedAlike());
        session.moveRequests({100, 101}, 3, session.newGesture());
        QVERIFY(countedAlike());
        session.removeRequests({2'000});
        QVERIFY(countedAlike());
        const auto before = frames.frame().keys;
        session.setCosts({4'000}, {7});  // more than L: refused, and its key's figures change
        QVERIFY(countedAlike());
        QVERIFY(*frames.frame().keys != *before);
        session.addRequest(1'500);
        QVERIFY(countedAlike());
        session.undoStack()->undo();
        session.undoStack()->undo();
        QVERIFY(countedAlike());
    }

    void framesAsTheClockMovesOverManyKeysCountTheirFiguresAlike() {
        // Eight clients: as the clock steps, jumps and comes back, the frame counts again only
        // the keys whose figures the move can change, and must show what counting every key up
        // to the clock gives.
        Session session;
        QVERIFY(session.reset(eightClients(), QString()).isEmpty());
        PlaybackClock clock;
        FrameModel frames(&session, &clock);
        const auto countedAlike = [&] { return countedUpToClock(frames.frame(), session); };
        for (const Tick now : {Tick{1'000}, Tick{1'001}, Tick{1'002}, Tick{1'001}, Tick{2'400},
                               Tick{2'999}, Tick{3'000}, Tick{3'010}, Tick{40}, Tick{41}}) {
            clock.setNow(now);
            QVERIFY2(countedAlike(), qPrintable(QStringLiteral("clock at %1").arg(now)));
        }
        clock.jumpToEnd();
        QVERIFY(countedAlike());
        clock.stepBack();
        QVERIFY(countedAlike());
    }

    void farMovesOfTheClockOverManyKeysCountTheirFiguresOnAThread() {
        // Past FrameModel::kSynchronousRevealLimit requests the markers move at once and the
        // figures follow from a thread; moves made meanwhile are counted next, and the last
        // figures are those of the last clock.
        AtTheEnd at;
        if (QTest::currentTestFailed())
            return;
        const auto countedAlike = [&] { return countedUpToClock(at.frames.frame(), at.session); };
        QCOMPARE(at.frames.frame().revealed, at.session.result());
        at.clock.setNow(20'000);
        QVERIFY(at.frames.counting());
        QCOMPARE(at.frames.frame().now, Tick{20'000});
        QCOMPARE(at.frames.frame().revealed, at.session.result());  // still the figures of before
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QVERIFY(at.frames.frame().revealed != at.session.result());
        QVERIFY(countedAlike());
        // A run of moves while the thread counts: the figures end at the last clock. (Each
        // clock has over kSynchronousRevealLimit requests up to it: two requests a tick.)
        for (const Tick now : {Tick{29'000}, Tick{29'001}, Tick{12'000}, Tick{12'002}})
            at.clock.setNow(now);
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QCOMPARE(at.frames.frame().now, Tick{12'002});
        QVERIFY(countedAlike());
        at.clock.jumpToEnd();
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QCOMPARE(at.frames.frame().revealed, at.session.result());
        QVERIFY(countedAlike());
        // An edit while the thread counts: the edit's own figures are counted here, and the
        // thread's, of the simulation before it and done after, are not taken.
        std::promise<void> edited;
        countingThrough(heldUntil(edited), [&] { at.clock.setNow(15'000); });
        QVERIFY(at.frames.counting());
        at.session.removeRequests({19'000});
        QCoreApplication::processEvents();  // the edit's figures
        QVERIFY(countedAlike());
        // They are the clock's: the frame does not say they are being counted.
        QTest::qWait(FrameModel::kSlowCountMs * 2);
        QVERIFY(!at.frames.frame().counting);
        edited.set_value();
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QCOMPARE(at.frames.frame().result, at.session.result());
        QVERIFY(countedAlike());
    }

    void aSlowCountSaysTheFiguresAreOfAnEarlierClock() {
        AtTheEnd at;
        if (QTest::currentTestFailed())
            return;
        QSignalSpy changed(&at.frames, &FrameModel::frameChanged);
        // A count held longer than kSlowCountMs: the frame says so, and its figures are still
        // those of the end.
        std::promise<void> held;
        countingThrough(heldUntil(held), [&] { at.clock.setNow(20'000); });
        QVERIFY(!at.frames.frame().counting);  // a count during playback comes sooner
        QTRY_VERIFY(at.frames.frame().counting);
        QVERIFY(changed.last().at(0).value<Frame>().counting);
        QCOMPARE(at.frames.frame().revealed, at.session.result());
        // A move meanwhile: still counting, until the figures of the last clock are in.
        at.clock.setNow(21'000);
        QVERIFY(at.frames.frame().counting);
        held.set_value();
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QVERIFY(!at.frames.frame().counting);
        QVERIFY(!changed.last().at(0).value<Frame>().counting);
        QCOMPARE(at.frames.frame().now, Tick{21'000});
        QVERIFY(countedUpToClock(at.frames.frame(), at.session));
    }

    void aChangeOfTheSettingsOverManyKeysCountsItsFiguresOnAThread() {
        // New settings decide the trace again, and every key's figures change: they are counted
        // on a thread, the frame saying at once that those on show are of the settings before.
        AtTheEnd at;
        if (QTest::currentTestFailed())
            return;
        QSignalSpy changed(&at.frames, &FrameModel::frameChanged);
        const auto before = at.frames.frame().keys;
        const auto changeL = [&](std::int64_t by) {
            Params params = at.session.params();
            params.base.limit += by;
            QVERIFY(at.session.setParams(params, QStringLiteral("L"), 0).isEmpty());
        };
        std::promise<void> held;
        countingThrough(heldUntil(held), [&] { changeL(1); });
        QVERIFY(at.frames.counting());
        QCOMPARE(at.frames.frame().result, at.session.result());
        QVERIFY(at.frames.frame().counting);
        QVERIFY(at.frames.frame().earlier_settings);
        QCOMPARE(at.frames.frame().keys, before);
        QVERIFY(changed.last().at(0).value<Frame>().earlier_settings);
        // Another change while the thread counts the first: the figures end as the last's.
        changeL(1);
        held.set_value();
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QVERIFY(!at.frames.frame().counting);
        QVERIFY(!at.frames.frame().earlier_settings);
        QCOMPARE(at.frames.frame().revealed, at.session.result());
        QVERIFY(countedUpToClock(at.frames.frame(), at.session));
        QVERIFY(*at.frames.frame().keys != *before);
        // Undone, and with the clock inside the trace.
        at.session.undoStack()->undo();
        QVERIFY(at.frames.frame().earlier_settings);
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QVERIFY(countedUpToClock(at.frames.frame(), at.session));
        at.clock.setNow(20'000);
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        changeL(-1);
        QVERIFY(at.frames.frame().earlier_settings);
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QVERIFY(!at.frames.frame().counting);
        QVERIFY(at.frames.frame().revealed != at.session.result());
        QVERIFY(countedUpToClock(at.frames.frame(), at.session));
    }

    void aCountThatFailsSaysSoAndKeepsItsFiguresMuted() {
        AtTheEnd at;
        if (QTest::currentTestFailed())
            return;
        QSignalSpy failures(&at.frames, &FrameModel::failed);
        countingThrough([] { throw std::bad_alloc(); }, [&] { at.clock.setNow(20'000); });
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QCOMPARE(failures.count(), 1);
        QVERIFY(failures.first().at(0).toString().contains(QStringLiteral("not enough memory")));
        // The end's figures stay, muted, and the frame says they could not be counted.
        QVERIFY(at.frames.frame().counting);
        QVERIFY(at.frames.frame().count_failed);
        QCOMPARE(at.frames.frame().revealed, at.session.result());
        // The next move counts again.
        at.clock.setNow(21'000);
        QVERIFY(!at.frames.frame().count_failed);
        QTRY_VERIFY_WITH_TIMEOUT(!at.frames.counting(), 60'000);
        QVERIFY(!at.frames.frame().counting);
        QVERIFY(countedUpToClock(at.frames.frame(), at.session));
    }

    void aFrameModelGoneWhileCountingWaitsForItsThread() {
        Session session;
        QVERIFY(session.reset(eightClients(60'000), QString()).isEmpty());
        PlaybackClock clock;
        auto frames = std::make_unique<FrameModel>(&session, &clock);
        clock.setNow(20'000);
        QVERIFY(frames->counting());
        frames.reset();
        QCoreApplication::processEvents();  // its call back must not come
        clock.setNow(21'000);
    }
};

QTEST_GUILESS_MAIN(ManyKeyFramesTest)
#include "many_key_frames_test.moc"
