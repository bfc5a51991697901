// Edit > Tiers as a user fills it in: the rows show the trace's tiers, a new tier with its own
// L, W and parameters is one undo step, and a wrong row is answered in the dialog while the
// document stays as it was.
#include <QApplication>
#include <QLabel>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

#include "session/session.h"
#include "window/tiers_dialog.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// Two requests a tick for five ticks from each of free (a tier of L = 2) and guest.
SessionDocument twoKeys() {
    TraceBuilder builder;
    for (Tick tick = 0; tick < 5; ++tick) {
        for (const char* key : {"free", "guest"}) {
            builder.add(tick, 1, key);
            builder.add(tick, 1, key);
        }
    }
    SessionDocument document = SessionDocument::defaultScenario();
    document.trace = std::make_shared<const Trace>(std::move(builder).take());
    document.params.keys["free"] = Limits{2, 10, {}, 1000};
    return document;
}

void setCell(QTableWidget* table, int row, int column, const QString& text) {
    table->item(row, column)->setText(text);
}

}  // namespace

class TiersDialogTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aNewTierIsOneUndoStep() {
        Session session;
        QVERIFY(session.reset(twoKeys(), {}).isEmpty());
        TiersDialog dialog(&session);
        QTableWidget* table = dialog.table();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, TiersDialog::kKey)->text(), QStringLiteral("free"));
        QCOMPARE(table->item(0, TiersDialog::kLimit)->text(), QStringLiteral("2"));

        // Add Tier offers the first key without one, at the base L and W.
        dialog.addTier();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, TiersDialog::kKey)->text(), QStringLiteral("guest"));
        QCOMPARE(table->item(1, TiersDialog::kLimit)->text(), QStringLiteral("4"));
        setCell(table, 1, TiersDialog::kLimit, QStringLiteral("6"));
        setCell(table, 1, TiersDialog::kWindow, QStringLiteral("20"));
        setCell(table, 1, TiersDialog::kParameters, QStringLiteral("token_bucket:capacity=1"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const Limits& guest = session.params().keys.at("guest");
        QCOMPARE(guest.limit, std::int64_t{6});
        QCOMPARE(guest.window, Tick{20});
        QCOMPARE(guest.override_of("token_bucket", "capacity"),
                 std::optional<ParamValue>(Rational(1)));
        // A bucket of one lets one of guest's two a tick through.
        const std::size_t token_bucket = 3;
        QCOMPARE(session.result()->lanes[token_bucket].algorithm, std::string("token_bucket"));
        QVERIFY(session.result()->runs[token_bucket].totals.rejected >= 5);
        session.undoStack()->undo();
        QVERIFY(!session.params().keys.contains("guest"));
        QVERIFY(session.params().keys.contains("free"));
    }

    void aWrongRowIsAnsweredAndNothingChanges() {
        Session session;
        QVERIFY(session.reset(twoKeys(), {}).isEmpty());
        const Params before = session.params();
        TiersDialog dialog(&session);
        dialog.addTier();
        QTableWidget* table = dialog.table();
        const QLabel* error = dialog.findChild<QLabel*>(QStringLiteral("tiersError"));

        setCell(table, 1, TiersDialog::kKey, QStringLiteral("free"));  // twice
        QCOMPARE(dialog.error(), QStringLiteral("Row 2: \"free\" has a tier already"));
        setCell(table, 1, TiersDialog::kKey, QString());
        QVERIFY(dialog.error().startsWith(QStringLiteral("Row 2: give the key a name")));
        setCell(table, 1, TiersDialog::kKey, QStringLiteral("guest"));
        setCell(table, 1, TiersDialog::kLimit, QStringLiteral("0"));
        QVERIFY(dialog.error().startsWith(QStringLiteral("Row 2: L must be a whole number")));
        setCell(table, 1, TiersDialog::kLimit, QStringLiteral("3"));
        setCell(table, 1, TiersDialog::kParameters, QStringLiteral("token_bucket:size=3"));
        QVERIFY2(dialog.error().contains(QStringLiteral("has no parameter \"size\"")),
                 qPrintable(dialog.error()));
        QVERIFY(!dialog.params());
        dialog.accept();  // refused: the dialog stays, saying why
        QVERIFY(dialog.result() != int(QDialog::Accepted));
        QCOMPARE(error->text(), dialog.error());
        QVERIFY(session.params() == before);

        // Removing the row leaves the tiers as they were, and applying that changes nothing.
        table->setCurrentCell(1, 0);
        dialog.removeTier();
        QCOMPARE(table->rowCount(), 1);
        QVERIFY(dialog.params() == before);
    }

    void overridesAreWrittenAsLanes() {
        AlgorithmParams overrides;
        overrides["token_bucket"]["capacity"] = Rational(8);
        overrides["token_bucket"]["refill_rate"] = Rational(1, 2);
        overrides["leaky_bucket"]["queue_size"] = Rational(2);
        QCOMPARE(
            overridesText(overrides),
            QStringLiteral("leaky_bucket:queue_size=2; token_bucket:capacity=8,refill_rate=1/2"));
    }
};

QTEST_MAIN(TiersDialogTest)
#include "tiers_dialog_test.moc"
