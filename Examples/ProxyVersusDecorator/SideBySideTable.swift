/// Two arrangements side by side: one row per call, in fixed-width columns.
struct SideBySideTable {
    /// The width of the call column.
    static let callWidth = 22
    /// The width of each arrangement's column.
    static let cellWidth = 42

    /// The column titles and the rule under them.
    static func header(left: String, right: String) -> [String] {
        [
            " #  " + padded("call", to: callWidth) + " | " + padded(left, to: cellWidth) + " | " + right,
            "--- " + String(repeating: "-", count: callWidth) + "-+-"
                + String(repeating: "-", count: cellWidth)
                + "-+-" + String(repeating: "-", count: cellWidth),
        ]
    }

    /// One call: its number, its key and what each arrangement did.
    static func row(_ number: Int, call: String, left: String, right: String) -> String {
        let label = number < 10 ? " \(number) " : "\(number) "
        return label + " " + padded(call, to: callWidth) + " | " + padded(left, to: cellWidth) + " | " + right
    }

    /// A line between rows for something that happened between calls.
    static func event(_ text: String) -> String {
        "    " + padded("-- \(text) --", to: callWidth) + " | " + padded("", to: cellWidth) + " |"
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
