#pragma once
// What a dialog's fields make: the value, or in words why they cannot. The New and Tiers dialogs
// build theirs from it, so that their fields are read in one place.

#include <QString>
#include <optional>
#include <variant>

namespace ratelab::ui {

template <class T>
using MadeOrWhy = std::variant<T, QString>;

/// The value, or nothing when there is only a reason.
template <class T>
std::optional<T> madeValue(MadeOrWhy<T> made) {
    if (auto* value = std::get_if<T>(&made))
        return std::move(*value);
    return std::nullopt;
}

/// The reason, or an empty string when there is a value.
template <class T>
QString whyNot(const MadeOrWhy<T>& made) {
    const auto* problem = std::get_if<QString>(&made);
    return problem != nullptr ? *problem : QString();
}

}  // namespace ratelab::ui
