// The Clients tab: every shown lane's clients as the core runs them (run_clients()), a row of
// figures each, the chosen lane's attempts per tick and every lane's time to success; a policy
// written as the CLI's --client takes it, and a wrong one refused with the rule it breaks.
#include <QComboBox>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "panels/clients_panel.h"
#include "session/document_files.h"
#include "session/session.h"
#include "session/session_document.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

bool runNow(ClientsPanel& panel) {
    QSignalSpy shown(&panel, &ClientsPanel::runShown);
    panel.runNow();
    return shown.wait(20000);
}

std::int64_t sum(const QList<QPointF>& points) {
    double total = 0;
    for (const QPointF& p : points)
        total += p.y();
    return static_cast<std::int64_t>(total);
}

}  // namespace

class ClientsPanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyLaneRunsItsClientsAsTheCoreDoes() {
        Session session;
        const QString path = QStringLiteral(RATELAB_SOURCE_DIR "/traces/retry-storm.json");
        QVERIFY(session.reset(loadDocument(path), path).isEmpty());
        ClientsPanel panel(&session);
        panel.resize(1200, 360);
        panel.show();
        QVERIFY(panel.setPolicyText(QStringLiteral("backoff:base=2,jitter=full,seed=7")));
        QCOMPARE(panel.policyText(), QStringLiteral("backoff:base=2,jitter=full,seed=7"));
        QVERIFY(runNow(panel));
        const auto result = session.result();
        ClientPolicies policies;
        policies.base =
            std::get<ClientPolicy>(parse_client_policy("backoff:base=2,jitter=full,seed=7"));
        QCOMPARE(panel.runs().size(), result->runs.size());
        QCOMPARE(panel.table()->rowCount(), static_cast<int>(result->runs.size()));
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            const ClientRun expected =
                run_clients(*result->trace, session.params(), result->lanes[lane], policies);
            QVERIFY(panel.runs()[lane].attempts == expected.attempts);
            QVERIFY(panel.runs()[lane].intents == expected.intents);
            const auto row = static_cast<int>(lane);
            QCOMPARE(panel.table()->item(row, 0)->text().toLongLong(), expected.intents.served);
            QCOMPARE(panel.table()->item(row, 2)->text().toLongLong(), expected.intents.attempts);
        }
        // The chosen lane's chart counts every attempt once, and every lane has its bars.
        panel.table()->selectRow(1);
        QCOMPARE(panel.laneBox()->currentIndex(), 1);
        const ChartSpec& attempts = panel.attemptsSpec();
        QCOMPARE(attempts.lines.size(), qsizetype{3});
        QCOMPARE(sum(attempts.lines[0].points), panel.runs()[1].intents.attempts);
        QCOMPARE(panel.timeSpec().bars->values.size(), static_cast<qsizetype>(result->runs.size()));
        QCOMPARE(panel.timeSpec().bars->values[1],
                 panel.runs()[1].intents.time_to_success.p95.to_double());
    }

    void giveUpIsTodaysSimulationAndAWrongPolicyIsRefused() {
        Session session;
        QVERIFY(session.reset(SessionDocument::defaultScenario(), QString()).isEmpty());
        ClientsPanel panel(&session);
        panel.show();
        QVERIFY(panel.setPolicyText(QStringLiteral("give_up")));
        QVERIFY(runNow(panel));
        const auto result = session.result();
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            QCOMPARE(panel.runs()[lane].intents.served, result->runs[lane].totals.accepted);
            QCOMPARE(panel.runs()[lane].intents.attempts,
                     static_cast<std::int64_t>(result->trace->requests.size()));
        }
        QVERIFY(!panel.setPolicyText(QStringLiteral("backoff:jitter=wobbly")));
        QVERIFY2(panel.status().contains(QStringLiteral("jitter")), qPrintable(panel.status()));
        QCOMPARE(panel.policyText(), QStringLiteral("give_up"));  // the last good one stays
    }
};

QTEST_MAIN(ClientsPanelTest)
#include "clients_panel_test.moc"
