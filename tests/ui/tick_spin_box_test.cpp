// The W field holds 64-bit windows (ui/panels/tick_spin_box.h): a QSpinBox stopped at 2^31 - 1,
// so a trace with W = 10^12 showed the wrong W and the first touch changed it.
#include <QLineEdit>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include "panels/parameters_bar.h"
#include "panels/tick_spin_box.h"
#include "ratelab/limits.h"
#include "session/session.h"

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
};

QTEST_MAIN(TickSpinBoxTest)
#include "tick_spin_box_test.moc"
