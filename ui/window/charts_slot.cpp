#include "window/charts_slot.h"

#include <QCoreApplication>
#include <QLabel>

#include "session/frame_model.h"
#include "timeline/timeline_view.h"

#if __has_include("charts/charts_panel.h")
#include "charts/charts_panel.h"
#include "charts/timeline_print.h"
#include "session/session.h"
#define RATELAB_HAVE_CHARTS_PANEL 1
#endif

namespace ratelab::ui {

QWidget* createChartsWidget(const ChartsContext& context, QWidget* parent) {
#ifdef RATELAB_HAVE_CHARTS_PANEL
    auto* panel = new ChartsPanel(parent);
    panel->setTimelinePainter(printedTimelinePainter());
    const auto name_scenario = [panel, session = context.session] {
        panel->setScenarioName(QString::fromStdString(session->document().name));
    };
    name_scenario();
    QObject::connect(context.session, &Session::documentReset, panel, name_scenario);
    panel->setFrame(context.frames->frame());
    QObject::connect(context.frames, &FrameModel::frameChanged, panel, &ChartsPanel::setFrame);
    QObject::connect(context.timeline, &TimelineView::viewChanged, panel,
                     &ChartsPanel::setVisibleRange);
    return panel;
#else
    (void)context;
    auto* placeholder = new QLabel(
        QCoreApplication::translate(
            "ChartsSlot", "Charts of load, queue and bucket level over time will appear here."),
        parent);
    placeholder->setObjectName(QStringLiteral("chartsPlaceholder"));
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setEnabled(false);
    return placeholder;
#endif
}

QList<QAction*> chartsExportActions(QWidget* charts_widget) {
#ifdef RATELAB_HAVE_CHARTS_PANEL
    if (auto* panel = qobject_cast<ChartsPanel*>(charts_widget))
        return panel->exportActions();
#else
    (void)charts_widget;
#endif
    return {};
}

}  // namespace ratelab::ui
