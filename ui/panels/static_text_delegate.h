#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace ratelab::ui {

/// Paints an item view's cells as QStyledItemDelegate does (background, alternate rows,
/// selection and focus from the style, the model's font, colour and alignment), but draws each
/// text from a cache of laid-out QStaticText. The style lays out every cell's text twice on every
/// paint; the comparison table repaints all its cells at every clock step and edit, and most of
/// its texts come back unchanged.
class StaticTextDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

private:
    /// The laid-out text for `text` in `font`.
    const QStaticText& laidOut(const QString& text, const QFont& font) const;

    mutable QHash<QString, QStaticText> cache_;
    mutable QFont cached_font_;  // of the cached texts
};

}  // namespace ratelab::ui
