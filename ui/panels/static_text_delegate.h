#pragma once

#include <QFont>
#include <QHash>
#include <QSet>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace ratelab::ui {

/// Paints an item view's cells as QStyledItemDelegate does (background, alternate rows,
/// selection and focus from the style, the model's font, colour and alignment), with less text
/// layout. The style lays out every cell's text twice on every paint; the comparison table
/// repaints all its cells at every clock step and edit. Here a text is laid out once when it is
/// new, and a text seen again is kept laid out (QStaticText), as the names and most figures are.
class StaticTextDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

private:
    /// The kept layout of `text` in `font`: null the first time a text is seen.
    const QStaticText* laidOut(const QString& text, const QFont& font) const;

    mutable QHash<QString, QStaticText> cache_;
    mutable QSet<QString> seen_;  // texts drawn once, not laid out to keep yet
    mutable QFont cached_font_;   // of the texts above
};

}  // namespace ratelab::ui
