#include "window/tiers_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

#include "charts/tick_text.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/limits.h"
#include "ratelab/simulation.h"
#include "session/session.h"

namespace ratelab::ui {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QString cellText(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item != nullptr ? item->text().trimmed() : QString();
}

/// A whole number from `cell` between 1 and `most`, or nothing.
std::optional<std::int64_t> wholeIn(const QString& cell, std::int64_t most) {
    bool ok = false;
    const qlonglong value = cell.toLongLong(&ok);
    if (!ok || value < 1 || value > most)
        return std::nullopt;
    return value;
}

}  // namespace

QString overridesText(const AlgorithmParams& overrides) {
    QStringList specs;
    for (const auto& [algorithm, values] : overrides) {
        QStringList items;
        for (const auto& [name, value] : values)
            items << text(name) + QLatin1Char('=') + text(to_text(value));
        specs << text(algorithm) + QLatin1Char(':') + items.join(QLatin1Char(','));
    }
    return specs.join(QStringLiteral("; "));
}

TiersDialog::TiersDialog(Session* session, QWidget* parent)
    : QDialog(parent),
      session_(session),
      table_(new QTableWidget(0, kColumnCount, this)),
      error_(new QLabel(this)) {
    setWindowTitle(tr("Tiers"));
    setMinimumWidth(620);
    auto* intro =
        new QLabel(tr("Keys with limits of their own. The other keys take L = %1 per W = %2. "
                      "Parameters are written as <tt>--lane</tt> writes a lane, for example "
                      "<tt>token_bucket:capacity=8</tt>; separate several with <tt>;</tt>.")
                       .arg(session_->params().base.limit)
                       .arg(ticksText(session_->params().base.window)),
                   this);
    intro->setWordWrap(true);
    table_->setObjectName(QStringLiteral("tiersTable"));
    table_->setHorizontalHeaderLabels(
        {tr("Key"), tr("L"), tr("W (ticks)"), tr("Parameters (optional)")});
    table_->horizontalHeader()->setSectionResizeMode(kParameters, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (const auto& [key, limits] : session_->params().keys)
        addRow(key, limits);

    auto* add = new QPushButton(tr("&Add Tier"), this);
    auto* remove = new QPushButton(tr("&Remove Tier"), this);
    connect(add, &QPushButton::clicked, this, &TiersDialog::addTier);
    connect(remove, &QPushButton::clicked, this, &TiersDialog::removeTier);
    auto* row_buttons = new QHBoxLayout;
    row_buttons->addWidget(add);
    row_buttons->addWidget(remove);
    row_buttons->addStretch(1);

    error_->setObjectName(QStringLiteral("tiersError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #B0003A"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Apply"));
    connect(buttons, &QDialogButtonBox::accepted, this, &TiersDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &TiersDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(table_, 1);
    layout->addLayout(row_buttons);
    layout->addWidget(error_);
    layout->addWidget(buttons);
}

void TiersDialog::addRow(const std::string& key, const Limits& limits) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, kKey, new QTableWidgetItem(text(key)));
    table_->setItem(row, kLimit, new QTableWidgetItem(QString::number(limits.limit)));
    table_->setItem(row, kWindow, new QTableWidgetItem(QString::number(limits.window)));
    table_->setItem(row, kParameters, new QTableWidgetItem(overridesText(limits.overrides)));
}

void TiersDialog::addTier() {
    std::set<QString> taken;
    for (int row = 0; row < table_->rowCount(); ++row)
        taken.insert(cellText(table_, row, kKey));
    std::string key;
    for (const std::string& name : session_->trace().keys) {
        if (!name.empty() && !taken.contains(text(name))) {
            key = name;
            break;
        }
    }
    addRow(key, session_->params().base);
    table_->setCurrentCell(table_->rowCount() - 1, key.empty() ? kKey : kLimit);
}

void TiersDialog::removeTier() {
    if (table_->currentRow() >= 0)
        table_->removeRow(table_->currentRow());
}

MadeOrWhy<Params> TiersDialog::make() const {
    Params params = session_->params();
    params.keys.clear();
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QString where = tr("Row %1").arg(row + 1);
        const std::string key = cellText(table_, row, kKey).toStdString();
        if (key.empty())
            return tr("%1: give the key a name (the keys without one take the base L and W)")
                .arg(where);
        if (params.keys.contains(key))
            return tr("%1: \"%2\" has a tier already").arg(where, text(key));
        Limits limits = params.base;
        limits.overrides.clear();
        const auto limit = wholeIn(cellText(table_, row, kLimit), bounds::kMaxLimit);
        const auto window = wholeIn(cellText(table_, row, kWindow), bounds::kMaxWindow);
        if (!limit)
            return tr("%1: L must be a whole number from 1 to %2")
                .arg(where)
                .arg(bounds::kMaxLimit);
        if (!window)
            return tr("%1: W must be a whole number from 1 to %2")
                .arg(where)
                .arg(bounds::kMaxWindow);
        limits.limit = *limit;
        limits.window = *window;
        for (const QString& spec :
             cellText(table_, row, kParameters).split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            try {
                const Lane lane = io::parse_lane_spec(spec.trimmed().toStdString());
                if (!lane.label.empty())
                    return tr("%1: a label names a lane, not a tier's parameters").arg(where);
                for (const auto& [name, value] : lane.params)
                    limits.set_override(lane.algorithm, name, value);
            } catch (const io::LaneSpecError& problem) {
                return tr("%1, parameters: %2").arg(where, text(problem.what()));
            }
        }
        params.keys.emplace(key, std::move(limits));
    }
    if (const std::vector<std::string> problems = validate(params); !problems.empty())
        return text(problems.front());
    return params;
}

std::optional<Params> TiersDialog::params() const {
    return madeValue(make());
}

QString TiersDialog::error() const {
    return whyNot(make());
}

void TiersDialog::accept() {
    auto made = make();
    if (const auto* problem = std::get_if<QString>(&made)) {
        error_->setText(*problem);  // the dialog stays, with what the user typed
        return;
    }
    if (const QString problem = session_->setParams(std::get<Params>(made), tr("Edit Tiers"), 0);
        !problem.isEmpty()) {
        error_->setText(problem);
        return;
    }
    QDialog::accept();
}

}  // namespace ratelab::ui
