#include "charts/chart_theme.h"

#include <QPalette>

#include "charts/palette.h"

namespace ratelab::ui {
namespace {

QFont sized(const QFont& base, double pixels, bool bold = false) {
    QFont font = base;
    font.setPixelSize(static_cast<int>(pixels + 0.5));
    font.setBold(bold);
    return font;
}

}  // namespace

ChartTheme ChartTheme::print() {
    ChartTheme theme;
    theme.background = Qt::white;
    theme.plot_background = Qt::white;
    theme.text = QColor(0x1A, 0x1A, 0x1A);
    theme.muted_text = QColor(0x4D, 0x4D, 0x4D);
    theme.grid = QColor(0xE3, 0xE3, 0xE3);
    theme.axis_line = QColor(0x80, 0x80, 0x80);
    // DejaVu Sans ships with the project's fonts package, so every machine lays text out alike.
    QFont base(QStringLiteral("DejaVu Sans"));
    base.setStyleHint(QFont::SansSerif);
    base.setHintingPreference(QFont::PreferNoHinting);
    theme.title_font = sized(base, 17, true);
    theme.note_font = sized(base, 13);
    theme.axis_title_font = sized(base, 13);
    theme.label_font = sized(base, 12);
    theme.legend_font = sized(base, 13);
    return theme;
}

ChartTheme ChartTheme::screen(const QPalette& palette, const QFont& font) {
    ChartTheme theme;
    const QColor window = palette.color(QPalette::Window);
    theme.dark = window.lightnessF() < 0.5;
    theme.background = palette.color(QPalette::Base);
    theme.plot_background = theme.background;
    theme.text = palette.color(QPalette::WindowText);
    theme.muted_text = palette.color(QPalette::PlaceholderText);
    theme.grid = theme.dark ? theme.background.lighter(160) : theme.background.darker(112);
    theme.axis_line = palette.color(QPalette::Mid);
    const double base = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 4.0 / 3.0;
    theme.title_font = sized(font, base * 1.15, true);
    theme.note_font = sized(font, base * 0.95);
    theme.axis_title_font = sized(font, base);
    theme.label_font = sized(font, base * 0.92);
    theme.legend_font = sized(font, base);
    return theme;
}

QColor ChartTheme::visible(const QColor& color) const {
    if (!dark)
        return color;
    if (color.lightnessF() < 0.25)
        return QColor(0xE0, 0xE0, 0xE0, color.alpha());
    // Dark hues such as the leaky bucket's indigo are lifted, keeping their hue, to the 3:1 on
    // the plot that WCAG asks of graphics.
    return legibleOn(color, plot_background, 3.0);
}

}  // namespace ratelab::ui
