// A lesson step's highlights on the timeline of the real window: a span of ticks washed over the
// trace row and the lanes with its note, a lane outlined, a request ringed; a request's ring
// goes when an edit changes the trace, and every highlight goes when another document opens.
#include <QtTest>

#include "driving.h"
#include "panels/lesson_panel.h"
#include "ratelab/lesson.h"
#include "session/session.h"
#include "timeline/timeline_painter.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

class LessonHighlightsTest : public QObject {
    Q_OBJECT

    IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    LessonPanel* lessons() const { return window_->findChild<LessonPanel*>(); }

    /// The bundled lesson `id`, from the source tree.
    const Lesson& lesson(const std::string& id) const {
        lessons()->loadFolder(QStringLiteral(RATELAB_SOURCE_DIR "/resources/lessons"));
        for (const Lesson& each : lessons()->lessons()) {
            if (each.id == id)
                return each;
        }
        throw std::runtime_error("no bundled lesson " + id);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }
    void init() {
        window_ = shownWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }
    void cleanup() { window_.reset(); }

    void aSpanIsWashedWithItsNoteAndALaneIsOutlined() {
        QVERIFY(lessons());
        // The boundary burst's first step: "four before the boundary" over [6, 10), "four
        // after it" over [10, 14).
        lessons()->showLesson(lesson("boundary-burst"));
        QCOMPARE(lessons()->currentStep(), std::optional<std::size_t>(0));
        TimelineView* view = window_->timeline();
        view->fitToTrace();
        QCOMPARE(view->lessonHighlights().size(), std::size_t{2});
        TimelineScene scene = view->scene();
        std::vector<HighlightMark> marks = highlightMarks(scene);
        QCOMPARE(marks.size(), std::size_t{2});
        QCOMPARE(marks[0].note, QStringLiteral("four before the boundary"));
        QCOMPARE(marks[0].area.left(), scene.x(6.0));
        QCOMPARE(marks[0].area.right(), scene.x(10.0));
        QCOMPARE(marks[1].area.left(), scene.x(10.0));
        // From the top of the trace row down through the last lane.
        QCOMPARE(marks[0].area.top(), scene.layout.trace.top());
        QCOMPARE(marks[0].area.bottom(), scene.layout.bottom());
        QVERIFY(marks[0].note_at.x() > marks[0].area.left());
        QVERIFY(marks[0].note_at.x() < marks[1].note_at.x());
        // A note runs past its span only up to the next span's: the two never overlap.
        QVERIFY(marks[0].note_at.x() + marks[0].note_width <= marks[1].area.left());

        // The next step outlines the fixed window's lane, lane 0.
        QVERIFY(lessons()->showStep(1));
        scene = view->scene();
        marks = highlightMarks(scene);
        QCOMPARE(marks.size(), std::size_t{1});
        QVERIFY(scene.layout.lanes[0].contains(marks[0].area));
        QVERIFY(marks[0].area.height() > scene.layout.lanes[0].height() - 4.0);

        // Opening another document ends the step: nothing is highlighted any more.
        QVERIFY(window_->files()->openDocument(bundledDocument("boundary-burst")));
        QVERIFY(view->lessonHighlights().empty());
        QVERIFY(highlightMarks(view->scene()).empty());
    }

    void aRequestIsRingedWhileTheTraceIsTheStepsOwn() {
        // The window-edge lesson's second step rings request 4.
        lessons()->showLesson(lesson("window-edge"));
        QVERIFY(lessons()->showStep(1));
        TimelineView* view = window_->timeline();
        view->fitToTrace();
        TimelineScene scene = view->scene();
        std::vector<HighlightMark> marks = highlightMarks(scene);
        QCOMPARE(marks.size(), std::size_t{1});
        const QPointF request = scene.point(scene.layout.trace, 4);
        QCOMPARE(marks[0].area.center(), request);
        QVERIFY(marks[0].area.width() >= scene.marker);

        // An edit: request 4 may now be another request, so its ring goes.
        const Trace& trace = window_->session()->trace();
        window_->session()->addRequest(trace.requests.front().tick, 1);
        QVERIFY(highlightMarks(view->scene()).empty());
        QCOMPARE(view->lessonHighlights().size(), std::size_t{1});
    }
};

QTEST_MAIN(LessonHighlightsTest)
#include "lesson_highlights_test.moc"
