#pragma once

#include <QDialog>
#include <QStringList>

class QTreeWidget;
class QTreeWidgetItem;
class QTextBrowser;

namespace ratelab::ui {

/// The offline guide (Help › Guide): how to use the app and how each of the six algorithms
/// decides, read from the texts compiled into the program, so it needs neither a browser nor a
/// network. A contents list on the left, the chosen page on the right.
class GuideDialog : public QDialog {
    Q_OBJECT

public:
    /// Page ids: "using" (the app), "overview" (all six) and then the registry's algorithm ids.
    static QStringList pageIds();

    explicit GuideDialog(QWidget* parent = nullptr);

    /// Shows page `id` (one of pageIds()); unknown ids are ignored.
    void showPage(const QString& id);
    QString currentPage() const;

    QTreeWidget* contents() const { return contents_; }
    QTextBrowser* page() const { return page_; }

private:
    void showItem(const QTreeWidgetItem* item);

    QTreeWidget* contents_;
    QTextBrowser* page_;
};

}  // namespace ratelab::ui
