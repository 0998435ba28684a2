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

    /// The id added `index`-th.
    subscript(index: Int) -> Int32 {
        switch index {
        case 0: first.0
        case 1: first.1
        case 2: first.2
        case 3: first.3
        default: more[index - 4]
        }
    }

    /// Whether `id` was added.
    func contains(_ id: Int32) -> Bool {
        for index in 0..<count where self[index] == id {
            return true
        }
        return false
    }
}
