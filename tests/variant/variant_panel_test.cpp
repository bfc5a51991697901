// The app's Advanced panel, built with the test algorithm: its section and fields come from the
// declarations, with units, and a value typed there becomes an undoable override.
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include "panels/advanced_panel.h"
#include "session/session.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

QLineEdit* fieldLabelled(AdvancedPanel& panel, const QString& text) {
    auto* form = panel.findChild<QFormLayout*>();
    for (int row = 0; row < form->rowCount(); ++row) {
        auto* label = form->itemAt(row, QFormLayout::LabelRole);
        auto* field = form->itemAt(row, QFormLayout::FieldRole);
        auto* shown = label ? qobject_cast<QLabel*>(label->widget()) : nullptr;
        if (shown && field && shown->text() == text) {
            return qobject_cast<QLineEdit*>(field->widget());
        }
    }
    return nullptr;
}

QStringList shownTexts(const AdvancedPanel& panel) {
    QStringList shown;
    for (const QLabel* label : panel.findChildren<QLabel*>()) {
        if (!label->isHidden())
            shown << label->text();
    }
    return shown;
}

}  // namespace

class VariantPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aDecimalIsAnsweredWithTheFractionToWrite() {
        Session session;
        AdvancedPanel panel(&session);
        QLineEdit* rate = fieldLabelled(panel, QStringLiteral("Refill rate (per tick)"));
        QVERIFY(rate != nullptr);
        QTest::keyClicks(rate, QStringLiteral("0.4"));
        const QStringList shown = shownTexts(panel);
        QVERIFY2(shown.contains(
                     QStringLiteral("0.4 is a decimal: write 2/5 (fractions keep RateLab exact)")),
                 qPrintable(shown.join(u'|')));
        Q_EMIT rate->editingFinished();
        QVERIFY(!session.params().base.override_of("token_bucket", "refill_rate"));
        rate->setText(QStringLiteral("2/5"));
        Q_EMIT rate->editingFinished();
        QVERIFY(session.params().base.override_of("token_bucket", "refill_rate") ==
                ParamValue(Rational(2, 5)));
    }

    void clearingAFieldClearsItsMessage() {
        Session session;
        AdvancedPanel panel(&session);
        QLineEdit* rate = fieldLabelled(panel, QStringLiteral("Refill rate (per tick)"));
        QVERIFY(rate != nullptr);
        QTest::keyClicks(rate, QStringLiteral("0.4"));
        Q_EMIT rate->editingFinished();
        QVERIFY(!shownTexts(panel).filter(QStringLiteral("write 2/5")).isEmpty());
        // The field's clear button: back to the default, so nothing is wrong any more.
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* clear = rate->findChild<QToolButton*>();
        QVERIFY(clear != nullptr);
        QTest::mouseClick(clear, Qt::LeftButton);
        QVERIFY(rate->text().isEmpty());
        Q_EMIT rate->editingFinished();
        QVERIFY2(shownTexts(panel).filter(QStringLiteral("write 2/5")).isEmpty(),
                 qPrintable(shownTexts(panel).join(u'|')));
        QVERIFY(rate->styleSheet().isEmpty());
        // Another field's good value leaves a bad one's message alone.
        QTest::keyClicks(rate, QStringLiteral("0.4"));
        QLineEdit* capacity = fieldLabelled(panel, QStringLiteral("Capacity (tokens)"));
        QVERIFY(capacity != nullptr);
        QTest::keyClicks(capacity, QStringLiteral("8"));
        QVERIFY(!shownTexts(panel).filter(QStringLiteral("write 2/5")).isEmpty());
        // "Use defaults" empties every field, and so takes every message away.
        auto* defaults = panel.findChild<QPushButton*>();
        QVERIFY(defaults != nullptr);
        defaults->click();
        QVERIFY(rate->text().isEmpty());
        QVERIFY(rate->styleSheet().isEmpty());
        QVERIFY(shownTexts(panel).filter(QStringLiteral("write 2/5")).isEmpty());
    }

    void theTestAlgorithmHasItsOwnFieldsWithUnits() {
        Session session;
        AdvancedPanel panel(&session);
        QStringList labels;
        for (const QLabel* label : panel.findChildren<QLabel*>()) {
            labels << label->text();
        }
        QVERIFY2(labels.contains(QStringLiteral("<b>First n</b>")), qPrintable(labels.join(u'|')));
        QVERIFY(labels.contains(QStringLiteral("Allowance (cost units)")));
        QVERIFY(labels.contains(QStringLiteral("By cost")));

        QLineEdit* allowance = fieldLabelled(panel, QStringLiteral("Allowance (cost units)"));
        QVERIFY(allowance != nullptr);
        QCOMPARE(allowance->placeholderText(), QStringLiteral("default L = 4"));
        allowance->setText(QStringLiteral("2"));
        Q_EMIT allowance->editingFinished();
        QVERIFY(session.params().base.override_of("first_n", "allowance") ==
                ParamValue(Rational(2)));
        session.undoStack()->undo();
        QVERIFY(!session.params().base.override_of("first_n", "allowance"));
    }
};

QTEST_MAIN(VariantPanelTest)
#include "variant_panel_test.moc"
