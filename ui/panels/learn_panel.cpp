#include "panels/learn_panel.h"

#include <QFile>

#include "charts/algorithm_names.h"

namespace ratelab::ui {

LearnPanel::LearnPanel(QWidget* parent) : QTextBrowser(parent) {
    setObjectName(QStringLiteral("learnPanel"));
    setOpenExternalLinks(false);
    setToolTip(tr("How the selected algorithm works; select a row of the table or a lane name"));
    refresh();
}

QString LearnPanel::textFor(const std::string& id) {
    const QString name = id.empty() ? QStringLiteral("overview") : QString::fromStdString(id);
    QFile file(QStringLiteral(":/texts/%1.md").arg(name));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

void LearnPanel::setAlgorithm(const std::string& id) {
    if (id != algorithm_) {
        algorithm_ = id;
        refresh();
    }
}

void LearnPanel::setScenario(const QString& name, const QString& description) {
    scenario_name_ = name;
    scenario_description_ = description;
    refresh();
}

void LearnPanel::refresh() {
    QString text = textFor(algorithm_);
    if (text.isEmpty()) {
        text = QStringLiteral("# %1\n\n%2\n")
                   .arg(algorithmName(algorithm_), algorithmSummary(algorithm_));
    }
    if (!scenario_description_.isEmpty()) {
        text += QStringLiteral("\n\n### %1\n\n%2\n")
                    .arg(tr("In this scenario: %1").arg(scenario_name_), scenario_description_);
    }
    setMarkdown(text);
}

}  // namespace ratelab::ui
