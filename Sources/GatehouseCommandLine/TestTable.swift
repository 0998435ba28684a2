import Foundation
import GatehouseComposition
import GatehouseCore

/// The table of `gatehouse test`, read strictly: each problem named by its place (`cases[3].expect`).
struct TestTable {
    enum Expectation: String {
        case allow, deny
    }

    /// One request and the decision expected for it.
    struct Case {
        /// Where the case is in the table, `cases[3]`.
        var place: String
        var name: String
        var service: String?
        var subject: String?
        var action = "read"
        var resource = ""
        var attributes: [String: String] = [:]
        /// The instant the clock reads while the case is decided, and its text; `nil` for now.
        var at: (instant: Date, text: String)?
        var expect = Expectation.allow
        /// The gate expected to decide, if the case names one.
        var gatekeeper: String?
    }

    /// Everything wrong with a table, each problem as `place: message`.
    struct Malformed: Error {
        var problems: [String]
    }

    /// The configuration file, as written in the table (relative to the table's folder).
    var config: String
    var cases: [Case]

    static let caseKeys = [
        "name", "service", "subject", "action", "resource", "attributes", "at", "expect", "gatekeeper",
        "gate",
    ]
    static let shape = #"expected a JSON object such as {"config": "gatehouse.json", "cases": [...]}"#

    /// Reads a table from JSON text, or throws ``Malformed`` listing every problem found.
    static func parse(_ data: Data) throws(Malformed) -> TestTable {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(data))
        } catch {
            throw Malformed(problems: [
                "invalid JSON: line \(error.line), column \(error.column): \(error.message)"
            ])
        }
        var reader = Reader()
        let table = reader.table(value)
        guard let table, reader.problems.isEmpty else { throw Malformed(problems: reader.problems) }
        return table
    }

    private struct Reader {
        var problems: [String] = []

        mutating func add(_ place: String, _ message: String) {
            problems.append(place.isEmpty ? message : "\(place): \(message)")
        }

        mutating func table(_ value: JSONValue) -> TestTable? {
            guard case .object(let object) = value else {
                add("", "the table is \(value.kindDescription); \(TestTable.shape)")
                return nil
            }
            unknownKeys(in: object, place: "", known: ["config", "cases"])
            let config = string(object["config"], place: "config", required: true, nonEmpty: true)
            var cases: [Case] = []
            switch object["cases"] {
            case nil:
                add("cases", "missing; expected an array of cases")
            case .array(let values) where values.isEmpty:
                add("cases", "empty; a table needs at least one case")
            case .array(let values):
                var firstPlace: [String: String] = [:]
                for (index, value) in values.enumerated() {
                    guard let testCase = self.testCase(value, place: "cases[\(index)]") else { continue }
                    if let earlier = firstPlace[testCase.name] {
                        add(
                            "\(testCase.place).name",
                            "\"\(testCase.name)\" also names \(earlier); names must be distinct")
                    } else {
                        firstPlace[testCase.name] = testCase.place
                    }
                    cases.append(testCase)
                }
            case let other?:
                add("cases", "expected an array of cases, found \(other.kindDescription)")
            }
            return config.map { TestTable(config: $0, cases: cases) }
        }

        mutating func testCase(_ value: JSONValue, place: String) -> Case? {
            guard case .object(let object) = value else {
                add(place, "expected a case (an object), found \(value.kindDescription)")
                return nil
            }
            let before = problems.count
            unknownKeys(in: object, place: place, known: TestTable.caseKeys)
            let name = string(object["name"], place: "\(place).name", required: true, nonEmpty: true)
            var testCase = Case(place: place, name: name ?? "")
            testCase.service = string(object["service"], place: "\(place).service", nonEmpty: true)
            testCase.subject = string(object["subject"], place: "\(place).subject")
            testCase.action = string(object["action"], place: "\(place).action", nonEmpty: true) ?? "read"
            testCase.resource = string(object["resource"], place: "\(place).resource", required: true) ?? ""
            testCase.gatekeeper =
                string(object["gatekeeper"], place: "\(place).gatekeeper", nonEmpty: true)
                ?? string(object["gate"], place: "\(place).gate", nonEmpty: true)
            if object["gatekeeper"] != nil, object["gate"] != nil {
                add(place, "give \"gatekeeper\" or its older spelling \"gate\", not both")
            }
            testCase.attributes = attributes(object["attributes"], place: "\(place).attributes")
            if let text = string(object["at"], place: "\(place).at") {
                do {
                    testCase.at = (try Instant.parse(text), text)
                } catch {
                    add("\(place).at", "expected \(Instant.description), found '\(text)'; \(error.reason)")
                }
            }
            switch object["expect"] {
            case nil:
                add("\(place).expect", #"missing; expected "allow" or "deny""#)
            case .string(let text) where Expectation(rawValue: text) != nil:
                testCase.expect = Expectation(rawValue: text) ?? .deny
            case .string(let text):
                add("\(place).expect", #"expected "allow" or "deny", found "\#(text)""#)
            case let other?:
                add("\(place).expect", #"expected "allow" or "deny", found \#(other.kindDescription)"#)
            }
            return problems.count == before ? testCase : nil
        }

        mutating func unknownKeys(in object: JSONObject, place: String, known: [String]) {
            for key in object.keys where !known.contains(key) {
                let hint =
                    closestName(to: key, among: known).map { " (did you mean \"\($0)\"?)" }
                    ?? ""
                let listed = known.map { "\"\($0)\"" }.joined(separator: ", ")
                add(ConfigurationPath.member(place, key), "unknown key\(hint); expected one of \(listed)")
            }
        }

        mutating func string(
            _ value: JSONValue?, place: String, required: Bool = false, nonEmpty: Bool = false
        ) -> String? {
            switch value {
            case nil:
                if required { add(place, "missing") }
                return nil
            case .string(let text) where nonEmpty && text.isEmpty:
                add(place, "expected a non-empty string")
                return nil
            case .string(let text):
                return text
            case let other?:
                add(place, "expected a string, found \(other.kindDescription)")
                return nil
            }
        }

        mutating func attributes(_ value: JSONValue?, place: String) -> [String: String] {
            guard let value else { return [:] }
            guard case .object(let object) = value else {
                add(place, "expected an object of strings, found \(value.kindDescription)")
                return [:]
            }
            var attributes: [String: String] = [:]
            for (key, value) in object.members {
                if key.isEmpty { add(place, "an attribute needs a non-empty name") }
                attributes[key] = string(value, place: ConfigurationPath.member(place, key))
            }
            return attributes
        }
    }
}
