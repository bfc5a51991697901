// TextWidths keeps the widths of the timeline's labels between paints: what it returns must be
// what measuring the text gives, per font, also after it has started over.
#include <QFontMetricsF>
#include <QTest>

#include "timeline/text_widths.h"

using ratelab::ui::TextWidths;

class TextWidthsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void widthsAreThoseOfTheFont() {
        QFont normal;
        QFont bold = normal;
        bold.setBold(true);
        QFont small = normal;
        small.setPointSizeF(normal.pointSizeF() * 0.85);
        TextWidths widths;
        const QString name = QStringLiteral("Sliding counter");
        for (int round = 0; round < 2; ++round) {  // measured, then kept
            for (const QFont& font : {normal, bold, small}) {
                QCOMPARE(widths.width(font, name), QFontMetricsF(font).horizontalAdvance(name));
            }
        }
        // Bold is wider: the fonts are kept apart.
        QVERIFY(widths.width(bold, name) > widths.width(normal, name));
    }

    void manyTextsStayRight() {
        // More texts than it keeps: it starts over, and every answer is still a measurement.
        QFont font;
        TextWidths widths;
        const QFontMetricsF metrics(font);
        for (int i = 0; i < 10'000; i += 7) {
            const QString text = QString::number(i * 1013);
            QCOMPARE(widths.width(font, text), metrics.horizontalAdvance(text));
            QCOMPARE(widths.width(font, text), metrics.horizontalAdvance(text));
        }
    }
};

QTEST_MAIN(TextWidthsTest)
#include "text_widths_test.moc"
