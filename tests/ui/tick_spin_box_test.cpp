// The W field holds 64-bit windows (ui/panels/tick_spin_box.h): a QSpinBox stopped at 2^31 - 1,
// so a trace with W = 10^12 showed the wrong W and the first touch changed it. And one tick is
// "1 tick", in the field and wherever a count of ticks is written (charts/tick_text.h). On a big
// trace, a number typed into L or W is taken when typing ends, not at each digit.
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QUndoStack>
#include <QtTest>

#include "charts/algorithm_names.h"
#include "charts/tick_text.h"
#include "panels/parameters_bar.h"
#include "panels/tick_spin_box.h"
#include "ratelab/key_figures.h"
#include "ratelab/limits.h"
#include "ratelab/simulation.h"
#include "session/session.h"
#include "session/simulation_run.h"

using namespace ratelab;
using namespace ratelab::ui;

class TickSpinBoxTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aWindowBeyondIntIsShownAndKeptUntilChanged() {
        Session session;
        Params params = session.params();
        params.base.window = bounds::kMaxWindow;
        QCOMPARE(session.setParams(params, QStringLiteral("W"), 0), QString());
        session.undoStack()->clear();
        ParametersBar bar(&session);
        TickSpinBox* box = bar.windowBox();
        QCOMPARE(box->value(), bounds::kMaxWindow);
        QCOMPARE(box->text(), QStringLiteral("1000000000000 ticks"));
        // Focus in and out, as a click on it would: W stays.
        box->setFocus();
        Q_EMIT box->editingFinished();
        QCOMPARE(session.params().base.window, bounds::kMaxWindow);
        QCOMPARE(session.undoStack()->count(), 0);
        // At the top only a step down is possible, and it is one tick.
        box->stepBy(1);
        QCOMPARE(session.params().base.window, bounds::kMaxWindow);
        box->stepBy(-1);
        QCOMPARE(session.params().base.window, bounds::kMaxWindow - 1);
    }

    void onABigTraceTypedValuesAreTakenWhenTypingEnds() {
        // Each digit typed into L or W starts a simulation. On a trace big enough for it to go
        // behind a progress dialog, which holds input back, the next digit was lost ("51" set
        // L = 5): there the number is taken on Enter. On a small trace, at each digit.
        Session session;
        ParametersBar bar(&session);
        QVERIFY(bar.limitBox()->keyboardTracking());
        QVERIFY(bar.windowBox()->keyboardTracking());
        TraceBuilder builder;
        for (std::uint64_t i = 0; i < SimulationRun::kBackgroundDecisions / 6 + 1'000; ++i)
            builder.add(static_cast<Tick>(i / 4), 1, std::string());
        SessionDocument document = SessionDocument::defaultScenario();
        document.trace = std::make_shared<const Trace>(std::move(builder).take());
        QVERIFY(session.reset(document, QString()).isEmpty());
        QVERIFY(estimatedDecisions(session.trace(), session.params()) >
                SimulationRun::kBackgroundDecisions);
        QVERIFY(!bar.limitBox()->keyboardTracking());
        QVERIFY(!bar.windowBox()->keyboardTracking());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        // Types `digits` into `box`: nothing changes until Enter.
        const auto type = [&](QAbstractSpinBox* box, const QString& digits) {
            const Limits before = session.params().base;
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, digits);
            QCOMPARE(session.params().base, before);
            QTest::keyClick(box, Qt::Key_Return);
        };
        type(bar.limitBox(), QStringLiteral("12"));
        QCOMPARE(session.params().base.limit, 12);
        type(bar.windowBox(), QStringLiteral("25"));
        QCOMPARE(session.params().base.window, Tick{25});
        // Back to a small trace: live again.
        QVERIFY(session.reset(SessionDocument::defaultScenario(), QString()).isEmpty());
        QVERIFY(bar.limitBox()->keyboardTracking());
        QVERIFY(bar.windowBox()->keyboardTracking());
    }

    void typingTakesWholeNumbersInRangeOnly() {
        TickSpinBox box;
        box.setRange(1, bounds::kMaxWindow);
        box.setSuffix(QStringLiteral(" ticks"));
        QSignalSpy changed(&box, &TickSpinBox::valueChanged);
        QString text = QStringLiteral("5000000000");
        int pos = 0;
        QCOMPARE(box.validate(text, pos), QValidator::Acceptable);
        text = QStringLiteral("10000000000000");  // 10^13 > 10^12
        QCOMPARE(box.validate(text, pos), QValidator::Invalid);
        text = QStringLiteral("12a");
        QCOMPARE(box.validate(text, pos), QValidator::Invalid);
        text = QStringLiteral("0");
        QCOMPARE(box.validate(text, pos), QValidator::Intermediate);
        text.clear();
        QCOMPARE(box.validate(text, pos), QValidator::Intermediate);
        box.setFocus();
        box.selectAll();
        QTest::keyClicks(&box, QStringLiteral("4000000000"));
        QCOMPARE(box.value(), qint64{4'000'000'000});
        QCOMPARE(changed.count() > 0, true);
        QCOMPARE(changed.last().front().toLongLong(), qint64{4'000'000'000});
    }

    void aCountOfTicksIsSingularOnlyForOne_data() {
        QTest::addColumn<QString>("number");
        QTest::addColumn<QString>("text");
        QTest::newRow("one") << QStringLiteral("1") << QStringLiteral("1 tick");
        QTest::newRow("none") << QStringLiteral("0") << QStringLiteral("0 ticks");
        QTest::newRow("ten") << QStringLiteral("10") << QStringLiteral("10 ticks");
        QTest::newRow("eleven") << QStringLiteral("11") << QStringLiteral("11 ticks");
        QTest::newRow("a half more") << QStringLiteral("1.5") << QStringLiteral("1.5 ticks");
    }
    void aCountOfTicksIsSingularOnlyForOne() {
        QFETCH(QString, number);
        QFETCH(QString, text);
        QCOMPARE(ticksText(number), text);
        bool whole = false;
        const qint64 n = number.toLongLong(&whole);
        if (whole) {
            QCOMPARE(ticksText(n), text);
            QCOMPARE(QString::number(n) + ticksSuffix(n), text);
        }
    }

    void aOneTickWindowReadsOneTick() {
        Session session;
        Params params = session.params();
        params.base.window = 1;
        QCOMPARE(session.setParams(params, QStringLiteral("W"), 0), QString());
        ParametersBar bar(&session);
        TickSpinBox* box = bar.windowBox();
        QCOMPARE(box->text(), QStringLiteral("1 tick"));
        // Typing 15 over the 1 goes through "1 ticks"-like text without losing a keystroke.
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("15"));
        QCOMPARE(session.params().base.window, std::int64_t{15});
        Q_EMIT box->editingFinished();
        QCOMPARE(box->text(), QStringLiteral("15 ticks"));
        box->setValue(1);
        QCOMPARE(box->text(), QStringLiteral("1 tick"));
    }

    void aBurstInOneTickIsWrittenInTheSingular() {
        // L = 4, W = 1, five requests on one tick: the fixed window lets four through.
        Trace trace;
        for (int i = 0; i < 5; ++i) {
            trace.requests.push_back(Request{.tick = 3});
        }
        Params params;
        params.base.limit = 4;
        params.base.window = 1;
        const auto result = simulate(std::make_shared<const Trace>(std::move(trace)), params);
        const JudgedBurst judged = judged_burst(*result, 0, nullptr, result->runs[0]);
        QCOMPARE(judgedBurstText(*result, judged, false), QStringLiteral("4 in 1 tick"));
    }
};

QTEST_MAIN(TickSpinBoxTest)
#include "tick_spin_box_test.moc"
