/// Where each path of a configuration stands in its file, so that problems found in several
/// passes (shape, components, the decision log, rules files) are reported in file order.
struct DocumentOrder {
    /// Each path of the document (`services.avatars.gatekeepers[2].from`): its place in a
    /// pre-order walk (an object's or array's path before its members'), and the last place
    /// within it.
    private var places: [String: (start: Int, end: Int)] = [:]
    private var count = 0

    init(_ document: JSONValue) {
        walk(document, at: "")
    }

    private mutating func walk(_ value: JSONValue, at path: String) {
        let start = count
        count += 1
        switch value {
        case .object(let object):
            for member in object.members {
                walk(member.value, at: ConfigurationPath.member(path, member.key))
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                walk(element, at: ConfigurationPath.element(path, index))
            }
        case .null, .bool, .number, .string:
            break
        }
        if places[path] == nil { places[path] = (start, count - 1) }
    }

    /// The place of `path`; a path the document does not hold (a missing key) stands after
    /// everything within the nearest enclosing path it does hold.
    private func place(of path: String) -> (Int, Int) {
        if let place = places[path] { return (place.start, 0) }
        var end = path.endIndex
        while let cut = path[..<end].lastIndex(where: { $0 == "." || $0 == "[" }) {
            if let place = places[String(path[..<cut])] { return (place.end, 1) }
            end = cut
        }
        return (places[""]?.end ?? 0, 1)
    }

    /// `issues` in file order; issues at one place keep the order they were found in.
    func sorted(_ issues: [ConfigurationError.Issue]) -> [ConfigurationError.Issue] {
        issues.enumerated()
            .map { (place: place(of: $1.path), found: $0, issue: $1) }
            .sorted { ($0.place.0, $0.place.1, $0.found) < ($1.place.0, $1.place.1, $1.found) }
            .map(\.issue)
    }
}
