// The timeline's words and numbers fit where they are drawn: the ruler's tick numbers stay clear
// of the clock handle, and each lane's figures fit the gutter whole, on a large trace too.
#include <QApplication>
#include <QFontMetricsF>
#include <QStyleFactory>
#include <QtTest>

#include "session/frame_model.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_text.h"
#include "timeline/timeline_view.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

// 400,800 requests, twenty a tick, against four a tick: most of them rejected, as in
// "80.0k ok · 320.8k rejected".
SessionDocument largeDocument() {
    TraceBuilder builder;
    for (Tick t = 0; t < 20'040; ++t) {
        for (int i = 0; i < 20; ++i) {
            builder.add(t, 1);
        }
    }
    SessionDocument document = SessionDocument::empty();
    document.params.base.limit = 4;
    document.params.base.window = 1;
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    return document;
}

// A view on its own session and clock, as the main window wires them.
struct Timeline {
    Session session;
    PlaybackClock clock;
    FrameModel frames{&session, &clock};
    TimelineView view{&session, &clock};

    explicit Timeline(int width) {
        QObject::connect(&frames, &FrameModel::frameChanged, &view, &TimelineView::setFrame);
        view.setFrame(frames.frame());
        view.resize(width, 420);
        view.show();
    }
    void open(SessionDocument document) {
        QVERIFY(session.reset(std::move(document), QString()).isEmpty());
        clock.jumpToEnd();
        view.fitToTrace();
    }
};

QString describe(const QRectF& box) {
    return QStringLiteral("[%1, %2]").arg(box.left()).arg(box.right());
}

}  // namespace

class TimelineLabelsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rulerNumbersStayClearOfTheClockHandle_data() {
        QTest::addColumn<bool>("large");
        QTest::addColumn<int>("width");
        QTest::newRow("boundary burst, 1280 px window") << false << 945;
        QTest::newRow("boundary burst, 1024 px window") << false << 690;
        QTest::newRow("large trace, 1280 px window") << true << 945;
        QTest::newRow("large trace, 1024 px window") << true << 690;
    }
    void rulerNumbersStayClearOfTheClockHandle() {
        QFETCH(bool, large);
        QFETCH(int, width);
        Timeline timeline(width);
        timeline.open(large ? largeDocument() : SessionDocument::defaultScenario());
        const Tick end = timeline.clock.end();
        int handles = 0;
        for (int step = 0; step <= 40; ++step) {
            timeline.clock.setNow(end * step / 40);
            const TimelineScene scene = timeline.view.scene();
            const std::optional<QRectF> handle = clockHandleBox(scene);
            QVERIFY(handle.has_value());
            ++handles;
            const std::vector<RulerLabel> labels = rulerLabels(scene);
            QVERIFY(labels.size() >= 3);
            for (const RulerLabel& label : labels) {
                QVERIFY2(!label.box.intersects(*handle),
                         qPrintable(QStringLiteral("%1 at %2 under the handle of t = %3 at %4")
                                        .arg(label.text, describe(label.box))
                                        .arg(scene.frame->now)
                                        .arg(describe(*handle))));
            }
        }
        QCOMPARE(handles, 41);
    }

    void laneFiguresFitTheGutterWhole_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("1280 px window, beside the Learn dock") << 945;
        QTest::newRow("1024 px window, beside the Learn dock") << 690;
        QTest::newRow("1024 px window, no docks") << 1024;
    }
    void laneFiguresFitTheGutterWhole() {
        QFETCH(int, width);
        Timeline timeline(width);
        timeline.open(largeDocument());
        const TimelineScene scene = timeline.view.scene();
        QFont small = timeline.view.font();
        small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
        for (std::size_t lane = 0; lane < scene.laneCount(); ++lane) {
            const GutterLabel label = laneLabel(scene, lane);
            QVERIFY2(!label.detail.isEmpty(), qPrintable(label.title));
            QVERIFY2(!label.detail.contains(QChar(0x2026)), qPrintable(label.detail));
            QVERIFY2(!label.title.contains(QChar(0x2026)), qPrintable(label.title));
            QVERIFY(QFontMetricsF(small).horizontalAdvance(label.detail) <=
                    label.detail_box.width());
            QVERIFY(label.detail_box.right() <= scene.layout.plot_left);
        }
    }

    void lanesSayTheirFiguresAreBeingCounted() {
        // While the figures up to the clock take a moment to count, a lane does not show those
        // of an earlier clock (its totals, its worst span) as the clock's.
        Timeline timeline(945);
        timeline.open(largeDocument());
        Frame frame = timeline.frames.frame();
        QCOMPARE(laneLabel(timeline.view.scene(), 0).detail,
                 QStringLiteral("80.2k ok · 321k rejected"));
        QVERIFY(worstSpanLabel(timeline.view.scene(), 0, -1));
        frame.counting = true;
        timeline.view.setFrame(frame);
        for (std::size_t lane = 0; lane < timeline.view.scene().laneCount(); ++lane) {
            QCOMPARE(laneLabel(timeline.view.scene(), lane).detail, QStringLiteral("counting…"));
            QVERIFY(!worstSpanLabel(timeline.view.scene(), lane, -1));  // nor its worst span
        }
    }

    void spanFiguresStayClearOfTheirBracket_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("1280 px window, beside the Learn dock") << 945;
        QTest::newRow("1024 px window, beside the Learn dock") << 690;
        QTest::newRow("1920 px window") << 1500;
    }
    void spanFiguresStayClearOfTheirBracket() {
        // "4 in 10 ticks" ran into the bracket's right end, and "6 in 10 ticks > L" into its
        // thicker one: the figure keeps a gap of two pixels from the bracket's line.
        QFETCH(int, width);
        Timeline timeline(width);
        timeline.open(SessionDocument::defaultScenario());
        const TimelineScene scene = timeline.view.scene();
        int inside = 0;
        for (std::size_t lane = 0; lane < scene.laneCount(); ++lane) {
            const std::optional<SpanLabel> span = worstSpanLabel(scene, lane);
            QVERIFY(span.has_value());
            const double bracket_inner = span->right - 1.0 - span->pen / 2.0;
            const double bracket_outer = span->right - 1.0 + span->pen / 2.0;
            const QString where = QStringLiteral("%1: text to %2, bracket from %3 to %4")
                                      .arg(span->text)
                                      .arg(span->box.right())
                                      .arg(bracket_inner)
                                      .arg(bracket_outer);
            if (span->box.left() >= span->left) {
                ++inside;
                QVERIFY2(span->box.right() <= bracket_inner - 2.0, qPrintable(where));
            } else {
                QVERIFY2(span->box.left() >= bracket_outer + 2.0 ||
                             span->box.right() <= span->left - 2.0,
                         qPrintable(where));
            }
        }
        QVERIFY(inside > 0);
    }

    void compactCountsKeepThreeSignificantDigits() {
        QCOMPARE(compactCount(947), QStringLiteral("947"));
        QCOMPARE(compactCount(9'999), QStringLiteral("9999"));
        QCOMPARE(compactCount(80'022), QStringLiteral("80.0k"));
        QCOMPARE(compactCount(320'778), QStringLiteral("321k"));
        QCOMPARE(compactCount(999'499), QStringLiteral("999k"));
        QCOMPARE(compactCount(999'500), QStringLiteral("1.00M"));
        QCOMPARE(compactCount(4'512'000), QStringLiteral("4.51M"));
        QCOMPARE(compactCount(12'345'678), QStringLiteral("12.3M"));
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    TimelineLabelsTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "timeline_labels_test.moc"
