// The timeline's legend and the marks it explains: "more than L in W ticks" has a cue of its
// own, unlike "rejected", and the legend keeps every entry whole on a narrow window.
#include <QApplication>
#include <QImage>
#include <QSet>
#include <QStyleFactory>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>

#include "charts/fleet_charts.h"
#include "charts/palette.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_panel.h"
#include "timeline/timeline_view.h"

using namespace ratelab::ui;
using ratelab::FleetMode;
namespace marks = ratelab::ui::timeline_palette;

namespace {

// How far apart two colours look (CIE76 distance in CIELAB), to normal eyes or, with
// `deficiency` 1 to 3, with protanopia, deuteranopia or tritanopia (Machado et al., 2009).
double apartAsSeen(const QColor& a, const QColor& b, int deficiency) {
    static constexpr double kSimulate[4][3][3] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
        {{0.152286, 1.052583, -0.204868},
         {0.114503, 0.786281, 0.099216},
         {-0.003882, -0.048116, 1.051998}},
        {{0.367322, 0.860646, -0.227968},
         {0.280085, 0.672501, 0.047413},
         {-0.011820, 0.042940, 0.968881}},
        {{1.255528, -0.076749, -0.178779},
         {-0.078411, 0.930809, 0.147602},
         {0.004733, 0.691367, 0.303900}},
    };
    const auto lab = [&](const QColor& colour) {
        const auto linear = [](double c) {
            return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
        };
        const double in[3] = {linear(colour.redF()), linear(colour.greenF()),
                              linear(colour.blueF())};
        double rgb[3];
        for (int i = 0; i < 3; ++i) {
            const auto& row = kSimulate[deficiency][i];
            rgb[i] = std::clamp(row[0] * in[0] + row[1] * in[1] + row[2] * in[2], 0.0, 1.0);
        }
        const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
        const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
        const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
        const auto f = [](double t) {
            return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0;
        };
        return std::array<double, 3>{116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)),
                                     200.0 * (f(y) - f(z))};
    };
    const std::array<double, 3> p = lab(a);
    const std::array<double, 3> q = lab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

}  // namespace

class TimelineLegendTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void overLimitIsNotTheColourOfRejections() {
        QVERIFY(marks::kBurstOver.rgb() != marks::kRejected.rgb());
        // Far apart in hue: reddish purple against vermillion.
        const double apart = std::abs(marks::kBurstOver.hslHueF() - marks::kRejected.hslHueF());
        QVERIFY2(std::min(apart, 1.0 - apart) > 0.15, qPrintable(QString::number(apart)));
        QVERIFY(chart_colors::kOverLimitText.rgb() != marks::kRejected.rgb());
        QVERIFY(qAbs(chart_colors::kOverLimitText.hslHueF() - marks::kBurstOver.hslHueF()) < 0.02);
    }

    void overLimitIsNotTheColourOfAnyLine_data() {
        QTest::addColumn<QColor>("line");
        for (const char* id : {"fixed_window", "sliding_log", "sliding_counter", "token_bucket",
                               "leaky_bucket", "gcra"}) {
            QTest::newRow(id) << algorithmColor(id);
        }
        for (FleetMode mode : {FleetMode::central, FleetMode::central_racy, FleetMode::local_share,
                               FleetMode::periodic_sync, FleetMode::key_routed}) {
            QTest::newRow(qPrintable(fleetModeShortName(mode))) << fleetModeColor(mode);
        }
    }
    void overLimitIsNotTheColourOfAnyLine() {
        // The load charts draw these lines over the hatched band: each must read as another
        // colour than the band's, also to the colour blind. The palette's closest pairs of lines
        // are about 16 apart in these terms; the leaky bucket's Okabe-Ito purple was 6.
        QFETCH(QColor, line);
        for (int deficiency = 0; deficiency < 4; ++deficiency) {
            const double apart = apartAsSeen(line, chart_colors::kOverLimit, deficiency);
            QVERIFY2(apart >= 15.0, qPrintable(QStringLiteral("%1 is %2 from the band's %3 (%4)")
                                                   .arg(line.name())
                                                   .arg(apart)
                                                   .arg(chart_colors::kOverLimit.name())
                                                   .arg(deficiency)));
        }
    }

    void overLimitBandIsHatchedNotAPlainWash() {
        const QBrush brush = marks::overLimitBrush();
        const QImage tile = brush.textureImage();
        QVERIFY(!tile.isNull());
        QSet<QRgb> pixels;
        for (int y = 0; y < tile.height(); ++y) {
            for (int x = 0; x < tile.width(); ++x) {
                pixels.insert(tile.pixel(x, y));
            }
        }
        QCOMPARE(pixels.size(), 2);  // the wash and the hatch lines
        QCOMPARE(QColor(tile.pixel(0, tile.height() - 1)).rgb(), marks::kBurstOver.rgb());
    }

    void legendSaysOverLimitInPlainWords() {
        TimelineLegend legend;
        const QStringList texts = legend.texts();
        QVERIFY(texts.contains(QStringLiteral("more than L in W ticks")));
        for (const QString& text : texts) {
            QVERIFY2(!text.contains(QStringLiteral("above L")), qPrintable(text));
            QVERIFY2(!text.startsWith(QChar(0x2026)), qPrintable(text));
        }
    }

    void legendExplainsPiles() {
        // A pile is drawn in the lanes as a bar, accepted share up and rejected share down: the
        // legend shows that bar beside its words.
        TimelineLegend legend;
        legend.resize(legend.sizeHint());
        const QStringList texts = legend.texts();
        qsizetype entry = -1;
        for (qsizetype i = 0; i < texts.size(); ++i) {
            if (texts[i].contains(QStringLiteral("on one tick"))) {
                entry = i;
            }
        }
        QVERIFY2(entry >= 0, qPrintable(texts.join(QStringLiteral(" | "))));
        const QImage image = legend.grab().toImage();
        const QRect mark = legend.entryRects(legend.width())[entry].toRect().adjusted(0, 0, -1, -1);
        bool up = false;
        bool down = false;
        for (int y = mark.top(); y <= mark.bottom(); ++y) {
            for (int x = mark.left(); x < mark.left() + 12; ++x) {
                up = up || (QColor(image.pixel(x, y)).rgb() == marks::kAccepted.rgb() &&
                            y < mark.center().y());
                down = down || (QColor(image.pixel(x, y)).rgb() == marks::kRejected.rgb() &&
                                y >= mark.center().y());
            }
        }
        QVERIFY(up);
        QVERIFY(down);
    }

    void thePileEntryIsListedOnlyForATraceWithAPile() {
        // Eight requests on eight ticks: no pile, no entry for one, and the legend is shorter.
        Session session;
        PlaybackClock clock;
        TimelinePanel panel(&session, &clock);
        auto* legend = panel.findChild<TimelineLegend*>();
        QVERIFY(legend);
        const auto listsPiles = [&] {
            return legend->texts()
                .join(QStringLiteral("|"))
                .contains(QStringLiteral("on one tick"));
        };
        const auto open = [&](std::vector<ratelab::Tick> ticks) {
            ratelab::Trace trace;
            for (const ratelab::Tick tick : ticks)
                trace.requests.push_back(ratelab::Request{.tick = tick});
            SessionDocument document = session.document();
            document.trace = std::make_shared<const ratelab::Trace>(std::move(trace));
            return session.reset(std::move(document), QString()).isEmpty();
        };
        QVERIFY(open({0, 1, 2, 3, 4, 5, 6, 7}));
        QVERIFY(!legend->showsPiles());
        QVERIFY(!listsPiles());
        // Four on one tick are drawn as a stack; five as a counted pile.
        QVERIFY(open({0, 3, 3, 3, 3, 9}));
        QVERIFY(!listsPiles());
        QVERIFY(open({0, 3, 3, 3, 3, 3, 9}));
        QVERIFY(listsPiles());
    }

    void largerTypeEnlargesTheMarksWithIt() {
        // Presentation mode sets the window's type half as large again: the timeline's marks
        // and the legend's grow with the words they stand beside.
        Session session;
        PlaybackClock clock;
        TimelinePanel panel(&session, &clock);
        panel.resize(1000, 500);
        auto* legend = panel.findChild<TimelineLegend*>();
        QVERIFY(legend);
        TimelineView* view = panel.view();
        Frame frame;
        frame.result = session.result();
        frame.revealed = frame.result;
        frame.decided = frame.result->trace->requests.size();
        frame.now = 23;
        view->setFrame(frame);
        view->fitToTrace();
        QCOMPARE(view->markScale(), 1.0);
        const double marker = view->scene().marker;
        const double accepted = legend->entryRects(2000).front().width();
        QFont large = panel.font();
        large.setPointSizeF(QApplication::font().pointSizeF() * 1.5);
        panel.setFont(large);
        QCOMPARE(view->markScale(), 1.5);
        QVERIFY2(view->scene().marker > marker,
                 qPrintable(QStringLiteral("%1 then %2").arg(marker).arg(view->scene().marker)));
        // The entry's words grow with the type; its mark, 10 px, by half again.
        const QFontMetricsF before(QApplication::font());
        const QFontMetricsF after(large);
        const double words = after.horizontalAdvance(QStringLiteral("accepted")) -
                             before.horizontalAdvance(QStringLiteral("accepted"));
        QCOMPARE(legend->entryRects(2000).front().width(), accepted + words + 5.0);
        panel.setFont(QFont());
        QCOMPARE(view->markScale(), 1.0);
    }

    void legendIsOneLineWhenThereIsRoom() {
        TimelineLegend legend;
        const int wide = legend.sizeHint().width();
        const QList<QRectF> rects = legend.entryRects(wide);
        for (const QRectF& rect : rects) {
            QCOMPARE(rect.top(), 0.0);
            QVERIFY(rect.right() <= wide);
        }
        QCOMPARE(legend.heightForWidth(wide), legend.sizeHint().height());
    }

    void legendWrapsRatherThanCuttingEntries_data() {
        QTest::addColumn<int>("width");
        // The timeline beside the Learn dock of a 1024 px window is about 700 px wide.
        QTest::newRow("1024 px window") << 700;
        QTest::newRow("half of that") << 350;
        QTest::newRow("narrower than any entry") << 40;
    }
    void legendWrapsRatherThanCuttingEntries() {
        QFETCH(int, width);
        TimelineLegend legend;
        const QList<QRectF> rects = legend.entryRects(width);
        QCOMPARE(rects.size(), legend.texts().size());
        for (qsizetype i = 0; i < rects.size(); ++i) {
            // Only an entry alone on its row may be wider than the legend.
            const bool alone = rects[i].left() <= 10.0;
            QVERIFY2(alone || rects[i].right() <= width, qPrintable(legend.texts()[i]));
            for (qsizetype j = 0; j < i; ++j) {
                QVERIFY(!rects[i].intersects(rects[j]));
            }
        }
        QVERIFY(legend.heightForWidth(width) > legend.sizeHint().height());
        QCOMPARE(legend.heightForWidth(width), static_cast<int>(rects.constLast().bottom()));
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    TimelineLegendTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "timeline_legend_test.moc"
