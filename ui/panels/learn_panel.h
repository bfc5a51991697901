#pragma once

#include <QTextBrowser>
#include <string>

namespace ratelab::ui {

/// A short explanation, in our own words, of how the selected algorithm decides, what it trades
/// away and what to look for, followed by the current scenario's description.
class LearnPanel : public QTextBrowser {
    Q_OBJECT

public:
    explicit LearnPanel(QWidget* parent = nullptr);

    /// The algorithm to explain; empty for the overview of all six.
    void setAlgorithm(const std::string& id);
    void setScenario(const QString& name, const QString& description);
    const std::string& algorithm() const { return algorithm_; }

    /// The bundled text for `id` (or the overview for an empty id); empty if there is none.
    static QString textFor(const std::string& id);

private:
    void refresh();

    std::string algorithm_;
    QString scenario_name_;
    QString scenario_description_;
};

}  // namespace ratelab::ui
