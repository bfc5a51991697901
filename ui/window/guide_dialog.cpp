#include "window/guide_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include "charts/algorithm_names.h"
#include "panels/learn_panel.h"
#include "ratelab/registry.h"

namespace ratelab::ui {

namespace {

const QString kUsingPage = QStringLiteral("using");
const QString kOverviewPage = QStringLiteral("overview");

/// The parameters an algorithm declares, as a Markdown table: the same declarations the trace
/// file, the command line and the Advanced panel read.
QString parameterTable(const AlgorithmInfo& info) {
    if (info.parameters.empty()) {
        return GuideDialog::tr("\n\n**Parameters.** None of its own: it reads L and W.\n");
    }
    QString table = GuideDialog::tr(
                        "\n\n**Parameters** (as `%1` takes them in a trace file and "
                        "in `--lane %1:NAME=VALUE`)\n\n"
                        "| name | unit | default | what it is |\n|---|---|---|---|\n")
                        .arg(QString::fromStdString(info.id));
    for (const ParameterInfo& parameter : info.parameters) {
        table += QStringLiteral("| `%1` | %2 | %3 | %4 |\n")
                     .arg(QString::fromStdString(parameter.id),
                          QString::fromStdString(std::string(unit_name(parameter.unit))),
                          QString::fromStdString(parameter.default_rule.text),
                          QString::fromStdString(parameter.description));
    }
    return table;
}

/// The compiled-in Markdown text of a page; the Learn panel reads the same files.
QString pageText(const QString& id) {
    if (id == kUsingPage) {
        return LearnPanel::textFor("guide_using");
    }
    if (id == kOverviewPage) {
        return LearnPanel::textFor({});
    }
    const std::string algorithm = id.toStdString();
    QString text = LearnPanel::textFor(algorithm);
    if (text.isEmpty()) {
        text = QStringLiteral("### %1\n\n%2\n")
                   .arg(algorithmName(algorithm), algorithmSummary(algorithm));
    }
    if (const AlgorithmInfo* info = Registry::instance().find(algorithm)) {
        text += parameterTable(*info);
    }
    return text;
}

}  // namespace

QStringList GuideDialog::pageIds() {
    QStringList ids{kUsingPage, kOverviewPage};
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        ids << QString::fromStdString(info->id);
    }
    return ids;
}

GuideDialog::GuideDialog(QWidget* parent)
    : QDialog(parent), contents_(new QTreeWidget(this)), page_(new QTextBrowser(this)) {
    setObjectName(QStringLiteral("guideDialog"));
    setWindowTitle(tr("RateLab Guide"));
    contents_->setObjectName(QStringLiteral("guideContents"));
    contents_->setToolTip(tr("Choose a page"));
    page_->setObjectName(QStringLiteral("guidePage"));
    page_->setOpenLinks(false);  // the texts have no links; nothing here may start a browser

    contents_->setHeaderHidden(true);
    contents_->setRootIsDecorated(false);
    QTreeWidgetItem* algorithms = nullptr;
    for (const QString& id : pageIds()) {
        QTreeWidgetItem* item = nullptr;
        if (id == kUsingPage) {
            item = new QTreeWidgetItem(contents_, {tr("Using RateLab")});
        } else if (id == kOverviewPage) {
            item = algorithms = new QTreeWidgetItem(contents_, {tr("The six algorithms")});
        } else {
            const QString name = algorithmName(id.toStdString());
            item = algorithms ? new QTreeWidgetItem(algorithms, {name})
                              : new QTreeWidgetItem(contents_, {name});
        }
        item->setData(0, Qt::UserRole, id);
    }
    contents_->expandAll();
    contents_->resizeColumnToContents(0);
    contents_->setMinimumWidth(contents_->columnWidth(0) + 2 * contents_->frameWidth() + 12);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(contents_);
    splitter->addWidget(page_);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({contents_->minimumWidth(), 640});
    page_->document()->setDocumentMargin(12);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);

    connect(contents_, &QTreeWidget::currentItemChanged, this, &GuideDialog::showItem);
    contents_->setCurrentItem(contents_->topLevelItem(0));
    contents_->setFocus();
    resize(820, 600);
}

void GuideDialog::showPage(const QString& id) {
    for (QTreeWidgetItemIterator it(contents_); *it; ++it) {
        if ((*it)->data(0, Qt::UserRole).toString() == id) {
            contents_->setCurrentItem(*it);
            return;
        }
    }
}

QString GuideDialog::currentPage() const {
    const QTreeWidgetItem* item = contents_->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

void GuideDialog::showItem(const QTreeWidgetItem* item) {
    if (item) {
        page_->setMarkdown(pageText(item->data(0, Qt::UserRole).toString()));
    }
}

}  // namespace ratelab::ui
