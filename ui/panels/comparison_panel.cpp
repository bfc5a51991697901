#include "panels/comparison_panel.h"

#include <QEvent>
#include <QHeaderView>

#include "panels/comparison_model.h"
#include "panels/static_text_delegate.h"

namespace ratelab::ui {

ComparisonPanel::ComparisonPanel(QWidget* parent)
    : QTableView(parent), model_(new ComparisonModel(this)) {
    setModel(model_);
    setItemDelegate(new StaticTextDelegate(this));
    setObjectName(QStringLiteral("comparisonTable"));
    setToolTip(tr("Each algorithm at the current tick; select a row to highlight its lane"));
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setCornerButtonEnabled(false);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(ComparisonModel::kState, QHeaderView::Stretch);
    connect(model_, &ComparisonModel::clockHeaderChanged, horizontalHeader()->viewport(),
            qOverload<>(&QWidget::update));
    // The six rows always fit: the table is the summary users read first.
    connect(model_, &QAbstractItemModel::modelReset, this,
            [this] { setMinimumHeight(sizeHint().height()); });
    setMinimumHeight(sizeHint().height());
    model_->setRowBackgrounds(palette().color(QPalette::Base),
                              palette().color(QPalette::AlternateBase));
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { Q_EMIT rowSelected(current.row()); });
}

QSize ComparisonPanel::sizeHint() const {
    const int rows = std::max(6, model_->rowCount());
    const int height = horizontalHeader()->sizeHint().height() +
                       rows * verticalHeader()->defaultSectionSize() + 2 * frameWidth();
    return {700, height};
}

void ComparisonPanel::changeEvent(QEvent* event) {
    QTableView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        // A dark palette needs a lighter purple for the over-limit counts.
        model_->setRowBackgrounds(palette().color(QPalette::Base),
                                  palette().color(QPalette::AlternateBase));
    }
}

void ComparisonPanel::selectRow(int row) {
    if (row != currentIndex().row()) {
        setCurrentIndex(model_->index(row, 0));
    }
}

}  // namespace ratelab::ui
