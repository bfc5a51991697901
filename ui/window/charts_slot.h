#pragma once

#include <QList>

class QAction;
class QStatusBar;
class QWidget;

namespace ratelab::ui {

class ComparisonModel;
class FrameModel;
class KeysPanel;
class PlaybackClock;
class Session;
class TimelineView;

/// What the charts can follow: every Frame (result snapshot plus current tick), the clock, and
/// the timeline's visible span (TimelineView::viewChanged) for a shared x axis.
struct ChartsContext {
    Session* session = nullptr;
    PlaybackClock* clock = nullptr;
    FrameModel* frames = nullptr;
    TimelineView* timeline = nullptr;
    /// Where an export says what it wrote and where; none for no word.
    QStatusBar* status_bar = nullptr;
};

/// The widget of the main window's "Charts" dock: a ChartsPanel fed from the context.
QWidget* createChartsWidget(const ChartsContext& context, QWidget* parent);
/// The export commands (Export Chart, Copy Chart Image, Export Decisions) of a widget that
/// createChartsWidget made, for the File menu.
QList<QAction*> chartsExportActions(QWidget* charts_widget);
/// The charts count the keys chosen on the Keys tab, and the comparison table counts the keys
/// the charts do; one key chosen is also the key whose state the table shows.
void followChosenKeys(QWidget* charts_widget, KeysPanel* keys, ComparisonModel* comparison);

}  // namespace ratelab::ui
