// File > New as a user fills it in: an empty trace with its limits, tick length and timeline,
// traffic from a pattern with its own parameters and seed (the same requests as the generator
// gives), and a bad value answered in the dialog, which stays open.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

#include "panels/tick_spin_box.h"
#include "ratelab/io/generators.h"
#include "window/new_trace_dialog.h"

using namespace ratelab;
using namespace ratelab::ui;

class NewTraceDialogTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void anEmptyTraceTakesItsLimitsTickAndTimeline() {
        NewTraceDialog dialog;
        QCOMPARE(dialog.trafficBox()->currentIndex(), 0);  // empty first
        QVERIFY(dialog.parameterField(QStringLiteral("rate")) == nullptr);
        dialog.limitBox()->setValue(6);
        dialog.windowBox()->setValue(20);
        dialog.tickMsBox()->setValue(100);
        dialog.durationBox()->setValue(500);
        const auto document = dialog.document();
        QVERIFY(document);
        QVERIFY(document->trace->requests.empty());
        QCOMPARE(document->params.base.limit, std::int64_t{6});
        QCOMPARE(document->params.base.window, Tick{20});
        QCOMPARE(document->tick_ms, std::int64_t{100});
        QCOMPARE(document->params.base.tick_ms, std::int64_t{100});
        QCOMPARE(document->duration, std::optional<Tick>(500));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.created());
    }

    void aPatternTakesItsParametersAndSeed() {
        NewTraceDialog dialog;
        dialog.trafficBox()->setCurrentText(QStringLiteral("poisson"));
        QLineEdit* rate = dialog.parameterField(QStringLiteral("rate"));
        QLineEdit* duration = dialog.parameterField(QStringLiteral("duration"));
        QVERIFY(rate != nullptr && duration != nullptr);
        QCOMPARE(rate->text(), QStringLiteral("1/2"));  // the declared default
        // L and W have fields of their own, not a second pair among the parameters.
        QVERIFY(dialog.parameterField(QStringLiteral("limit")) == nullptr);
        QVERIFY(!dialog.durationBox()->isEnabled());
        rate->setText(QStringLiteral("2"));
        duration->setText(QStringLiteral("50"));
        dialog.seedBox()->setValue(7);
        dialog.limitBox()->setValue(5);
        const auto document = dialog.document();
        QVERIFY(document);
        const io::TraceDocument expected = io::generate_pattern(
            "poisson", {{"rate", "2"}, {"duration", "50"}, {"limit", "5"}, {"window", "10"}}, 7);
        QCOMPARE(document->trace->requests, expected.trace.requests);
        QCOMPARE(document->params.base.limit, std::int64_t{5});
        QVERIFY(!document->trace->requests.empty());
        // Another seed, other requests.
        dialog.seedBox()->setValue(8);
        QVERIFY(dialog.document()->trace->requests != expected.trace.requests);
    }

    void aBadValueIsAnsweredInTheDialog() {
        NewTraceDialog dialog;
        dialog.trafficBox()->setCurrentText(QStringLiteral("poisson"));
        dialog.parameterField(QStringLiteral("rate"))->setText(QStringLiteral("fast"));
        QVERIFY(!dialog.document());
        QVERIFY(dialog.error().contains(QStringLiteral("rate")));
        dialog.accept();  // refused: the dialog stays, saying why
        QVERIFY(dialog.result() != int(QDialog::Accepted));
        QVERIFY(!dialog.created());
        const QLabel* error = dialog.findChild<QLabel*>(QStringLiteral("newError"));
        QVERIFY(error != nullptr);
        QCOMPARE(error->text(), dialog.error());
        // Another traffic clears the message.
        dialog.trafficBox()->setCurrentIndex(0);
        QVERIFY(error->text().isEmpty());
    }
};

QTEST_MAIN(NewTraceDialogTest)
#include "new_trace_dialog_test.moc"
