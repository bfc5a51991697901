#include "window/palette_icon.h"

#include <QAction>
#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmap>

namespace ratelab::ui {
namespace {

constexpr char kStandardIcon[] = "ratelab_standard_icon";

QPixmap tinted(const QIcon& icon, int size, const QColor& colour) {
    QPixmap pixmap = icon.pixmap(size, size);
    QPainter painter(&pixmap);
    painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
    painter.fillRect(pixmap.rect(), colour);
    return pixmap;
}

}  // namespace

QIcon paletteIcon(QStyle::StandardPixmap icon, const QPalette& palette) {
    const QIcon base = QApplication::style()->standardIcon(icon);
    if (palette.color(QPalette::ButtonText).lightness() <=
        palette.color(QPalette::Button).lightness())
        return base;
    QIcon out;
    for (const int size : {16, 22, 24, 32, 48}) {
        out.addPixmap(tinted(base, size, palette.color(QPalette::Active, QPalette::ButtonText)),
                      QIcon::Normal);
        out.addPixmap(tinted(base, size, palette.color(QPalette::Disabled, QPalette::ButtonText)),
                      QIcon::Disabled);
    }
    return out;
}

void setPaletteIcon(QAction* action, QStyle::StandardPixmap icon) {
    action->setProperty(kStandardIcon, static_cast<int>(icon));
    action->setIcon(paletteIcon(icon, QApplication::palette()));
}

void refreshPaletteIcons(QObject* root) {
    for (QAction* action : root->findChildren<QAction*>()) {
        const QVariant icon = action->property(kStandardIcon);
        if (icon.isValid())
            setPaletteIcon(action, static_cast<QStyle::StandardPixmap>(icon.toInt()));
    }
}

}  // namespace ratelab::ui
