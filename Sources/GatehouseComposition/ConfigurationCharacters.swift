import GatehousePolicies

/// Refuses invisible characters in every key and string, as rules files do: `"mallory<U+3164>"`
/// reads as `"mallory"` and names no one. Only the texts a `memory` loader serves are exempt
/// (served, not names: an emoji there holds a joiner); their keys are checked.
enum ConfigurationCharacters {
    /// Adds an issue at its path for every string or key under `value` holding one.
    static func check(_ value: JSONValue, at path: String, issues: IssueCollector) {
        switch value {
        case .string(let text):
            if let (column, problem) = PatternCharacters.firstInvisible(in: text) {
                issues.add(path, "column \(column) holds \(problem)")
            }
        case .array(let values):
            for (index, element) in values.enumerated() {
                check(element, at: ConfigurationPath.element(path, index), issues: issues)
            }
        case .object(let object):
            let isMemoryLoader = object["type"] == .string("memory")
            for (key, member) in object.members {
                let memberPath = ConfigurationPath.member(path, key)
                checkKey(key, at: memberPath, issues: issues)
                if isMemoryLoader && key == "resources", case .object(let resources) = member {
                    for resource in resources.keys {
                        checkKey(resource, at: ConfigurationPath.member(memberPath, resource), issues: issues)
                    }
                } else {
                    check(member, at: memberPath, issues: issues)
                }
            }
        case .null, .bool, .number:
            break
        }
    }

    private static func checkKey(_ key: String, at path: String, issues: IssueCollector) {
        if let (column, problem) = PatternCharacters.firstInvisible(in: key) {
            issues.add(path, "the key, column \(column), holds \(problem)")
        }
    }
}
