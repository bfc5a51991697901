// The lesson browser with the bundled lessons: a step opens its trace as the document, a
// prediction is asked with the decision not yet shown, Check grades with the engine's answer,
// progress is remembered, and a user who keeps their own document stays where they were.
#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QTest>

#include "panels/lesson_panel.h"
#include "session/playback_clock.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

class LessonPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QSettings().clear(); }

    void theBoundaryBurstLessonAsksAndChecks() {
        Session session;
        PlaybackClock clock;
        int opened = 0;
        LessonPanel panel(&session, &clock, [&](SessionDocument document) {
            ++opened;
            clock.setEnd(1000);
            return session.reset(std::move(document), QString()).isEmpty();
        });
        const QString folder = QStringLiteral(RATELAB_SOURCE_DIR "/resources/lessons");
        panel.loadFolder(folder);
        // Every bundled lesson loads, and there are at least the twelve the README lists.
        const auto files = QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY(files.size() >= 12);
        QCOMPARE(panel.lessons().size(), static_cast<std::size_t>(files.size()));
        const Lesson& lesson = panel.lessons().front();
        QCOMPARE(lesson.id, std::string("boundary-burst"));
        panel.showLesson(lesson);
        QCOMPARE(opened, 1);
        QCOMPARE(panel.currentStep(), std::optional<std::size_t>(0));
        // The step's own trace and lanes are the document now.
        QVERIFY(*session.result()->trace == *lesson.steps[0].trace);
        QCOMPARE(session.result()->runs.size(), lesson.steps[0].params.lanes.size());

        // "Which lanes accept request 4?" (at t = 10): asked before its decision shows.
        const LessonQuestion& question = *lesson.steps[0].question;
        QCOMPARE(question.kind, LessonQuestion::Kind::predict);
        const Tick tick = lesson.steps[0].trace->requests[question.request].tick;
        QVERIFY(clock.now() < tick);
        QCOMPARE(panel.laneChoices().size(), std::size_t{2});
        // Both: wrong, the sliding log's ten ticks hold four already.
        panel.laneChoices()[0]->setChecked(true);
        panel.laneChoices()[1]->setChecked(true);
        panel.check();
        QVERIFY(panel.verdictLabel()->text().contains(QStringLiteral("Not quite")));
        QCOMPARE(clock.now(), tick);  // the truth may show now
        QCOMPARE(QSettings().value(QStringLiteral("lessons/boundary-burst/done"), 0).toInt(), 0);
        panel.laneChoices()[1]->setChecked(false);
        panel.check();
        QVERIFY(panel.verdictLabel()->text().contains(QStringLiteral("Right")));
        // The step's reveal narration is told once, in a paragraph of its own.
        const QString reveal = QString::fromStdString(question.reveal).toHtmlEscaped();
        QVERIFY(!reveal.isEmpty());
        QCOMPARE(panel.verdictLabel()->text().count(reveal), 1);
        QVERIFY(panel.verdictLabel()->text().contains(QStringLiteral("<p>") + reveal));
        QCOMPARE(QSettings().value(QStringLiteral("lessons/boundary-burst/done")).toInt(), 1);

        // Coming back to the lesson starts at the first step not finished.
        panel.showLesson(lesson);
        QCOMPARE(panel.currentStep(), std::optional<std::size_t>(1));
    }

    void keepingYourOwnDocumentKeepsThePanelWhereItWas() {
        Session session;
        PlaybackClock clock;
        const Trace before = session.trace();
        LessonPanel panel(&session, &clock, [](SessionDocument) { return false; });
        panel.loadFolder(QStringLiteral(RATELAB_SOURCE_DIR "/resources/lessons"));
        panel.showLesson(panel.lessons().at(1));
        QVERIFY(!panel.currentStep().has_value());
        QVERIFY(session.trace() == before);
    }

    void aFolderOfBrokenLessonsOffersNone() {
        Session session;
        PlaybackClock clock;
        LessonPanel panel(&session, &clock, [](SessionDocument) { return true; });
        panel.loadFolder(QStringLiteral(RATELAB_SOURCE_DIR "/tests/io/bad_lessons"));
        QVERIFY(panel.lessons().empty());
    }
};

QTEST_MAIN(LessonPanelTest)
#include "lesson_panel_test.moc"
