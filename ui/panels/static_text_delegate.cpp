#include "panels/static_text_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace ratelab::ui {

namespace {

constexpr qsizetype kMaxCachedTexts = 2048;  // a table's worth many times over

}  // namespace

const QStaticText& StaticTextDelegate::laidOut(const QString& text, const QFont& font) const {
    if (font != cached_font_ || cache_.size() > kMaxCachedTexts) {
        cache_.clear();
        cached_font_ = font;
    }
    auto found = cache_.find(text);
    if (found == cache_.end()) {
        QStaticText laid_out(text);
        laid_out.setTextFormat(Qt::PlainText);
        laid_out.setPerformanceHint(QStaticText::AggressiveCaching);
        laid_out.prepare(QTransform(), font);
        found = cache_.insert(text, laid_out);
    }
    return *found;
}

void StaticTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QWidget* widget = cell.widget;
    const QStyle* style = widget != nullptr ? widget->style() : QApplication::style();
    const QString text = cell.text;
    cell.text.clear();  // the style draws everything but the text
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);
    if (text.isEmpty()) {
        return;
    }

    // The text area and colours the style would use (QCommonStyle's item view text).
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect area = cell.rect.adjusted(margin, 0, -margin, 0);
    const QStaticText* laid_out = &laidOut(text, cell.font);
    if (laid_out->size().width() > area.width()) {
        const QFontMetrics metrics(cell.font);
        laid_out = &laidOut(metrics.elidedText(text, cell.textElideMode, area.width()), cell.font);
    }
    const QSizeF size = laid_out->size();
    const Qt::Alignment align = QStyle::visualAlignment(cell.direction, cell.displayAlignment);
    qreal x = area.left();
    if (align & Qt::AlignRight) {
        x = area.right() + 1 - size.width();
    } else if (align & Qt::AlignHCenter) {
        x = area.left() + (area.width() - size.width()) / 2;
    }
    // Vertically by the font's line height, in whole pixels, as the style aligns its text.
    const int line = QFontMetrics(cell.font).height();
    int y = area.top() + (area.height() - line) / 2;
    if (align & Qt::AlignTop) {
        y = area.top();
    } else if (align & Qt::AlignBottom) {
        y = area.bottom() + 1 - line;
    }

    QPalette::ColorGroup group = QPalette::Normal;
    if (!(cell.state & QStyle::State_Enabled)) {
        group = QPalette::Disabled;
    } else if (!(cell.state & QStyle::State_Active)) {
        group = QPalette::Inactive;
    }
    const QPalette::ColorRole role =
        cell.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text;
    painter->save();
    painter->setFont(cell.font);
    painter->setPen(cell.palette.color(group, role));
    painter->drawStaticText(QPointF(x, y), *laid_out);
    painter->restore();
}

}  // namespace ratelab::ui
