// The timeline's legend and the marks it explains: "more than L in W ticks" has a cue of its
// own, unlike "rejected", and the legend keeps every entry whole on a narrow window.
#include <QApplication>
#include <QImage>
#include <QSet>
#include <QStyleFactory>
#include <QtTest>

#include "charts/palette.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_panel.h"

using namespace ratelab::ui;
namespace marks = ratelab::ui::timeline_palette;

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
