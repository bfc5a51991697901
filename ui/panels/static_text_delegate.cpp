#include "panels/static_text_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace ratelab::ui {

namespace {

constexpr qsizetype kMaxCachedTexts = 2048;  // a table's worth many times over

}  // namespace

const QStaticText* StaticTextDelegate::laidOut(const QString& text, const QFont& font) const {
    if (font != cached_font_ || cache_.size() + seen_.size() > kMaxCachedTexts) {
        cache_.clear();
        seen_.clear();
        cached_font_ = font;
    }
    if (const auto found = cache_.constFind(text); found != cache_.constEnd()) {
        return &*found;
    }
    if (!seen_.contains(text)) {
        seen_.insert(text);  // a figure that changes every frame is never laid out twice
        return nullptr;
    }
    seen_.remove(text);
    QStaticText laid_out(text);
    laid_out.setTextFormat(Qt::PlainText);
    laid_out.setPerformanceHint(QStaticText::AggressiveCaching);
    laid_out.prepare(QTransform(), font);
    return &*cache_.insert(text, laid_out);
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
    const Qt::Alignment align = QStyle::visualAlignment(cell.direction, cell.displayAlignment);
    const QFontMetrics metrics(cell.font);
    const QStaticText* laid_out = laidOut(text, cell.font);
    // Whether the text may be too wide for its cell, without laying it out: a bound for new
    // texts, the exact width for kept ones.
    const bool may_overflow =
        laid_out != nullptr ? laid_out->size().width() > area.width()
                            : static_cast<qint64>(text.size()) * metrics.maxWidth() > area.width();
    QString shown = text;
    if (may_overflow) {
        shown = metrics.elidedText(text, cell.textElideMode, area.width());
        laid_out = shown == text ? laid_out : laidOut(shown, cell.font);
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
    // Both ways of drawing place the text alike: vertically by the font's line height, in whole
    // pixels (as the style does), so a figure does not move when its layout starts being kept.
    const int line = metrics.height();
    int y = area.top() + (area.height() - line) / 2;
    if (align & Qt::AlignTop) {
        y = area.top();
    } else if (align & Qt::AlignBottom) {
        y = area.bottom() + 1 - line;
    }
    if (laid_out == nullptr) {
        const QRect row(area.left(), y, area.width(), line);
        const auto flags = (align & Qt::AlignHorizontal_Mask) | Qt::AlignTop | Qt::TextSingleLine;
        painter->drawText(row, static_cast<int>(flags), shown);
        painter->restore();
        return;
    }
    const QSizeF size = laid_out->size();
    qreal x = area.left();
    if (align & Qt::AlignRight) {
        x = area.right() + 1 - size.width();
    } else if (align & Qt::AlignHCenter) {
        x = area.left() + (area.width() - size.width()) / 2;
    }
    painter->drawStaticText(QPointF(x, y), *laid_out);
    painter->restore();
}

}  // namespace ratelab::ui
