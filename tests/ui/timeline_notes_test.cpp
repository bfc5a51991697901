// Notes pinned to a trace's ticks: added, edited and deleted as undo steps, saved with the
// trace, and drawn in a strip under the ruler with a guide down through the rows.
#include <QDir>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "driving.h"
#include "ratelab/limits.h"
#include "session/document_files.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/decision_tooltip.h"
#include "timeline/timeline_painter.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

class TimelineNotesTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    TimelineView* view() const { return window_->timeline(); }
    Session* session() const { return window_->session(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }

    void init() {
        window_ = shownWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(session()->reset(bundledDocument("boundary-burst"), QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
    }

    void cleanup() {
        session()->undoStack()->setClean();
        window_.reset();
    }

    void notesAreUndoableStepsKeptInTickOrder() {
        QSignalSpy changed(session(), &Session::notesChanged);
        QVERIFY(session()
                    ->setNotes({{10, "turn over"}, {6, "burst"}}, QStringLiteral("Add"))
                    .isEmpty());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(session()->notes().size(), std::size_t{2});
        QCOMPARE(session()->notes()[0], (TraceNote{6, "burst"}));
        QCOMPARE(session()->notes()[1], (TraceNote{10, "turn over"}));
        QVERIFY(session()->isModified());
        session()->undoStack()->undo();
        QVERIFY(session()->notes().empty());
        session()->undoStack()->redo();
        QCOMPARE(session()->notes().size(), std::size_t{2});
        // The same notes again are no step at all.
        const int steps = session()->undoStack()->count();
        QVERIFY(session()->setNotes(session()->notes(), QStringLiteral("Again")).isEmpty());
        QCOMPARE(session()->undoStack()->count(), steps);
    }

    void aNoteThatBreaksARuleIsRefusedAndNothingChanges() {
        QVERIFY(session()->setNotes({{3, "kept"}}, QStringLiteral("Add")).isEmpty());
        const int steps = session()->undoStack()->count();
        const std::vector<std::vector<TraceNote>> bad{
            {{3, "kept"}, {4, "   "}},
            {{3, std::string(bounds::kMaxNoteBytes + 1, 'x')}},
            {{-1, "before time"}},
            std::vector<TraceNote>(bounds::kMaxNotes + 1, TraceNote{1, "n"}),
        };
        for (const std::vector<TraceNote>& notes : bad) {
            QVERIFY(!session()->setNotes(notes, QStringLiteral("Bad")).isEmpty());
            QCOMPARE(session()->notes(), (std::vector<TraceNote>{{3, "kept"}}));
            QCOMPARE(session()->undoStack()->count(), steps);
        }
        QVERIFY(session()
                    ->setNotes({{3, std::string(bounds::kMaxNoteBytes, 'x')}},
                               QStringLiteral("Longest"))
                    .isEmpty());
    }

    void notesAreSavedWithTheTraceAndOpenAgain() {
        QVERIFY(session()->setNotes({{10, "turn ✓ over"}}, QStringLiteral("Add")).isEmpty());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("noted.json"));
        saveDocument(session()->document(), path);
        const SessionDocument again = loadDocument(path);
        QCOMPARE(again.notes, session()->notes());
        QVERIFY(session()->reset(again, path).isEmpty());
        QCOMPARE(session()->notes(), (std::vector<TraceNote>{{10, "turn ✓ over"}}));
        // Another document brings its own notes, here none.
        QVERIFY(session()->reset(bundledDocument("boundary-burst"), QString()).isEmpty());
        QVERIFY(session()->notes().empty());
        QCOMPARE(view()->scene().layout.notes.height(), 0.0);
    }

    void theStripShowsEachNoteAtItsTickAndFindsIt() {
        const double trace_top = view()->scene().layout.trace.top();
        QCOMPARE(view()->scene().layout.notes.height(), 0.0);
        QVERIFY(session()
                    ->setNotes({{6, "four at the end of the first window"},
                                {10, "the window turns over"},
                                {10, "and the counts start again"}},
                               QStringLiteral("Add"))
                    .isEmpty());
        const TimelineScene scene = view()->scene();
        // A strip under the ruler; the rows move down to make room.
        QCOMPARE(scene.layout.notes.height(), TimelineLayout::kNotesHeight);
        QCOMPARE(scene.layout.notes.top(), scene.layout.ruler.bottom());
        QCOMPARE(scene.layout.trace.top(), trace_top + TimelineLayout::kNotesHeight);
        const std::vector<NoteMark> marks = noteMarks(scene);
        QCOMPARE(marks.size(), std::size_t{2});  // the two notes on t = 10 share a label
        QCOMPARE(marks[0].tick, Tick{6});
        QCOMPARE(marks[0].x, scene.centreX(6));
        QCOMPARE(marks[1].first, std::size_t{1});
        QCOMPARE(marks[1].last, std::size_t{3});
        QCOMPARE(marks[1].full,
                 QStringLiteral("the window turns over · and the counts start again"));
        for (const NoteMark& mark : marks)
            QVERIFY(scene.layout.notes.contains(mark.box));
        // The first label stops before the second's pin, its text cut short.
        QVERIFY(marks[0].box.right() < marks[1].box.left());
        QVERIFY(marks[0].text.endsWith(QChar(0x2026)));
        // Pointed at, a label is a note: its tooltip gives every note of its tick in full.
        const TimelineHit hit = hitTest(scene, marks[1].box.center());
        QCOMPARE(hit.kind, TimelineHit::Kind::kNote);
        QCOMPARE(hit.index, std::size_t{1});
        const QString tooltip = noteTooltip(session()->notes(), hit.index);
        QVERIFY(tooltip.contains(QStringLiteral("Note at t = 10")));
        QVERIFY(tooltip.contains(QStringLiteral("and the counts start again")));
        const TimelineHit empty =
            hitTest(scene, QPointF(scene.centreX(2), scene.layout.notes.center().y()));
        QCOMPARE(empty.kind, TimelineHit::Kind::kNotesEmpty);
        QCOMPARE(empty.tick, Tick{2});
        // The last note gone, the strip goes with it.
        QVERIFY(session()->setNotes({}, QStringLiteral("Delete")).isEmpty());
        QCOMPARE(view()->scene().layout.notes.height(), 0.0);
        QCOMPARE(view()->scene().layout.trace.top(), trace_top);
    }

    void deletingANoteFromTheViewIsOneStep() {
        QVERIFY(session()->setNotes({{6, "a"}, {10, "b"}}, QStringLiteral("Add")).isEmpty());
        view()->deleteNote(0);
        QCOMPARE(session()->notes(), (std::vector<TraceNote>{{10, "b"}}));
        QCOMPARE(session()->undoStack()->undoText(), QStringLiteral("Delete note at t = 6"));
        session()->undoStack()->undo();
        QCOMPARE(session()->notes().size(), std::size_t{2});
    }
};

QTEST_MAIN(TimelineNotesTest)
#include "timeline_notes_test.moc"
