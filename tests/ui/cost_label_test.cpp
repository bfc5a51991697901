// A request's cost is written on it whenever a readable number fits its tick: a cost of 12 must
// not look like a cost of 1 at the zoom a scenario opens at.
#include <QFontMetricsF>
#include <QTest>

#include "timeline/cost_label.h"

using ratelab::ui::CostLabel;
using ratelab::ui::fitCostLabel;

class CostLabelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aCostOfOneHasNoLabel() { QVERIFY(!fitCostLabel(1, labelFont(), 20.0, 14.0, 30.0)); }

    void aRoomyBoxKeepsItsSizeAndFont() {
        const auto label = fitCostLabel(6, labelFont(), 20.0, 14.0, 30.0);
        QVERIFY(label);
        QCOMPARE(label->text, QStringLiteral("6"));
        QCOMPARE(label->box_width, 20.0);
        QCOMPARE(label->font.pointSizeF(), labelFont().pointSizeF());
    }

    void twoDigitsFitANarrowTick() {
        // A box of 10 px in a 14 px cell (the expensive-endpoint scenario fitted into a 1024 px
        // window): "12" does not fit the box in the row's font.
        const QFont font = labelFont();
        QVERIFY(QFontMetricsF(font).horizontalAdvance(QStringLiteral("12")) + 2.0 > 10.0);
        const auto label = fitCostLabel(12, font, 10.0, 14.0, 14.0);
        QVERIFY(label);
        QCOMPARE(label->text, QStringLiteral("12"));
        QVERIFY(label->box_width >= 10.0);
        QVERIFY(label->box_width < 14.0);  // never into the neighbouring tick
        QVERIFY(QFontMetricsF(label->font).horizontalAdvance(label->text) <= label->box_width);
        QVERIFY(QFontMetricsF(label->font).height() - 4.0 <= 14.0);
    }

    void noLabelWhenNothingReadableFits() {
        QVERIFY(!fitCostLabel(123456, labelFont(), 5.0, 14.0, 6.0));
        QVERIFY(!fitCostLabel(12, labelFont(), 10.0, 2.0, 14.0));  // far too flat
    }

private:
    static QFont labelFont() {
        QFont font;
        font.setPointSizeF(9.0);
        font.setBold(true);
        return font;
    }
};

QTEST_MAIN(CostLabelTest)
#include "cost_label_test.moc"
