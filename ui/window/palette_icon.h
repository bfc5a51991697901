#pragma once

#include <QIcon>
#include <QStyle>

class QAction;
class QPalette;

namespace ratelab::ui {

/// The style's icon `icon`, drawn in `palette`'s button text colour where that is light (a
/// dark palette): some styles draw their media icons in a fixed dark grey, which all but
/// vanishes on a dark toolbar. On a light palette the style's own icon.
QIcon paletteIcon(QStyle::StandardPixmap icon, const QPalette& palette);

/// Gives `action` paletteIcon(icon) for the application's palette, and remembers `icon` so
/// that refreshPaletteIcons() can draw it again when the palette changes.
void setPaletteIcon(QAction* action, QStyle::StandardPixmap icon);
/// Draws again the icon of every action under `root` that setPaletteIcon() gave one.
void refreshPaletteIcons(QObject* root);

}  // namespace ratelab::ui
