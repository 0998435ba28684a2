import GatehousePolicies

/// The check that no string or key of a configuration holds an invisible character: a
/// default-ignorable code point, a format character (general category Cf) or a character that
/// renders blank, as rules files refuse them (`PatternCharacters.isInvisible`). A subject
/// `"mallory<U+3164>"` reads as `"mallory"` and names no one; a service, path or pattern with
/// a zero-width joiner reads as another.
///
/// Every key and string is checked, whatever component it belongs to, except the contents a
/// `memory` loader holds under `resources` (text served, not a name: an emoji sequence there
/// holds a joiner or a variation selector). The keys of those resources are checked.
enum ConfigurationCharacters {
    /// Adds an issue at its path for every string or key under `value` (at `path`) that holds
    /// an invisible character, naming its column, code point and Unicode name.
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

    /// Adds an issue at `path` when the key `key` holds an invisible character.
    private static func checkKey(_ key: String, at path: String, issues: IssueCollector) {
        if let (column, problem) = PatternCharacters.firstInvisible(in: key) {
            issues.add(path, "the key, column \(column), holds \(problem)")
        }
    }
}
