/// The ids of the patterns a request's field matched: the first four held inline, the rest
/// (a subject in many groups) in an array, so the common decision allocates nothing for them.
struct MatchedIDs {
    private var first: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    private var more: [Int32] = []
    private(set) var count = 0

    /// Whether no id was added.
    var isEmpty: Bool { count == 0 }

    mutating func append(_ id: Int32) {
        switch count {
        case 0: first.0 = id
        case 1: first.1 = id
        case 2: first.2 = id
        case 3: first.3 = id
        default: more.append(id)
        }
        count += 1
    }

    /// Whether `id` was added.
    func contains(_ id: Int32) -> Bool {
        var found = false
        visitEach { found = found || $0 == id }
        return found
    }

    /// Calls `body` with each id, in the order added.
    func visitEach(_ body: (Int32) -> Void) {
        if count > 0 { body(first.0) }
        if count > 1 { body(first.1) }
        if count > 2 { body(first.2) }
        if count > 3 { body(first.3) }
        for id in more { body(id) }
    }
}
