// TimeAxis is pure geometry: no widget, no application object.
#include <QTest>

#include "timeline/time_axis.h"

using ratelab::ui::TimeAxis;

namespace {

TimeAxis axisOver(double from, double to, double width) {
    TimeAxis axis;
    axis.setWidth(width);
    axis.setContent(from, to);
    return axis;
}

}  // namespace

class TimeAxisTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fitShowsTheWholeContent_data() {
        QTest::addColumn<double>("to");
        QTest::addColumn<double>("width");
        QTest::newRow("default scenario") << 24.0 << 960.0;
        QTest::newRow("a long trace") << 1'000'000.0 << 800.0;
        QTest::newRow("odd width") << 37.0 << 613.0;
    }
    void fitShowsTheWholeContent() {
        QFETCH(double, to);
        QFETCH(double, width);
        TimeAxis axis = axisOver(0.0, to, width);
        axis.fit();
        QCOMPARE(axis.firstTime(), 0.0);
        QVERIFY(qAbs(axis.lastTime() - to) < 1e-6 * to);
        QCOMPARE(axis.toX(0.0), 0.0);
        QVERIFY(qAbs(axis.toX(to) - width) < 1e-6 * width);
    }

    void aTinyTraceIsCappedAtTheLargestZoom() {
        TimeAxis axis = axisOver(0.0, 3.0, 900.0);
        axis.fit();
        QCOMPARE(axis.pixelsPerTick(), TimeAxis::kMaxPixelsPerTick);
        QCOMPARE(axis.firstTime(), 0.0);
    }

    void xAndTimeAreInverse() {
        TimeAxis axis = axisOver(0.0, 1000.0, 800.0);
        axis.setView(123.25, 7.5);
        for (const double time : {123.25, 150.0, 200.125}) {
            QCOMPARE(axis.toTime(axis.toX(time)), time);
        }
        QCOMPARE(axis.toX(123.25), 0.0);
        QCOMPARE(axis.toX(124.25), 7.5);
    }

    void tickAtFindsTheCellUnderAPixel_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<qint64>("tick");
        // 10 pixels per tick from tick 0: tick t covers [10t, 10t + 10).
        QTest::newRow("left edge of tick 0") << 0.0 << qint64(0);
        QTest::newRow("inside tick 3") << 35.0 << qint64(3);
        QTest::newRow("last pixel of tick 3") << 39.99 << qint64(3);
        QTest::newRow("first pixel of tick 4") << 40.0 << qint64(4);
        QTest::newRow("left of the axis") << -5.0 << qint64(-1);
    }
    void tickAtFindsTheCellUnderAPixel() {
        QFETCH(double, x);
        QFETCH(qint64, tick);
        TimeAxis axis = axisOver(0.0, 100.0, 500.0);
        axis.setView(0.0, 10.0);
        QCOMPARE(axis.tickAt(x), tick);
        QCOMPARE(axis.centreX(tick), 10.0 * static_cast<double>(tick) + 5.0);
    }

    void zoomKeepsTheAnchorInPlace_data() {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("anchor");
        QTest::newRow("in at the middle") << 2.0 << 400.0;
        QTest::newRow("out at the left third") << 0.5 << 250.0;
        QTest::newRow("in at the right edge") << 1.25 << 799.0;
    }
    void zoomKeepsTheAnchorInPlace() {
        QFETCH(double, factor);
        QFETCH(double, anchor);
        TimeAxis axis = axisOver(0.0, 10'000.0, 800.0);
        axis.setView(2000.0, 4.0);
        const double before = axis.toTime(anchor);
        axis.zoom(factor, anchor);
        QCOMPARE(axis.pixelsPerTick(), 4.0 * factor);
        QVERIFY(qAbs(axis.toTime(anchor) - before) < 1e-9);
    }

    void zoomStopsAtBothEnds() {
        TimeAxis axis = axisOver(0.0, 100.0, 500.0);
        axis.zoom(1e9, 250.0);
        QCOMPARE(axis.pixelsPerTick(), TimeAxis::kMaxPixelsPerTick);
        axis.zoom(1e-9, 250.0);
        QCOMPARE(axis.pixelsPerTick(), 5.0);  // the whole content: 500 px / 100 ticks
        QCOMPARE(axis.firstTime(), 0.0);
    }

    void panStopsAtTheContentEdges() {
        TimeAxis axis = axisOver(0.0, 100.0, 200.0);
        axis.setView(50.0, 10.0);  // 20 ticks visible
        axis.pan(-10'000.0);
        QCOMPARE(axis.firstTime(), 0.0);
        axis.pan(+10'000.0);
        QCOMPARE(axis.firstTime(), 80.0);
        QCOMPARE(axis.lastTime(), 100.0);
        axis.pan(-50.0);
        QCOMPARE(axis.firstTime(), 75.0);
    }

    void scrollOffsetMatchesTheView() {
        TimeAxis axis = axisOver(0.0, 100.0, 200.0);
        axis.setView(30.0, 10.0);
        QCOMPARE(axis.contentPixels(), 1000.0);
        QCOMPARE(axis.offsetPixels(), 300.0);
        axis.setOffsetPixels(450.0);
        QCOMPARE(axis.firstTime(), 45.0);
    }

    void ensureVisibleScrollsOnlyWhenNeeded() {
        TimeAxis axis = axisOver(0.0, 1000.0, 200.0);
        axis.setView(100.0, 10.0);  // shows [100, 120)
        axis.ensureVisible(110.0, 20.0);
        QCOMPARE(axis.firstTime(), 100.0);
        axis.ensureVisible(130.0, 20.0);  // two ticks of margin to the right
        QCOMPARE(axis.lastTime(), 132.0);
        axis.ensureVisible(50.0, 20.0);
        QCOMPARE(axis.firstTime(), 48.0);
    }

    void labelStepKeepsLabelsApart_data() {
        QTest::addColumn<double>("pixelsPerTick");
        QTest::addColumn<double>("spacing");
        QTest::addColumn<qint64>("step");
        QTest::newRow("roomy: every tick") << 40.0 << 30.0 << qint64(1);
        QTest::newRow("exactly enough") << 30.0 << 30.0 << qint64(1);
        QTest::newRow("every other tick") << 20.0 << 30.0 << qint64(2);
        QTest::newRow("every fifth") << 7.0 << 30.0 << qint64(5);
        QTest::newRow("every tenth") << 3.5 << 30.0 << qint64(10);
        QTest::newRow("zoomed far out") << 0.001 << 40.0 << qint64(50'000);
    }
    void labelStepKeepsLabelsApart() {
        QFETCH(double, pixelsPerTick);
        QFETCH(double, spacing);
        QFETCH(qint64, step);
        QCOMPARE(TimeAxis::labelStep(pixelsPerTick, spacing), step);
        QVERIFY(static_cast<double>(step) * pixelsPerTick >= spacing);
    }

    void boundaryStrideThinsOutDenseBoundaries_data() {
        QTest::addColumn<qint64>("window");
        QTest::addColumn<double>("pixelsPerTick");
        QTest::addColumn<qint64>("stride");
        QTest::newRow("every boundary") << qint64(10) << 5.0 << qint64(1);
        QTest::newRow("just fits") << qint64(10) << 0.6 << qint64(1);
        QTest::newRow("every second") << qint64(10) << 0.3 << qint64(2);
        QTest::newRow("every hundredth") << qint64(10) << 0.006 << qint64(100);
    }
    void boundaryStrideThinsOutDenseBoundaries() {
        QFETCH(qint64, window);
        QFETCH(double, pixelsPerTick);
        QFETCH(qint64, stride);
        QCOMPARE(TimeAxis::boundaryStride(window, pixelsPerTick, 6.0), stride);
    }
};

QTEST_APPLESS_MAIN(TimeAxisTest)
#include "time_axis_test.moc"
