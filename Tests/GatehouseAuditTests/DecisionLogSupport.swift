import Foundation
import GatehouseAudit
import GatehouseCore
import GatehouseTestSupport

/// One line of a decision log, decoded strictly: a key of the wrong type fails the decoding.
struct LoggedLine: Decodable, Equatable {
    struct Input: Decodable, Equatable {
        var subject: String?
        var action: String
        var resource: String
        var attributes: [String: String]
    }

    var decisionID: String?
    var timestamp: String?
    var service: String?
    var input: Input?
    var result: Bool?
    var gatekeeper: String?
    var reason: String?
    var rule: String?
    var shadow: Bool?
    var failed: Bool?
    var shadowDropped: Bool?
    var erased: [String]?
    var dropped: Int?
    var message: String?

    /// Whether the line reports a decision (rather than dropped ones).
    var isDecision: Bool { decisionID != nil }

    enum CodingKeys: String, CodingKey {
        case decisionID = "decision_id"
        case shadowDropped = "shadow_dropped"
        case timestamp, service, input, result, gatekeeper, reason, rule, shadow, failed, erased, dropped,
            message
    }
}

/// The lines of a log file, each decoded, with the raw text of each.
struct LogContents {
    var text: String
    var lines: [LoggedLine]
    var objects: [[String: Any]]

    /// Reads `url`; a line that is not a whole JSON object is a thrown error naming it.
    init(_ url: URL) throws {
        let data = try Data(contentsOf: url)
        text = String(decoding: data, as: UTF8.self)
        guard text.isEmpty || text.hasSuffix("\n") else {
            throw LogProblem(message: "the file does not end with a line break: a torn last line")
        }
        lines = []
        objects = []
        let decoder = JSONDecoder()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let bytes = Data(line.utf8)
            guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let decoded = try? decoder.decode(LoggedLine.self, from: bytes)
            else {
                throw LogProblem(message: "not a whole JSON object: \(line.prefix(200))")
            }
            objects.append(object)
            lines.append(decoded)
        }
    }

    var decisions: [LoggedLine] { lines.filter(\.isDecision) }
    /// The sum of the counts of the lines that report dropped records.
    var reportedDrops: Int { lines.compactMap(\.dropped).reduce(0, +) }
}

struct LogProblem: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A record of `resource` with a fresh id (or `id`), at a fixed instant.
func record(
    _ resource: String = "docs/a.txt", id: UUID = UUID(), subject: String? = "alice",
    attributes: [String: String] = [:], outcome: AccessVerdict.Outcome = .allowed,
    instant: Date = Date(timeIntervalSince1970: 1_796_132_700.123456), isShadow: Bool = false
) -> AccessRecord {
    AccessRecord(
        request: AccessRequest(subject: subject, action: "read", resource: resource, attributes: attributes),
        verdict: AccessVerdict(
            outcome: outcome, gatekeeper: "rules",
            reason: outcome == .allowed ? nil : "no rule allows"),
        instant: instant, service: "documents", requestID: id, isShadow: isShadow)
}

extension TemporaryDirectory {
    /// The decision log most tests write: `decisions.jsonl` in the directory.
    func file() -> URL {
        file("decisions.jsonl")
    }
}
