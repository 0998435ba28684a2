/// A duration as a configuration writes it: a whole number, then `ms` or `s` (`"250ms"`, `"2s"`).
enum ConfigurationDuration {
    /// The longest duration a setting may name: ten minutes.
    static let maximum = Duration.seconds(600)

    /// The duration `text` names, or a ``ConfigurationError`` at `key` saying what was expected.
    static func parse(_ text: String, key: String) throws(ConfigurationError) -> Duration {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        guard !digits.isEmpty, let number = Int(digits), unit == "ms" || unit == "s" else {
            throw ConfigurationError(
                path: key,
                message:
                    "expected a duration such as \"250ms\" or \"2s\" (a whole number, then ms or s), found \"\(text)\""
            )
        }
        let duration = unit == "ms" ? Duration.milliseconds(number) : Duration.seconds(number)
        guard number > 0 else {
            throw ConfigurationError(path: key, message: "must be positive, found \"\(text)\"")
        }
        guard duration <= maximum else {
            throw ConfigurationError(
                path: key, message: "must be at most 600s (ten minutes), found \"\(text)\"")
        }
        return duration
    }

    /// `250ms`, `2s`: the shortest way to write a duration of whole milliseconds.
    static func text(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// The whole milliseconds of `duration`, rounded down.
    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
