#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace ratelab::ui {

class DockPresence;
class Session;

/// The Response tab: for the selected request, the HTTP response each shown lane would send, a
/// row per lane as in the comparison table: the status (200, 429, or a preset's own),
/// Retry-After on a rejection, and the rate-limit header fields in the chosen style, computed
/// exactly by the core (response_to()); Copy puts them on the clipboard as HTTP text. It works
/// only while its tab is raised, and catches up when it is.
class ResponsePanel : public QWidget {
    Q_OBJECT

public:
    explicit ResponsePanel(Session* session, QWidget* parent = nullptr);

    /// The heading, then each lane's response as HTTP text under "# lane name": what Copy
    /// copies, after the heading.
    QString text() const;
    QTableWidget* table() const { return table_; }
    QComboBox* styleBox() const { return style_; }
    QPushButton* copyButton() const { return copy_; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();

    Session* session_;
    QLabel* heading_;
    QTableWidget* table_;
    QString http_;  ///< each lane's response as HTTP text
    QComboBox* style_;
    QPushButton* copy_;
    DockPresence* presence_ = nullptr;
    bool stale_ = true;
};

}  // namespace ratelab::ui
