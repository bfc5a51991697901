#include "panels/response_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "charts/algorithm_names.h"
#include "charts/dock_presence.h"
#include "ratelab/responses.h"
#include "session/session.h"

namespace ratelab::ui {

ResponsePanel::ResponsePanel(Session* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      heading_(new QLabel(this)),
      table_(new QTableWidget(this)),
      style_(new QComboBox(this)),
      copy_(new QPushButton(tr("Copy"), this)) {
    presence_ = new DockPresence(this, [this] {
        if (stale_)
            refresh();
    });
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    style_->addItem(tr("RateLimit (IETF draft)"), static_cast<int>(HeaderStyle::ietf));
    style_->addItem(tr("X-RateLimit-*"), static_cast<int>(HeaderStyle::x_ratelimit));
    style_->addItem(tr("Both"), static_cast<int>(HeaderStyle::both));
    style_->setToolTip(tr("Which rate-limit header fields the responses carry"));
    copy_->setToolTip(tr("Copy the responses as text"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(heading_, 1);
    controls->addWidget(new QLabel(tr("Headers"), this));
    controls->addWidget(style_);
    controls->addWidget(copy_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    layout->addWidget(table_, 1);

    connect(style_, &QComboBox::currentIndexChanged, this, &ResponsePanel::refresh);
    connect(copy_, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(http_); });
    const auto changed = [this] {
        stale_ = true;
        if (presence_->isShown())
            refresh();
    };
    connect(session_, &Session::selectionChanged, this, changed);
    connect(session_, &Session::resultChanged, this, changed);
}

QString ResponsePanel::text() const {
    return heading_->text() + QLatin1Char('\n') + http_;
}

void ResponsePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    presence_->follow();
    if (stale_)
        refresh();
}

void ResponsePanel::refresh() {
    stale_ = false;
    const auto& result = session_->result();
    const auto& selection = session_->selection();
    copy_->setEnabled(false);
    http_.clear();
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    if (!result || selection.empty() || selection.front() >= result->trace->requests.size()) {
        heading_->setText(
            tr("Select a request on the timeline: here is the HTTP response each "
               "lane would send it, headers and all."));
        return;
    }
    const std::size_t index = selection.front();
    const Trace& trace = *result->trace;
    const Request& request = trace.requests[index];
    const std::string& key = trace.key_name(request.key);
    heading_->setText(tr("Request %1 at tick %2, key %3, cost %4")
                          .arg(index)
                          .arg(request.tick)
                          .arg(key.empty() ? tr("(none)") : QString::fromStdString(key).left(80))
                          .arg(request.cost));
    const auto style = static_cast<HeaderStyle>(style_->currentData().toInt());
    // A row per shown lane; a column for the status and Retry-After (blank on an acceptance),
    // then one per rate-limit field, in the order the responses list them.
    QStringList columns = {tr("Status"), QStringLiteral("Retry-After")};
    struct Row {
        QString lane;
        QString status;
        std::vector<HeaderField> fields;
    };
    std::vector<Row> rows;
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        if (result->lanes[lane].hidden)
            continue;
        const AlgorithmRun& run = result->runs[lane];
        Row row{laneName(run.id, run.label), {}, {}};
        QString http;
        try {
            const Response response = response_to(*result, lane, index);
            http = QString::fromStdString(http_text(response, style));
            row.fields = header_fields(response, style);
        } catch (const std::exception& failure) {
            http = tr("(no response: %1)").arg(QString::fromLocal8Bit(failure.what()));
        }
        http.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
        row.status = http.section(QLatin1Char('\n'), 0, 0).remove(QStringLiteral("HTTP/1.1 "));
        for (const HeaderField& field : row.fields) {
            const QString name = QString::fromStdString(field.first);
            if (!columns.contains(name))
                columns << name;
        }
        http_ += QStringLiteral("# %1\n%2\n").arg(row.lane, http.trimmed());
        rows.push_back(std::move(row));
    }
    http_ = http_.trimmed();
    table_->setColumnCount(static_cast<int>(columns.size()));
    table_->setHorizontalHeaderLabels(columns);
    table_->setRowCount(static_cast<int>(rows.size()));
    QStringList lanes;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const int at = static_cast<int>(r);
        lanes << rows[r].lane;
        table_->setItem(at, 0, new QTableWidgetItem(rows[r].status));
        for (const HeaderField& field : rows[r].fields) {
            const int column =
                static_cast<int>(columns.indexOf(QString::fromStdString(field.first)));
            table_->setItem(at, column, new QTableWidgetItem(QString::fromStdString(field.second)));
        }
    }
    table_->setVerticalHeaderLabels(lanes);
    copy_->setEnabled(!rows.empty());
}

}  // namespace ratelab::ui
