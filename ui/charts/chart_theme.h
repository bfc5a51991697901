#pragma once

#include <QColor>
#include <QFont>

class QPalette;

namespace ratelab::ui {

/// Colours and fonts of a chart's furniture. Series colours come from the palette; the theme
/// only makes sure they stay visible on its background.
struct ChartTheme {
    bool dark = false;
    QColor background;
    QColor plot_background;
    QColor text;
    QColor muted_text;
    QColor grid;
    QColor axis_line;
    QFont title_font;
    QFont note_font;
    QFont axis_title_font;
    QFont label_font;
    QFont legend_font;

    /// White paper, dark text, fixed font sizes in pixels: what every export uses, whatever
    /// the screen looks like, so that figures match in print.
    static ChartTheme print();
    /// Follows the application's palette and font (light or dark).
    static ChartTheme screen(const QPalette& palette, const QFont& font);

    /// `color`, lightened when it would vanish on a dark background.
    QColor visible(const QColor& color) const;
};

}  // namespace ratelab::ui
