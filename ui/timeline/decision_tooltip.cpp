#include "timeline/decision_tooltip.h"

#include <QCoreApplication>
#include <QPalette>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "charts/tick_text.h"
#include "ratelab/responses.h"
#include "session/frame_model.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class DecisionTooltipText {
    Q_DECLARE_TR_FUNCTIONS(DecisionTooltip)
};

QString escaped(const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
}

QString withMathSigns(const std::string& text) {
    return mathSigns(text).toHtmlEscaped();
}

// `format` is a translated "request #%1 at t = %2, cost %3" in the wanted case. Requests are
// numbered from 0, as the decisions CSV and the JSON report number them, so that a request
// seen here is found there under the same number.
QString requestHeading(const QString& format, const Trace& trace, std::size_t index) {
    const Request& request = trace.requests[index];
    QString heading = format.arg(index).arg(request.tick).arg(request.cost);
    if (request.key != 0) {
        heading += DecisionTooltipText::tr(", key %1").arg(escaped(trace.key_name(request.key)));
    }
    // Its own in-flight time, which only the concurrency lane reads.
    if (const Tick duration = trace.duration(index); duration != 0) {
        heading += DecisionTooltipText::tr(", holds for %1").arg(ticksText(duration));
    }
    return heading;
}

// A check is one inequality: broken over two lines ("= 5 >" above "4") it no longer reads as
// one, so its cell never wraps. The core keeps checks short (a long log is elided).
QString row(const QString& label, const QString& value, bool wrap = true) {
    return QStringLiteral("<tr><td style='padding-right:8px'><b>%1</b></td>%2</tr>")
        .arg(label, (wrap ? QStringLiteral("<td>%1</td>")
                          : QStringLiteral("<td style='white-space:nowrap'>%1</td>"))
                        .arg(value));
}

QString outcomeLine(const Decision& decision, std::int64_t tick_ms, const QPalette& palette) {
    if (decision.accepted) {
        QString line = QStringLiteral("<b style='color:%1'>%2</b>")
                           .arg(timeline_palette::acceptedToolTipText(palette).name(),
                                DecisionTooltipText::tr("Accepted"));
        if (decision.release && decision.delay) {
            line += DecisionTooltipText::tr(": leaves the queue at t = %1 after waiting %2")
                        .arg(QString::fromStdString(decision.release->to_short(2)),
                             ticksAndSeconds(*decision.delay, tick_ms));
        }
        return line;
    }
    QString line = QStringLiteral("<b style='color:%1'>%2</b>")
                       .arg(timeline_palette::rejectedToolTipText(palette).name(),
                            DecisionTooltipText::tr("Rejected"));
    if (decision.retry_never) {
        line += DecisionTooltipText::tr(
            ": no wait helps, the cost is more than this algorithm ever accepts");
    } else if (decision.retry_after) {
        line += DecisionTooltipText::tr(": retry after %1")
                    .arg(ticksAndSeconds(*decision.retry_after, tick_ms));
    }
    return line;
}

// The HTTP response the lane sends for the decision, as the Response tab shows it in the IETF
// style: the status line, then Retry-After and the RateLimit fields, one a line.
QString responseParagraph(const SimulationResult& result, std::size_t lane, std::size_t index) {
    std::string http;
    try {
        http = http_text(response_to(result, lane, index), HeaderStyle::ietf);
    } catch (const std::exception&) {
        return {};  // a lane without a response model: the decision says it all
    }
    QString lines = QString::fromStdString(http).trimmed().toHtmlEscaped();
    lines.replace(QStringLiteral("\r\n"), QStringLiteral("<br>"));
    return QStringLiteral("<p style='white-space:pre'><b>%1</b><br><tt>%2</tt></p>")
        .arg(DecisionTooltipText::tr("Response"), lines);
}

}  // namespace

QString mathSigns(const std::string& text) {
    // Only operators standing between spaces are replaced, so words such as "max" keep their
    // letters.
    QString signs = QString::fromStdString(text);
    signs.replace(QStringLiteral(" x "), QStringLiteral(" \u00d7 "));
    signs.replace(QStringLiteral(" <= "), QStringLiteral(" \u2264 "));
    signs.replace(QStringLiteral(" >= "), QStringLiteral(" \u2265 "));
    signs.replace(QStringLiteral(" - "), QStringLiteral(" \u2212 "));
    return signs;
}

QString ticksAndSeconds(const Rational& ticks, std::int64_t tick_ms) {
    // Seconds to the resolution of the ticks beside them, a hundredth of a tick: with ticks of
    // one second "9.67 ticks (9.67 s)", not "(9.667 s)", and with ticks of 100 ms "(0.967 s)".
    int seconds_places = 0;
    for (std::int64_t step = std::max<std::int64_t>(tick_ms, 1); step < 100'000; step *= 10) {
        ++seconds_places;
    }
    const Rational seconds = ticks * Rational(tick_ms, 1000);
    // Singular for what is written as "1", which 0.999 also is at two places.
    return DecisionTooltipText::tr("%1 (%2 s)")
        .arg(ticksText(QString::fromStdString(ticks.to_short(2))),
             QString::fromStdString(seconds.to_short(seconds_places)));
}

QString decisionTooltip(const Frame& frame, std::size_t lane, std::size_t index,
                        const QPalette& palette) {
    if (!frame.result || lane >= frame.result->runs.size() ||
        index >= frame.result->trace->requests.size()) {
        return {};
    }
    const AlgorithmRun& run = frame.result->runs[lane];
    const Trace& trace = *frame.result->trace;
    QString html =
        QStringLiteral("<p style='white-space:pre'><b>%1</b> · %2</p>")
            .arg(laneName(run.id, run.label).toHtmlEscaped(),
                 requestHeading(DecisionTooltipText::tr("request #%1 at t = %2, cost %3"), trace,
                                index));
    if (!frame.isRevealed(index)) {
        html += DecisionTooltipText::tr(
                    "<p><i>Not decided yet: the clock is at t = %1. Step or play to t = %2 to "
                    "reveal it.</i></p>")
                    .arg(frame.now)
                    .arg(trace.requests[index].tick);
        return html;
    }
    const Explanation why = explain(*frame.result, lane, index);
    html += QStringLiteral("<table>");
    html += row(DecisionTooltipText::tr("Before"), withMathSigns(why.state_before));
    html += row(DecisionTooltipText::tr("Check"), withMathSigns(why.check), false);
    html += row(DecisionTooltipText::tr("After"), withMathSigns(why.state_after));
    html +=
        QStringLiteral("</table><p>%1</p>").arg(outcomeLine(why.decision, frame.tick_ms, palette));
    html += responseParagraph(*frame.result, lane, index);
    return html;
}

QString retryTooltip(const Frame& frame, std::size_t lane,
                     const std::vector<LaneRetries::Retry>& retries, std::size_t index,
                     const QPalette& palette) {
    if (!frame.result || lane >= frame.result->runs.size() || index >= retries.size() ||
        retries[index].intent >= frame.result->trace->requests.size()) {
        return {};
    }
    const LaneRetries::Retry& retry = retries[index];
    const AlgorithmRun& run = frame.result->runs[lane];
    const Trace& trace = *frame.result->trace;
    QString html =
        QStringLiteral("<p style='white-space:pre'><b>%1</b> · %2<br>%3</p>")
            .arg(laneName(run.id, run.label).toHtmlEscaped(),
                 DecisionTooltipText::tr("attempt %1 at t = %2").arg(retry.attempt).arg(retry.tick),
                 requestHeading(DecisionTooltipText::tr("its client retries request #%1 "
                                                        "(t = %2, cost %3)"),
                                trace, retry.intent));
    html += QStringLiteral("<p>%1</p>").arg(outcomeLine(retry.decision, frame.tick_ms, palette));
    const Tick before =
        retry.previous == LaneRetries::kFromIntent || retry.previous >= retries.size()
            ? trace.requests[retry.intent].tick
            : retries[retry.previous].tick;
    html += QStringLiteral("<p><i>%1</i></p>")
                .arg(DecisionTooltipText::tr("The thin arc joins it to the attempt before, at "
                                             "t = %1, which the lane rejected.")
                         .arg(before));
    return html;
}

QString requestTooltip(const Frame& frame, std::size_t index) {
    if (!frame.result || index >= frame.result->trace->requests.size()) {
        return {};
    }
    return QStringLiteral("<p style='white-space:pre'><b>%1</b></p><p>%2</p>")
        .arg(requestHeading(DecisionTooltipText::tr("Request #%1 at t = %2, cost %3"),
                            *frame.result->trace, index),
             DecisionTooltipText::tr(
                 "Drag to move it, turn the wheel or press +/− to change its cost,<br>"
                 "Delete to remove it, right-click for more."));
}

QString noteTooltip(const std::vector<TraceNote>& notes, std::size_t first) {
    if (first >= notes.size())
        return {};
    const Tick tick = notes[first].tick;
    QStringList texts;
    for (std::size_t i = first; i < notes.size() && notes[i].tick == tick; ++i)
        texts << QString::fromStdString(notes[i].text).toHtmlEscaped();
    return QStringLiteral("<p><b>%1</b><br>%2<br><i>%3</i></p>")
        .arg(DecisionTooltipText::tr("Note at t = %1").arg(tick),
             texts.join(QStringLiteral("<br>")),
             DecisionTooltipText::tr("Double-click to edit; right-click to edit or delete."));
}

QString tallyTooltip(const Frame& frame, int lane, std::size_t begin, std::size_t end,
                     std::optional<KeyId> key) {
    if (!frame.result || begin >= end || end > frame.result->trace->requests.size()) {
        return {};
    }
    const Trace& trace = *frame.result->trace;
    const auto counted = [&](std::size_t i) { return !key || trace.requests[i].key == *key; };
    const Tick from = trace.requests[begin].tick;
    const Tick to = trace.requests[end - 1].tick;
    const QString span = from == to ? DecisionTooltipText::tr("t = %1").arg(from)
                                    : DecisionTooltipText::tr("t = %1 to %2").arg(from).arg(to);
    std::size_t count = 0;
    for (std::size_t i = begin; i < end; ++i)
        count += counted(i) ? 1 : 0;
    QString requests = count == 1 ? DecisionTooltipText::tr("1 request, %1").arg(span)
                                  : DecisionTooltipText::tr("%1 requests, %2").arg(count).arg(span);
    if (key)
        requests = DecisionTooltipText::tr("key %1: %2")
                       .arg(keyName(trace.key_name(*key)).toHtmlEscaped(), requests);
    const QString format = QStringLiteral("<p style='white-space:pre'><b>%1</b><br>%2</p>");
    if (lane < 0 || static_cast<std::size_t>(lane) >= frame.result->runs.size()) {
        std::uint64_t cost = 0;
        for (std::size_t i = begin; i < end; ++i) {
            cost += trace.requests[i].cost;
        }
        return format.arg(requests, DecisionTooltipText::tr("cost %1 in all").arg(cost));
    }
    const AlgorithmRun& run = frame.result->runs[static_cast<std::size_t>(lane)];
    std::size_t accepted = 0;
    std::size_t rejected = 0;
    std::size_t pending = 0;
    for (std::size_t i = begin; i < end; ++i) {
        if (!counted(i))
            continue;
        if (!frame.isRevealed(i))
            ++pending;
        else
            ++(run.accepted(i) ? accepted : rejected);
    }
    QString outcomes =
        DecisionTooltipText::tr("%1 accepted · %2 rejected").arg(accepted).arg(rejected);
    if (pending > 0) {
        outcomes += DecisionTooltipText::tr(" · %1 not decided yet").arg(pending);
    }
    return format.arg(laneName(run.id, run.label).toHtmlEscaped() + QStringLiteral(", ") + requests,
                      outcomes);
}

}  // namespace ratelab::ui
