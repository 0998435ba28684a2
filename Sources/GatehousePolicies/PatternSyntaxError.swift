/// Why a pattern's braces do not form placeholders.
enum PatternSyntaxError: Error, Equatable {
    case unclosedBrace
    case strayClosingBrace
    case badPlaceholderName(String)

    var message: String {
        switch self {
        case .unclosedBrace:
            "a \"{\" without a matching \"}\"; a placeholder is written {subject} or {NAME}"
        case .strayClosingBrace:
            "a \"}\" without a \"{\" before it; a placeholder is written {subject} or {NAME}"
        case .badPlaceholderName(let name):
            "the placeholder {\(name)}: a name is letters, digits, \"_\", \"-\" and \".\", at least one"
        }
    }
}
