/// The lesson's lines: one per call and arrangement, in fixed-width columns that always fit in
/// 100 columns, and the summary tables under each part.
enum CallTable {
    /// The widths of the number, call, arrangement, path and loader columns.
    static let widths = (number: 3, call: 22, label: 13, path: 27, loader: 20)

    /// The column titles.
    static let header = line("#", "call", "through", "path", "loader", "caller gets")

    /// One call through one arrangement; the number and call are left blank on the second line
    /// of the same call.
    static func row(
        number: Int?, call: String, label: String, path: String, loaderReached: Bool, result: String
    )
        -> String
    {
        line(
            number.map(String.init) ?? "", number == nil ? "" : call, label, path,
            loaderReached ? "loader reached" : "loader not reached", result)
    }

    /// A line between calls for something that happened between them.
    static func event(_ text: String) -> String {
        "  " + padded("", widths.number) + "-- \(text) --"
    }

    /// A summary table: a title row naming every column, then one row per arrangement. The first
    /// column is left-aligned, the others right-aligned under their titles.
    static func summary(_ titles: [String], _ rows: [[String]]) -> [String] {
        let first = ([titles[0]] + rows.map { $0[0] }).map(\.count).max() ?? 0
        func format(_ cells: [String]) -> String {
            var text = "  " + cells[0] + String(repeating: " ", count: first - cells[0].count)
            for (cell, title) in zip(cells.dropFirst(), titles.dropFirst()) {
                text += "  " + String(repeating: " ", count: max(0, title.count - cell.count)) + cell
            }
            return text
        }
        return [format(titles)] + rows.map(format)
    }

    private static func line(
        _ number: String, _ call: String, _ label: String, _ path: String, _ loader: String, _ result: String
    ) -> String {
        "  " + padded(number, widths.number) + padded(call, widths.call) + padded(label, widths.label)
            + padded(path, widths.path) + padded(loader, widths.loader) + result
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
