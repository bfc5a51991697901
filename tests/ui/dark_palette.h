#pragma once

#include <QColor>
#include <QPalette>

namespace ratelab::ui::test {

/// A dark palette like the ones desktop themes hand to Qt applications (Breeze Dark, Adwaita
/// Dark): light text on dark greys, a blue selection. Used to check the app on a dark desktop.
inline QPalette darkPalette() {
    QPalette palette;
    const QColor window(0x2D, 0x2F, 0x33);
    const QColor base(0x1E, 0x20, 0x23);
    const QColor text(0xE8, 0xE8, 0xE8);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2C));
    palette.setColor(QPalette::ToolTipBase, window);
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0x9A, 0x9C, 0xA0));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, window);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, Qt::white);
    palette.setColor(QPalette::Light, QColor(0x4A, 0x4D, 0x52));
    palette.setColor(QPalette::Midlight, QColor(0x3A, 0x3D, 0x42));
    palette.setColor(QPalette::Mid, QColor(0x60, 0x63, 0x68));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1B));
    palette.setColor(QPalette::Shadow, Qt::black);
    palette.setColor(QPalette::Highlight, QColor(0x3D, 0xAE, 0xE9));
    palette.setColor(QPalette::HighlightedText, QColor(0x10, 0x10, 0x10));
    palette.setColor(QPalette::Link, QColor(0x5D, 0xB8, 0xF0));
    palette.setColor(QPalette::LinkVisited, QColor(0xB0, 0x8C, 0xE8));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        palette.setColor(QPalette::Disabled, role, QColor(0x80, 0x82, 0x86));
    }
    return palette;
}

}  // namespace ratelab::ui::test
