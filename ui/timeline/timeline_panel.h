#pragma once

#include <QColor>
#include <QPair>
#include <QWidget>
#include <memory>

#include "ratelab/model.h"

class QScrollBar;

namespace ratelab::ui {

class PlaybackClock;
class Session;
class TimelineLegend;
class TimelineView;

/// The timeline with its scroll bar and a legend of the marks it draws.
class TimelinePanel : public QWidget {
    Q_OBJECT

public:
    TimelinePanel(Session* session, PlaybackClock* clock, QWidget* parent = nullptr);

    TimelineView* view() const { return view_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void syncScrollBar();

    TimelineView* view_;
    QScrollBar* scroll_bar_;
    TimelineLegend* legend_;
    std::weak_ptr<const Trace> legend_trace_;  // the trace the legend's entries were chosen for
    bool syncing_ = false;
};

/// The shapes and colours of the timeline, explained with the same painter code that draws them.
/// Entries that do not fit on one line move to the next, whole, rather than being cut off.
class TimelineLegend : public QWidget {
    Q_OBJECT

public:
    explicit TimelineLegend(QWidget* parent = nullptr);
    /// All entries on one line.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

    /// Whether the entry for piles (a tick with many requests, drawn as a counted bar) is
    /// listed: a trace without one has no need of it, and the legend keeps to one line longer.
    void setShowsPiles(bool shows);
    bool showsPiles() const { return shows_piles_; }
    /// The keys whose requests have a colour of their own (TimelineView::keyColours()): an
    /// entry each, after the others.
    void setKeys(const QList<QPair<QString, QColor>>& keys);
    /// Draws the marks `scale` times their usual size, as the timeline does (markScale()).
    void setMarkScale(double scale);
    /// The words of each entry, left to right.
    QStringList texts() const;
    /// Where each entry, its mark and its words, is drawn in a legend `width` pixels wide.
    QList<QRectF> entryRects(int width) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    enum class Mark {
        Accepted,
        Rejected,
        Pending,
        Pile,
        Delay,
        WithinSpan,
        OverSpan,
        Boundary,
        Key
    };
    struct Entry {
        Mark mark;
        QString text;
        QColor colour = {};  ///< a key's
    };

    QList<Entry> entries() const;
    int rowHeight() const;
    void paintMark(QPainter& painter, const Entry& entry, QPointF left_middle) const;

    double markSize() const;

    bool shows_piles_ = true;
    QList<QPair<QString, QColor>> keys_;
    double mark_scale_ = 1.0;
};

}  // namespace ratelab::ui
