#pragma once

#include <QFont>
#include <QHash>
#include <QString>
#include <vector>

namespace ratelab::ui {

/// Widths of texts in given fonts, kept from paint to paint. Measuring a text lays it out, and
/// most of the timeline's labels (lane names, tick numbers, worst-burst figures) are the same
/// from one paint to the next.
class TextWidths {
public:
    /// What QFontMetricsF(font).horizontalAdvance(text) gives.
    qreal width(const QFont& font, const QString& text);

private:
    static constexpr qsizetype kMaxTexts = 4096;  // many paints' worth; then start over

    struct PerFont {
        QFont font;
        QHash<QString, qreal> widths;
    };
    std::vector<PerFont> fonts_;
    qsizetype count_ = 0;
};

}  // namespace ratelab::ui
