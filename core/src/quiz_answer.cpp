// Answers as a learner writes them, and grading with the reason: shared by drills and lessons.
#include <algorithm>
#include <cctype>

#include "ratelab/quiz.h"

namespace ratelab {

namespace {

std::string join(const std::vector<std::int64_t>& values) {
    std::string text;
    for (std::int64_t value : values) {
        text += (text.empty() ? "" : ", ") + std::to_string(value);
    }
    return text;
}

std::string trimmed_lower(std::string_view text) {
    std::string out;
    for (char c : text) {
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const auto first = out.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return {};
    }
    return out.substr(first, out.find_last_not_of(" \t") - first + 1);
}

/// "2.5" as exactly 5/2, so a decimal answer is graded without floating point.
std::optional<Rational> parse_decimal(const std::string& text) {
    const auto dot = text.find('.');
    if (dot == std::string::npos) {
        return Rational::parse(text);
    }
    const std::string whole = text.substr(0, dot);
    const std::string fraction = text.substr(dot + 1);
    if (fraction.empty() || fraction.size() > 9 ||
        !std::all_of(fraction.begin(), fraction.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        return std::nullopt;
    }
    const auto integral = Rational::parse(whole.empty() || whole == "-" ? whole + "0" : whole);
    if (!integral) {
        return std::nullopt;
    }
    std::int64_t scale = 1;
    for (std::size_t i = 0; i < fraction.size(); ++i) {
        scale *= 10;
    }
    const Rational part(std::stoll(fraction), scale);
    return whole.rfind('-', 0) == 0 ? *integral - part : *integral + part;
}

}  // namespace

Answer Answer::of_indices(std::vector<std::int64_t> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return {Form::indices, std::move(values), {}};
}

std::string format_answer(const Answer& answer) {
    switch (answer.form) {
        case Answer::Form::indices:
            return answer.indices.empty() ? "none" : join(answer.indices);
        case Answer::Form::number:
            return answer.number.to_string();
        case Answer::Form::never:
            return "never";
    }
    return {};
}

std::optional<Answer> parse_answer(std::string_view text, Answer::Form expected) {
    const std::string clean = trimmed_lower(text);
    if (expected == Answer::Form::indices) {
        if (clean == "none" || clean == "-") {
            return Answer::of_indices({});
        }
        std::vector<std::int64_t> values;
        std::string digits;
        for (std::size_t i = 0; i <= clean.size(); ++i) {
            const char c = i < clean.size() ? clean[i] : ' ';
            if (std::isdigit(static_cast<unsigned char>(c))) {
                if (digits.size() >= 9) {
                    return std::nullopt;
                }
                digits += c;
            } else if (c == ' ' || c == ',' || c == '\t' || c == '#') {
                if (!digits.empty()) {
                    values.push_back(std::stoll(digits));
                    digits.clear();
                }
            } else {
                return std::nullopt;
            }
        }
        if (values.empty()) {
            return std::nullopt;
        }
        return Answer::of_indices(std::move(values));
    }
    // A number answer may also be "never", and a "never" question a number: both are graded.
    if (clean == "never") {
        return Answer::never();
    }
    if (auto value = parse_decimal(clean)) {
        return Answer::of_number(*value);
    }
    return std::nullopt;
}

Grade grade(const Answer& truth, const Answer& given, const std::string& why) {
    Grade result;
    result.correct = truth == given;
    std::string verdict;
    if (result.correct) {
        verdict = "Right: " + format_answer(truth) + ".";
    } else if (truth.form == Answer::Form::indices && given.form == Answer::Form::indices) {
        std::vector<std::int64_t> missed;
        std::vector<std::int64_t> extra;
        std::set_difference(truth.indices.begin(), truth.indices.end(), given.indices.begin(),
                            given.indices.end(), std::back_inserter(missed));
        std::set_difference(given.indices.begin(), given.indices.end(), truth.indices.begin(),
                            truth.indices.end(), std::back_inserter(extra));
        verdict = "Wrong: the answer is " + format_answer(truth) + ".";
        if (!missed.empty()) {
            verdict += " You missed " + join(missed) + ".";
        }
        if (!extra.empty()) {
            verdict += " Not " + join(extra) + ".";
        }
    } else {
        verdict =
            "Wrong: the answer is " + format_answer(truth) + ", not " + format_answer(given) + ".";
    }
    result.reason = why.empty() ? verdict : verdict + " " + why;
    return result;
}

Grade grade_near(const Rational& truth, const Rational& given, const Rational& tolerance,
                 const std::string& why) {
    const Rational off = given < truth ? truth - given : given - truth;
    Grade result;
    result.correct = off <= tolerance;
    std::string verdict =
        result.correct ? "Close enough: " + truth.to_string() + "."
                       : "Too far: it is " + truth.to_string() + ", not " + given.to_string() + ".";
    if (off != Rational()) {
        verdict += " You were " + off.to_string() + (given < truth ? " early." : " late.");
    }
    result.reason = why.empty() ? verdict : verdict + " " + why;
    return result;
}

}  // namespace ratelab
