#pragma once

#include <QLayout>
#include <QList>

namespace ratelab::ui {

/// Lays its items out left to right at their preferred widths and starts a new line where the
/// next one would pass the right edge, so that a row of controls wraps on a narrow window
/// instead of widening it. Its minimum width is that of its widest item.
class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    /// Places the items in `rect` (or only measures, when `place` is false); the height used.
    int arrange(const QRect& rect, bool place) const;

    QList<QLayoutItem*> items_;
    int spacing_;
};

}  // namespace ratelab::ui
