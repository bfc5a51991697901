// The Response tab: the selected request's HTTP response in every shown lane, as the core
// computes it, in the header style chosen, copyable; nothing selected, a hint instead.
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>

#include "panels/response_panel.h"
#include "ratelab/responses.h"
#include "session/session.h"
#include "session/session_document.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

/// The first request that lane `lane` rejects.
std::size_t firstRejected(const SimulationResult& result, std::size_t lane) {
    for (std::size_t i = 0; i < result.trace->requests.size(); ++i) {
        if (!result.runs[lane].accepted(i))
            return i;
    }
    return result.trace->requests.size();
}

}  // namespace

class ResponsePanelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theSelectedRequestIsAnsweredInEveryLane() {
        Session session;
        QVERIFY(session.reset(SessionDocument::defaultScenario(), QString()).isEmpty());
        // The boundary burst: L = 4 per W = 10.
        ResponsePanel panel(&session);
        panel.show();
        QVERIFY(panel.text().contains(QStringLiteral("Select a request")));
        QVERIFY(!panel.copyButton()->isEnabled());

        const auto result = session.result();
        // The fixed window lets the whole burst through; the sliding log refuses some.
        QCOMPARE(firstRejected(*result, 0), result->trace->requests.size());
        const std::size_t rejected = firstRejected(*result, 1);
        QVERIFY(rejected < result->trace->requests.size());
        session.setSelection({rejected});
        const QString text = panel.text();
        QVERIFY2(text.contains(QStringLiteral("Request %1 at tick %2")
                                   .arg(rejected)
                                   .arg(result->trace->requests[rejected].tick)),
                 qPrintable(text));
        // Each lane's response as the core gives it, under the lane's name.
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
            QString expected = QString::fromStdString(
                http_text(response_to(*result, lane, rejected), HeaderStyle::ietf));
            expected.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
            QVERIFY2(text.contains(expected.trimmed()), qPrintable(expected));
        }
        QVERIFY(text.contains(QStringLiteral("# Fixed window\nHTTP/1.1 200 OK\n")));
        QVERIFY(
            text.contains(QStringLiteral("# Sliding log\nHTTP/1.1 429 Too Many Requests\n"
                                         "Retry-After: ")));
        QVERIFY(text.contains(QStringLiteral("RateLimit-Policy: \"default\";q=4;w=10")));
        QVERIFY(!text.contains(QStringLiteral("X-RateLimit")));

        // The same as a table: a row per lane, Retry-After beside the status.
        const QTableWidget& table = *panel.table();
        QCOMPARE(table.rowCount(), static_cast<int>(result->runs.size()));
        QCOMPARE(table.horizontalHeaderItem(1)->text(), QStringLiteral("Retry-After"));
        QCOMPARE(table.verticalHeaderItem(1)->text(), QStringLiteral("Sliding log"));
        QCOMPARE(table.item(1, 0)->text(), QStringLiteral("429 Too Many Requests"));
        QCOMPARE(table.item(1, 1)->text().toLongLong(),
                 *response_to(*result, 1, rejected).retry_after_seconds);
        QCOMPARE(table.item(0, 0)->text(), QStringLiteral("200 OK"));
        QVERIFY(table.item(0, 1) == nullptr);  // nothing to wait for after an acceptance
        panel.styleBox()->setCurrentIndex(
            panel.styleBox()->findData(static_cast<int>(HeaderStyle::x_ratelimit)));
        QVERIFY(panel.text().contains(QStringLiteral("X-RateLimit-Limit: 4")));
        QVERIFY(!panel.text().contains(QStringLiteral("RateLimit-Policy")));

        QVERIFY(panel.copyButton()->isEnabled());
        panel.copyButton()->click();
        QVERIFY(QGuiApplication::clipboard()->text().contains(
            QStringLiteral("HTTP/1.1 429 Too Many Requests")));

        session.setSelection({});
        QVERIFY(panel.text().contains(QStringLiteral("Select a request")));
    }
};

QTEST_MAIN(ResponsePanelTest)
#include "response_panel_test.moc"
