// The "why" tooltip of a decision: its check reads as one inequality written with the signs of
// maths, requests carry the numbers the exports give them, and durations keep one precision.
#include <QApplication>
#include <QPalette>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include "ratelab/responses.h"
#include "session/frame_model.h"
#include "timeline/decision_tooltip.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

Frame defaultFrame() {
    Frame frame;
    frame.result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    frame.revealed = frame.result;
    frame.now = 23;
    frame.decided = frame.result->trace->requests.size();
    return frame;
}

std::size_t laneOf(const Frame& frame, const std::string& id) {
    for (std::size_t lane = 0; lane < frame.result->runs.size(); ++lane) {
        if (frame.result->runs[lane].id == id) {
            return lane;
        }
    }
    return frame.result->runs.size();
}

/// The tooltip of `id`'s decision on request `index` of the default scenario.
QString tooltipOf(const std::string& id, std::size_t index) {
    const Frame frame = defaultFrame();
    return decisionTooltip(frame, laneOf(frame, id), index, QApplication::palette());
}

/// How many lines the text block containing `needle` takes when `html` is laid out `width`
/// pixels wide, as the tooltip's label lays it out; 0 when no block contains it.
int linesOf(const QString& html, const QString& needle, qreal width) {
    QTextDocument document;
    document.setHtml(html);
    document.setTextWidth(width);
    document.size();  // lays the whole document out
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        if (block.text().contains(needle)) {
            return block.layout()->lineCount();
        }
    }
    return 0;
}

}  // namespace

class DecisionTooltipTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aRequestsOwnDurationIsInItsHeading() {
        Trace trace = default_trace();
        trace.set_duration(2, 30);
        Frame frame;
        frame.result = simulate(std::make_shared<const Trace>(std::move(trace)), default_params());
        frame.revealed = frame.result;
        frame.now = 23;
        frame.decided = frame.result->trace->requests.size();
        QVERIFY(decisionTooltip(frame, 0, 2, QApplication::palette())
                    .contains(QStringLiteral("holds for 30 ticks")));
        QVERIFY(requestTooltip(frame, 2).contains(QStringLiteral("holds for 30 ticks")));
        QVERIFY(!requestTooltip(frame, 1).contains(QStringLiteral("holds for")));
    }

    void aCheckStaysOnOneLineInANarrowTooltip() {
        // The sliding log refuses request 4 (t = 10): "log [6, 7, 8, 9] holds 4 + cost 1 = 5 > 4".
        const QString html = tooltipOf("sliding_log", 4);
        QVERIFY2(html.contains(QStringLiteral("= 5 &gt; 4")), qPrintable(html));
        QCOMPARE(linesOf(html, QStringLiteral("holds"), 120), 1);
    }

    void otherLinesStillWrapAtThatWidth() {
        // Only the inequality is kept whole: at the same width the outcome line wraps, which
        // shows that the width above really is narrow enough to break lines.
        QVERIFY(linesOf(tooltipOf("sliding_log", 4), QStringLiteral("Rejected"), 120) > 1);
    }

    void checksAreWrittenWithTheSignsOfMaths() {
        // sliding_counter accepts request 7 (t = 13): "estimate 4 x 0.70 + 0 + 1 = 3.80 <= 4"
        // in the core's ASCII.
        const QString accepted = tooltipOf("sliding_counter", 7);
        QVERIFY2(accepted.contains(QStringLiteral(" \u00d7 ")), qPrintable(accepted));
        QVERIFY2(accepted.contains(QStringLiteral(" \u2264 ")), qPrintable(accepted));
        QVERIFY(!accepted.contains(QStringLiteral(" x ")));
        QVERIFY(!accepted.contains(QStringLiteral("&lt;=")));
        // The token bucket's "tokens 4.00 >= cost 1"; GCRA's "(1 - 1) x 2.5 - 6".
        const QString tokens = tooltipOf("token_bucket", 0);
        QVERIFY2(tokens.contains(QStringLiteral(" \u2265 cost")), qPrintable(tokens));
        const QString gcra = tooltipOf("gcra", 0);
        QVERIFY2(gcra.contains(QStringLiteral("(1 \u2212 1) \u00d7 ")), qPrintable(gcra));
        QVERIFY2(gcra.contains(QStringLiteral("max(TAT")), qPrintable(gcra));  // "max" keeps its x
    }

    void requestsAreNumberedAsTheExportsNumberThem() {
        // The decisions CSV and the JSON report call the first request index 0.
        const Frame frame = defaultFrame();
        QVERIFY2(requestTooltip(frame, 0).contains(QStringLiteral("Request #0 at t = 6")),
                 qPrintable(requestTooltip(frame, 0)));
        QVERIFY(tooltipOf("sliding_log", 4).contains(QStringLiteral("request #4 at t = 10")));
    }

    void aDecisionShowsTheResponseTheLaneSends() {
        // The sliding log refuses request 4 (t = 10) and accepts request 0: the tooltip ends with
        // the HTTP response the Response tab shows, each of the core's lines in it.
        const Frame frame = defaultFrame();
        const std::size_t lane = laneOf(frame, "sliding_log");
        for (const std::size_t index : {std::size_t{4}, std::size_t{0}}) {
            const QString html = tooltipOf("sliding_log", index);
            const std::string http =
                http_text(response_to(*frame.result, lane, index), HeaderStyle::ietf);
            const QStringList lines =
                QString::fromStdString(http).trimmed().split(QStringLiteral("\r\n"));
            QVERIFY(lines.size() >= 3);
            for (const QString& line : lines)
                QVERIFY2(html.contains(line.toHtmlEscaped()),
                         qPrintable(line + QStringLiteral(" in ") + html));
        }
        QVERIFY(tooltipOf("sliding_log", 4).contains(QStringLiteral("429 Too Many Requests")));
        QVERIFY(tooltipOf("sliding_log", 4).contains(QStringLiteral("Retry-After: ")));
        QVERIFY(tooltipOf("sliding_log", 0).contains(QStringLiteral("HTTP/1.1 200 OK")));
        QVERIFY(!tooltipOf("sliding_log", 0).contains(QStringLiteral("Retry-After")));
    }

    void secondsKeepThePrecisionOfTheTicks() {
        const Rational nine_and_two_thirds(29, 3);
        QCOMPARE(ticksAndSeconds(nine_and_two_thirds, 1000), QStringLiteral("9.67 ticks (9.67 s)"));
        QCOMPARE(ticksAndSeconds(nine_and_two_thirds, 100), QStringLiteral("9.67 ticks (0.967 s)"));
        QCOMPARE(ticksAndSeconds(nine_and_two_thirds, 1), QStringLiteral("9.67 ticks (0.00967 s)"));
        QCOMPARE(ticksAndSeconds(Rational(3, 2), 1000), QStringLiteral("1.5 ticks (1.5 s)"));
        QCOMPARE(ticksAndSeconds(Rational(1), 250), QStringLiteral("1 tick (0.25 s)"));
        QCOMPARE(ticksAndSeconds(Rational(999, 1000), 1000), QStringLiteral("1 tick (1 s)"));
    }
};

QTEST_MAIN(DecisionTooltipTest)
#include "decision_tooltip_test.moc"
