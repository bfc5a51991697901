// The Drills tab asks what `ratelab-cli quiz` asks: the same seed opens the same traces and lanes
// with the same text, the CLI's answers are graded right and others wrong, the score counts
// first answers, the keyboard drives it, and a user who keeps their document keeps the drill
// where it was.
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
#include <QTest>

#include "panels/drill_panel.h"
#include "ratelab/io/lane_spec.h"
#include "session/playback_clock.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

constexpr Tick kEnd = 1000;

/// `ratelab-cli quiz --seed SEED --count COUNT --json`, its questions.
QJsonArray cliQuestions(int seed, int count) {
    QProcess cli;
    cli.start(QStringLiteral(RATELAB_CLI),
              {QStringLiteral("quiz"), QStringLiteral("--seed"), QString::number(seed),
               QStringLiteral("--count"), QString::number(count), QStringLiteral("--json")});
    if (!cli.waitForFinished(30000) || cli.exitCode() != 0)
        return {};
    return QJsonDocument::fromJson(cli.readAllStandardOutput())
        .object()[QStringLiteral("questions")]
        .toArray();
}

/// An answer as a learner types it, from the CLI's JSON: "2 5 7", "none", "5/2", "never", "4".
QString typed(const QJsonValue& answer) {
    if (answer.isArray()) {
        QStringList parts;
        for (const QJsonValue& index : answer.toArray())
            parts << QString::number(index.toInteger());
        return parts.isEmpty() ? QStringLiteral("none") : parts.join(QLatin1Char(' '));
    }
    return answer.isString() ? answer.toString() : QString::number(answer.toInteger());
}

/// A wrong answer of the same form: index 0 added or taken away, one more than the number.
QString wrong(const QJsonValue& answer) {
    if (answer.isArray()) {
        QJsonArray indexes = answer.toArray();
        if (!indexes.isEmpty() && indexes.first().toInteger() == 0)
            indexes.removeFirst();
        else
            indexes.prepend(0);
        return typed(indexes);
    }
    if (answer.isString())
        return answer.toString() == QStringLiteral("never") ? QStringLiteral("1")
                                                            : QStringLiteral("never");
    return QString::number(answer.toInteger() + 1);
}

/// Gives `text` as the answer: typed, or for lanes by ticking the boxes it names.
void answer(DrillPanel& panel, const QString& text) {
    if (panel.laneChoices().empty()) {
        panel.answerField()->setText(text);
        return;
    }
    for (QCheckBox* box : panel.laneChoices())
        box->setChecked(false);
    if (text == QStringLiteral("none"))
        return;
    for (const QString& index : text.split(QLatin1Char(' ')))
        panel.laneChoices().at(index.toULongLong())->setChecked(true);
}

}  // namespace

class DrillPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theSameSeedOpensTheCliQuestionsAndTheirAnswersAreRight() {
        for (const int seed : {3, 11}) {
            const QJsonArray cli = cliQuestions(seed, 8);
            QCOMPARE(cli.size(), 8);
            PlaybackClock clock;
            std::optional<SessionDocument> opened;
            DrillPanel panel(&clock, [&](SessionDocument document) {
                opened = std::move(document);
                clock.setEnd(kEnd);
                return true;
            });
            panel.seedField()->setValue(seed);
            panel.countField()->setValue(8);
            QVERIFY(panel.start());
            for (qsizetype i = 0; i < cli.size(); ++i) {
                const QJsonObject expected = cli[i].toObject();
                QCOMPARE(panel.current(), std::optional<std::size_t>(static_cast<std::size_t>(i)));
                QCOMPARE(panel.questionLabel()->text(),
                         expected[QStringLiteral("text")].toString());
                // The document is the question's trace with its limits and lanes.
                const QJsonObject trace = expected[QStringLiteral("trace")].toObject();
                QCOMPARE(opened->params.base.limit, trace[QStringLiteral("limit")].toInteger());
                QCOMPARE(opened->params.base.window, trace[QStringLiteral("window")].toInteger());
                const QJsonArray requests = trace[QStringLiteral("requests")].toArray();
                QCOMPARE(opened->trace->requests.size(), static_cast<std::size_t>(requests.size()));
                for (qsizetype r = 0; r < requests.size(); ++r) {
                    const QJsonObject request = requests[r].toObject();
                    const Request& got = opened->trace->requests[static_cast<std::size_t>(r)];
                    QCOMPARE(got.tick, request[QStringLiteral("tick")].toInteger());
                    QCOMPARE(static_cast<qint64>(got.cost),
                             request[QStringLiteral("cost")].toInteger(1));
                }
                QStringList lanes;
                for (const Lane& lane : opened->params.lanes)
                    lanes << QString::fromStdString(io::lane_spec(lane));
                const QJsonValue lane = expected[QStringLiteral("lane")];
                QStringList expected_lanes;
                for (const QJsonValue& spec :
                     lane.isArray() ? lane.toArray() : QJsonArray{lane.toString()})
                    expected_lanes << spec.toString();
                QCOMPARE(lanes, expected_lanes);
                // The answer is not on the timeline until it is given.
                QVERIFY(clock.now() < kEnd);
                answer(panel, typed(expected[QStringLiteral("answer")]));
                panel.check();
                QVERIFY2(panel.verdictLabel()->text().contains(QStringLiteral("Right:")),
                         qPrintable(panel.verdictLabel()->text()));
                QCOMPARE(clock.now(), kEnd);
                panel.next();
            }
            QVERIFY(!panel.current().has_value());  // the summary
            QCOMPARE(panel.right(), 8);
        }
    }

    void wrongAnswersAreGradedWrongAndOnlyFirstAnswersCount() {
        const QJsonArray cli = cliQuestions(5, 4);
        QCOMPARE(cli.size(), 4);
        PlaybackClock clock;
        DrillPanel panel(&clock, [&](SessionDocument) { return true; });
        panel.seedField()->setValue(5);
        panel.countField()->setValue(4);
        QVERIFY(panel.start());
        for (const QJsonValue& question : cli) {
            answer(panel, wrong(question.toObject()[QStringLiteral("answer")]));
            panel.check();
            QVERIFY2(panel.verdictLabel()->text().contains(QStringLiteral("Wrong:")),
                     qPrintable(panel.verdictLabel()->text()));
            // Checking the right answer after the reveal earns nothing.
            answer(panel, typed(question.toObject()[QStringLiteral("answer")]));
            panel.check();
            QVERIFY(panel.verdictLabel()->text().contains(QStringLiteral("Wrong:")));
            panel.next();
        }
        QCOMPARE(panel.answered(), 4);
        QCOMPARE(panel.right(), 0);
        QVERIFY(
            panel.questionLabel()->text().contains(QStringLiteral("Wrong: question 1, 2, 3, 4.")));
        QVERIFY(!panel.questionLabel()->text().contains(QStringLiteral("Skipped")));
    }

    void theKeyboardAnswersChecksAndGoesOn() {
        PlaybackClock clock;
        DrillPanel panel(&clock, [&](SessionDocument) { return true; });
        panel.seedField()->setValue(3);
        panel.countField()->setValue(8);  // each kind among the first four
        QVERIFY(panel.start());
        std::size_t lanes_at = 4;
        for (std::size_t i = 0; i < 4; ++i) {
            if (panel.questions()[i].kind == QuestionKind::which_accepts)
                lanes_at = i;
        }
        QVERIFY(lanes_at < 4);
        while (panel.current() != lanes_at)
            panel.next();
        QVERIFY(!panel.laneChoices().empty());
        QTest::keyClick(&panel, Qt::Key_2);
        QVERIFY(panel.laneChoices()[2]->isChecked());
        QTest::keyClick(&panel, Qt::Key_2);
        QVERIFY(!panel.laneChoices()[2]->isChecked());
        for (const std::int64_t lane : panel.questions()[lanes_at].answer.indices)
            QTest::keyClick(&panel, static_cast<Qt::Key>(Qt::Key_0 + lane));
        QTest::keyClick(&panel, Qt::Key_Return);
        QVERIFY(panel.verdictLabel()->text().contains(QStringLiteral("Right:")));
        QCOMPARE(panel.right(), 1);
        QTest::keyClick(&panel, Qt::Key_Return);
        QCOMPARE(panel.current(), std::optional<std::size_t>(lanes_at + 1));
        while (panel.current())
            panel.next();  // the rest unanswered
        const QString summary = panel.questionLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("Skipped: question")), qPrintable(summary));
        QVERIFY(!summary.contains(QStringLiteral("Wrong:")));
        QCOMPARE(panel.answered(), 1);
    }

    void keepingYourOwnDocumentKeepsTheDrillWhereItWas() {
        PlaybackClock clock;
        bool allow = false;
        int asked = 0;
        DrillPanel panel(&clock, [&](SessionDocument) {
            ++asked;
            return allow;
        });
        panel.seedField()->setValue(3);
        QVERIFY(!panel.start());
        QCOMPARE(asked, 1);
        QVERIFY(!panel.current().has_value());
        QVERIFY(panel.questions().empty());
        allow = true;
        QVERIFY(panel.start());
        const std::string first = panel.questions().front().text;
        allow = false;
        panel.next();
        QCOMPARE(panel.current(), std::optional<std::size_t>(0));
        panel.seedField()->setValue(4);
        QVERIFY(!panel.start());
        QCOMPARE(panel.current(), std::optional<std::size_t>(0));
        QCOMPARE(panel.questions().front().text, first);
        QCOMPARE(panel.questionLabel()->text(), QString::fromStdString(first));
    }
};

QTEST_MAIN(DrillPanelTest)
#include "drill_panel_test.moc"
