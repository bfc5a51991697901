#pragma once

#include <QList>

class QAction;
class QWidget;

namespace ratelab::ui {

class FrameModel;
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
};

/// The widget of the main window's "Charts" dock. When ui/charts/charts_panel.h exists it is a
/// ChartsPanel, which must offer
///     explicit ChartsPanel(QWidget* parent);
///     void setFrame(const ratelab::ui::Frame& frame);          // slot
///     void setVisibleRange(double first_tick, double last_tick);  // slot
/// and is fed from the context; until then it is a placeholder.
QWidget* createChartsWidget(const ChartsContext& context, QWidget* parent);
/// The charts' export commands (Export Chart, Copy Chart Image, Export Decisions) for the File
/// menu; empty for the placeholder.
QList<QAction*> chartsExportActions(QWidget* charts_widget);

}  // namespace ratelab::ui
