import Foundation
import GatehouseCore
import Testing

@testable import GatehousePolicies

/// A gate that needs no explanation of an allow asks each built-in gatekeeper only for a
/// refusal (`refusalNow`); that answer must be the explanation's, for allows and denials alike.
@Suite("Refusals agree with explanations")
struct RefusalAgreementTests {
    static let requests = [
        AccessRequest(subject: "alice", resource: "avatars/alice.png"),
        AccessRequest(subject: "bob", action: "write", resource: "avatars/alice.png"),
        AccessRequest(subject: "mallory", resource: "secrets/plan.txt"),
        AccessRequest(resource: "avatars/anonymous.png"),
        AccessRequest(
            subject: "alice", resource: "avatars/private-alice.png", attributes: ["tenant": "acme"]),
    ]

    /// The built-in gatekeepers, the file-based one reading `file`.
    static func gatekeepers(file: URL) throws -> [(String, any ImmediateAccessPolicy)] {
        let rules = """
            deny * * avatars/private-*
            allow alice read avatars/*
            allow * write avatars/{subject}.png
            """
        try Data(rules.utf8).write(to: file)
        let monday = Date(timeIntervalSince1970: 1_700_438_400)  // Monday 2023-11-20 00:00 UTC
        return [
            ("allowList resources", try AllowList(resources: ["avatars/*"])),
            ("allowList subjects", try AllowList(subjects: ["alice", "bob"])),
            ("allowList both", try AllowList(resources: ["avatars/alice.png"], subjects: ["*"])),
            ("rules", try RulesPolicy(text: rules, name: "rules")),
            ("file", FilePolicy(url: file, name: "file")),
            ("alwaysAllow", AlwaysAllow()),
            ("alwaysDeny", AlwaysDeny(reason: "closed")),
            (
                "timeWindow open",
                try TimeWindow(
                    days: [.mon], from: LocalTime("00:00"), to: LocalTime("23:59"), timeZone: "UTC",
                    now: { monday.addingTimeInterval(3600) })
            ),
            (
                "timeWindow closed",
                try TimeWindow(
                    days: [.tue], from: LocalTime("00:00"), to: LocalTime("23:59"), timeZone: "UTC",
                    now: { monday.addingTimeInterval(3600) })
            ),
        ]
    }

    @Test func everyBuiltInGatekeeperRefusesExactlyWhatItExplainsAsADenial() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "refusal-agreement-\(getpid()).rules")
        defer { try? FileManager.default.removeItem(at: file) }
        var denials = 0
        var allows = 0
        for (name, gatekeeper) in try Self.gatekeepers(file: file) {
            for request in Self.requests {
                let explanation = try gatekeeper.explainNow(request)
                let refusal = try gatekeeper.refusalNow(request)
                if case .allow = explanation.decision {
                    #expect(refusal == nil, "\(name): \(request)")
                    allows += 1
                } else {
                    #expect(refusal == explanation, "\(name): \(request)")
                    denials += 1
                }
            }
        }
        // Both kinds of answer were compared.
        #expect(allows >= 10 && denials >= 10)
    }
}
