// A crowded timeline still answers: zoomed out, a click says what it added and where, and a
// column's bars give their counts when hovered; many requests on one tick make one pile, which
// counts them when hovered and is picked up whole; queue waits that cross each other fade,
// but for the one pointed at.
#include <QApplication>
#include <QHelpEvent>
#include <QStatusBar>
#include <QToolTip>
#include <QUndoStack>
#include <QtTest>

#include "driving.h"
#include "isolated_settings.h"
#include "ratelab/io/trace_file.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_text.h"
#include "window/file_controller.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;

namespace {

// About 30,000 requests on every seventh of 50,000 ticks: fitted to the window, a pixel spans
// many ticks.
SessionDocument busyDocument() {
    TraceBuilder builder;
    for (Tick t = 0; t < 50'000; t += 7) {
        for (Tick i = 0; i < 1 + (t / 7) % 7; ++i) {
            builder.add(t, 1);
        }
    }
    SessionDocument document = SessionDocument::empty();
    document.params.base.limit = 4;
    document.params.base.window = 10;
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    return document;
}

// Single requests, a stack of three, and twenty requests on tick 16.
SessionDocument pileDocument(bool with_pile) {
    TraceBuilder builder;
    for (Tick tick : {2, 5, 8, 8, 8, 12}) {
        builder.add(tick, 1);
    }
    for (int i = 0; with_pile && i < 20; ++i) {
        builder.add(16, 1);
    }
    SessionDocument document = SessionDocument::empty();
    document.params.base.limit = 4;
    document.params.base.window = 10;
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    return document;
}

// The bundled random arrivals at the limit: the leaky bucket's waits cross each other.
SessionDocument randomArrivals() {
    return bundledDocument("random-arrivals");
}

}  // namespace

class TimelineCrowdingTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    TimelineView* view() const { return window_->timeline(); }
    Session* session() const { return window_->session(); }

    void openBusyTrace() {
        QVERIFY(session()->reset(busyDocument(), QString()).isEmpty());
        view()->fitToTrace();
        QVERIFY(!view()->scene().detailed);
    }

    void openPile(bool with_pile) {
        QVERIFY(session()->reset(pileDocument(with_pile), QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        QVERIFY(view()->scene().detailed);
    }

    /// Opens the requests of `builder` under the default limits, fitted to the view, in detail.
    void openFitted(TraceBuilder&& builder) {
        SessionDocument document = SessionDocument::empty();
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        QVERIFY(session()->reset(std::move(document), QString()).isEmpty());
        view()->fitToTrace();
        QVERIFY(view()->scene().detailed);
    }

    QString tooltipAt(QPoint at) {
        QToolTip::hideText();
        QHelpEvent help(QEvent::ToolTip, at, view()->mapToGlobal(at));
        QApplication::sendEvent(view(), &help);
        return QToolTip::isVisible() ? QToolTip::text() : QString();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(settings_.isValid()); }

    void init() {
        window_ = shownWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanup() {
        window_->session()->undoStack()->setClean();
        window_.reset();
    }

    void clickingTheTraceRowZoomedOutSaysWhatWasAddedAndWhere() {
        openBusyTrace();
        const TimelineScene scene = view()->scene();
        // A spot on the trace row over a tick without requests, where a click adds one.
        QPoint at(static_cast<int>(scene.layout.plot_left + scene.layout.plot_width / 3.0),
                  static_cast<int>(scene.layout.trace.top() + 8.0));
        while (scene.tickAt(at.x()) % 7 == 0) {
            at.rx() += 1;
        }
        const Tick tick = scene.tickAt(at.x());
        const std::size_t before = session()->trace().requests.size();
        QTest::mouseClick(view(), Qt::LeftButton, {}, at);
        QCOMPARE(session()->trace().requests.size(), before + 1);
        const TickRange added = requestsOnTick(session()->trace(), tick);
        QCOMPARE(added.last - added.first, std::size_t(1));
        const QString message = window_->statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("t = %1").arg(tick)), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Added")), qPrintable(message));
    }

    void hoveringAColumnGivesItsCounts() {
        openBusyTrace();
        const TimelineScene scene = view()->scene();
        const double x = scene.layout.plot_left + scene.layout.plot_width / 2.0 + 1.0;
        const std::vector<std::size_t>& bounds = scene.summaryColumns();
        const auto column =
            static_cast<std::size_t>((x - scene.layout.plot_left) / TimelineScene::kColumnWidth);
        const std::size_t begin = bounds[column];
        const std::size_t end = bounds[column + 1];
        QVERIFY(end - begin > 1);
        const Trace& trace = session()->trace();

        const QString row = tooltipAt(QPointF(x, scene.layout.trace.center().y()).toPoint());
        QVERIFY2(row.contains(QStringLiteral("%1 requests").arg(end - begin)), qPrintable(row));
        QVERIFY2(row.contains(QStringLiteral("t = %1 to %2")
                                  .arg(trace.requests[begin].tick)
                                  .arg(trace.requests[end - 1].tick)),
                 qPrintable(row));

        const int lane = 1;
        const AlgorithmRun& run = session()->result()->runs[lane];
        std::size_t accepted = 0;
        for (std::size_t i = begin; i < end; ++i) {
            accepted += run.accepted(i) ? 1 : 0;
        }
        const QString decisions =
            tooltipAt(QPointF(x, scene.layout.lanes[lane].center().y()).toPoint());
        QVERIFY2(decisions.contains(QStringLiteral("%1 accepted · %2 rejected")
                                        .arg(accepted)
                                        .arg(end - begin - accepted)),
                 qPrintable(decisions));
    }

    void aPileLeavesTheOtherStacksTheirSize() {
        openPile(false);
        const double spacing = view()->scene().stack.spacing;
        openPile(true);
        const TimelineScene scene = view()->scene();
        QCOMPARE(scene.stack.spacing, spacing);
        const TickRange pile = requestsOnTick(session()->trace(), 16);
        for (std::size_t i = pile.first; i < pile.last; ++i) {
            QVERIFY(scene.layout.trace.contains(scene.point(scene.layout.trace, i)));
        }
    }

    void hoveringAPileCountsItsRequestsAndDecisions() {
        openPile(true);
        const TickRange pile = requestsOnTick(session()->trace(), 16);
        const QString row = tooltipAt(requestPoint(*view(), pile.first));
        QVERIFY2(row.contains(QStringLiteral("20 requests, t = 16")), qPrintable(row));
        const AlgorithmRun& run = session()->result()->runs[0];
        std::size_t accepted = 0;
        for (std::size_t i = pile.first; i < pile.last; ++i) {
            accepted += run.accepted(i) ? 1 : 0;
        }
        const QString lane = tooltipAt(requestPoint(*view(), pile.first, 0));
        QVERIFY2(lane.contains(
                     QStringLiteral("%1 accepted · %2 rejected").arg(accepted).arg(20 - accepted)),
                 qPrintable(lane));
    }

    void aPileInALaneSaysHowManyWereAcceptedAndRejected() {
        openPile(true);
        const TickRange pile = requestsOnTick(session()->trace(), 16);
        const TimelineScene scene = view()->scene();
        const QImage image = view()->grab().toImage();
        const QColor base = view()->palette().color(QPalette::Base);
        const AlgorithmRun& run = session()->result()->runs[0];
        std::size_t accepted = 0;
        for (std::size_t i = pile.first; i < pile.last; ++i) {
            accepted += run.accepted(i) ? 1 : 0;
        }
        // The fixed window's pile: its accepted figure over the bar, its rejected one under it,
        // each drawn in its mark's colour.
        const std::vector<PileCount> figures = pileCounts(scene, 0, pile.first, 20);
        QCOMPARE(figures.size(), std::size_t(2));
        const double middle = scene.layout.lanes[0].center().y();
        for (const PileCount& figure : figures) {
            const bool up = figure.kind == PileCount::Kind::Accepted;
            QCOMPARE(figure.text, QString::number(up ? accepted : 20 - accepted));
            QVERIFY(up ? figure.box.bottom() < middle : figure.box.top() > middle);
            const QColor colour = timeline_palette::legibleOn(
                up ? timeline_palette::kAccepted : timeline_palette::kRejected, base);
            int inked = 0;
            const QRect box = figure.box.toAlignedRect();
            for (int y = box.top(); y <= box.bottom(); ++y) {
                for (int x = box.left(); x <= box.right(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    inked += std::abs(pixel.red() - colour.red()) +
                                         std::abs(pixel.green() - colour.green()) +
                                         std::abs(pixel.blue() - colour.blue()) <
                                     60
                                 ? 1
                                 : 0;
                }
            }
            QVERIFY2(inked > 5, qPrintable(figure.text));
        }
    }

    void aPilesFiguresKeepClearOfTheTicksBeside_data() {
        QTest::addColumn<int>("zoom_ins");
        QTest::newRow("fitted") << 0;
        QTest::newRow("zoomed in") << 2;
    }
    void aPilesFiguresKeepClearOfTheTicksBeside() {
        // Twenty requests on tick 16 between single ones on 15 and 17: the figures stand over
        // and under the bar, never over a neighbour's mark.
        QFETCH(int, zoom_ins);
        TraceBuilder builder;
        builder.add(2, 1);
        builder.add(15, 1);
        for (int i = 0; i < 20; ++i) {
            builder.add(16, 1);
        }
        builder.add(17, 1);
        SessionDocument document = SessionDocument::empty();
        document.params.base.limit = 4;
        document.params.base.window = 10;
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        QVERIFY(session()->reset(std::move(document), QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        for (int i = 0; i < zoom_ins; ++i) {
            view()->zoomIn();
        }
        const TimelineScene scene = view()->scene();
        QVERIFY(scene.detailed);
        const TickRange pile = requestsOnTick(session()->trace(), 16);
        int drawn = 0;
        for (std::size_t lane = 0; lane < scene.laneCount(); ++lane) {
            const QRectF& row = scene.layout.lanes[lane];
            const double half = scene.marker / 2.0;
            for (const std::size_t neighbour : {pile.first - 1, pile.last}) {
                const QPointF centre = scene.point(row, neighbour);
                const QRectF mark(centre.x() - half, row.top(), 2 * half, row.height());
                for (const PileCount& figure : pileCounts(scene, lane, pile.first, 20)) {
                    ++drawn;
                    QVERIFY2(!figure.box.intersects(mark),
                             qPrintable(QStringLiteral("%1 at [%2, %3] over the mark at %4")
                                            .arg(figure.text)
                                            .arg(figure.box.left())
                                            .arg(figure.box.right())
                                            .arg(centre.x())));
                }
            }
        }
        QVERIFY(drawn > 0);
    }

    void aPileAtThePlotsEdgeIsDrawnWhole() {
        // Fifteen requests on tick 0 and twelve on tick 40, zoomed out until a tick is
        // narrower than the count "×15": its box was centred on tick 0, half of it cut off at
        // the plot's left edge.
        TraceBuilder builder;
        for (int i = 0; i < 15; ++i)
            builder.add(0, 1);
        for (Tick t = 1; t < 20; ++t)
            builder.add(t, 1);
        for (int i = 0; i < 12; ++i)
            builder.add(40, 1);
        openFitted(std::move(builder));
        const TimelineScene scene = view()->scene();
        const QRectF first = tracePileBox(scene, 0, 15);
        QVERIFY(first.width() > scene.axis->pixelsPerTick());  // wider than a tick
        QVERIFY2(
            first.left() >= scene.layout.plot_left,
            qPrintable(
                QStringLiteral("%1 left of %2").arg(first.left()).arg(scene.layout.plot_left)));
        // Inside the plot it stays centred on its tick.
        const TickRange later = requestsOnTick(session()->trace(), 40);
        const QRectF second = tracePileBox(scene, later.first, 12);
        QCOMPARE(second.center().x(), scene.centreX(40));
    }

    void pilesOnEveryTickCountWhereTheyFit() {
        // Seven requests on each of sixty ticks, fitted: "×7" is wider than a tick, and every
        // box with its count ran into the next, one long slab of "×××".
        TraceBuilder builder;
        for (Tick t = 0; t < 60; ++t) {
            for (int i = 0; i < 7; ++i)
                builder.add(t, 1);
        }
        openFitted(std::move(builder));
        const TimelineScene scene = view()->scene();
        std::vector<std::pair<std::size_t, std::size_t>> piles;
        for (std::size_t first = 0; first < 60 * 7; first += 7)
            piles.emplace_back(first, 7);
        const std::vector<TracePile> placed = placeTracePiles(scene, piles);
        QCOMPARE(placed.size(), piles.size());
        QVERIFY(tracePileBox(scene, 0, 7).width() > scene.axis->pixelsPerTick());
        int counted = 0;
        double last_right = -1e9;
        for (const TracePile& pile : placed) {
            if (!pile.counted) {
                QVERIFY(pile.box.width() <= scene.axis->pixelsPerTick());
                continue;
            }
            ++counted;
            QVERIFY2(pile.box.left() > last_right,
                     qPrintable(QStringLiteral("pile %1 at %2 overlaps the count before, to %3")
                                    .arg(pile.first)
                                    .arg(pile.box.left())
                                    .arg(last_right)));
            last_right = pile.box.right();
        }
        QVERIFY(placed.front().counted);
        QVERIFY2(counted >= 10, qPrintable(QString::number(counted)));
    }

    void clickingAPileSelectsAllOfIt() {
        openPile(true);
        const TickRange pile = requestsOnTick(session()->trace(), 16);
        QTest::mouseClick(view(), Qt::LeftButton, {}, requestPoint(*view(), pile.first + 7));
        QCOMPARE(session()->selection().size(), std::size_t(20));
        QCOMPARE(session()->selection().front(), pile.first);
    }

    void aTangleOfWaitsIsFadedButTheHoveredRequestsWait() {
        // A window as tall as on a 768-pixel screen: room for four waits under each lane.
        window_->resize(1280, 720);
        QVERIFY(session()->reset(randomArrivals(), QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        // Zoomed in as far as three turns of the wheel from fitting the trace.
        for (int notch = 0; notch < 3; ++notch) {
            view()->zoomIn();
        }
        view()->setOffsetPixels(9.0 * view()->axis().pixelsPerTick());
        QVERIFY(view()->scene().detailed);
        const auto& runs = session()->result()->runs;
        const auto leaky = static_cast<std::size_t>(
            std::find_if(runs.begin(), runs.end(),
                         [](const AlgorithmRun& run) { return run.id == "leaky_bucket"; }) -
            runs.begin());
        QVERIFY(leaky < runs.size());
        std::vector<DelayLine> lines = delayLines(view()->scene(), leaky);
        QVERIFY(lines.size() > 10);
        const auto faded = std::count_if(lines.begin(), lines.end(),
                                         [](const DelayLine& line) { return line.faded; });
        QVERIFY2(faded == static_cast<std::ptrdiff_t>(lines.size()),
                 qPrintable(QStringLiteral("%1 of %2 faded at %3 px a tick, lanes %4 px tall")
                                .arg(faded)
                                .arg(lines.size())
                                .arg(view()->axis().pixelsPerTick())
                                .arg(view()->scene().layout.lanes[leaky].height())));
        // Pointing at one of the queued requests shows its wait whole, and only its.
        const std::size_t pointed = lines[lines.size() / 2].index;
        QTest::mouseMove(view(), requestPoint(*view(), pointed, static_cast<int>(leaky)));
        lines = delayLines(view()->scene(), leaky);
        for (const DelayLine& line : lines) {
            QCOMPARE(line.faded, line.index != pointed);
        }
        // So does selecting one.
        session()->setSelection({lines.front().index});
        QTest::mouseMove(view(), QPoint(2, 2));
        lines = delayLines(view()->scene(), leaky);
        QVERIFY(!lines.front().faded);
        QVERIFY(lines.back().faded);
    }

    void aLessonsFewWaitsStayWhole_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("height");
        QTest::newRow("boundary burst, 1024 x 720") << QStringLiteral("boundary-burst") << 720;
        QTest::newRow("leaky delays, 1024 x 720") << QStringLiteral("leaky-delays") << 720;
    }
    void aLessonsFewWaitsStayWhole() {
        QFETCH(QString, scenario);
        QFETCH(int, height);
        window_->resize(1024, height);
        io::TraceDocument file = io::load_trace(std::string(RATELAB_SOURCE_DIR) + "/traces/" +
                                                scenario.toStdString() + ".json");
        SessionDocument document = SessionDocument::empty();
        document.params = file.params;
        document.trace = std::make_shared<const Trace>(std::move(file.trace));
        QVERIFY(session()->reset(std::move(document), QString()).isEmpty());
        window_->clock()->jumpToEnd();
        view()->fitToTrace();
        const auto& runs = session()->result()->runs;
        for (std::size_t lane = 0; lane < runs.size(); ++lane) {
            for (const DelayLine& line : delayLines(view()->scene(), lane)) {
                QVERIFY2(!line.faded, runs[lane].id.c_str());
            }
        }
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    TimelineCrowdingTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "timeline_crowding_test.moc"
