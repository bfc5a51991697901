#include "timeline/text_widths.h"

#include <QFontMetricsF>
#include <algorithm>

namespace ratelab::ui {

qreal TextWidths::width(const QFont& font, const QString& text) {
    if (count_ >= kMaxTexts) {
        fonts_.clear();
        count_ = 0;
    }
    auto kept = std::find_if(fonts_.begin(), fonts_.end(),
                             [&](const PerFont& entry) { return entry.font == font; });
    if (kept == fonts_.end()) {
        fonts_.push_back(PerFont{font, {}});
        kept = fonts_.end() - 1;
    }
    if (const auto found = kept->widths.constFind(text); found != kept->widths.constEnd()) {
        return *found;
    }
    const qreal measured = QFontMetricsF(font).horizontalAdvance(text);
    kept->widths.insert(text, measured);
    ++count_;
    return measured;
}

}  // namespace ratelab::ui
