import Foundation
import GatehouseComposition
import GatehouseCore
import Testing

/// Both example configurations (`Examples/demo/gatehouse.json` and
/// `Examples/configurations/documents.json`, every gatekeeper named) plan exactly through the
/// command, and each plan agrees with `check`, name by name, over a universe of callers.
@Suite("The example configurations' plans agree with check")
struct ShippedConfigurationPlanTests {
    /// One example configuration and the universe it is checked over.
    struct Shipped: Sendable, CustomTestStringConvertible {
        /// Relative to the package root.
        var path: String
        var subjects: [String?]
        var actions: [String]
        var attributes: [[String: String]]
        var instants: [String]
        var names: [String]

        var testDescription: String { path }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Monday inside office hours, Sunday, and Monday after hours (Berlin).
    static let demo = Shipped(
        path: "Examples/demo/gatehouse.json", subjects: [nil, "alice", "bob", "carol", "mallory"],
        actions: ["read", "write"], attributes: [[:]],
        instants: ["2026-11-30T10:00:00Z", "2026-11-29T10:00:00Z", "2026-11-30T19:30:00Z"],
        names: [
            "avatars/alice.txt", "avatars/alice", "avatars/bob.txt", "avatars/carol.txt",
            "avatars/carol/private-draft.txt", "avatars/alice/private-x", "avatars/", "Avatars/alice.txt",
            "docs/a", "avatars/alice%", "avatars/../alice.txt",
        ])

    static let documents = Shipped(
        path: "Examples/configurations/documents.json",
        subjects: [nil, "gina", "erin", "frank", "dana", "zoe"], actions: ["read", "write"],
        attributes: [
            [:], ["tenant": "acme", "device": "managed"], ["device": "unmanaged", "owner": "zoe"],
            ["owner": "erin", "tenant": "globex"],
        ],
        instants: ["2026-11-30T10:00:00Z"],
        names: [
            "docs/handbook.txt", "docs/archive/2025-plan.txt", "users/erin/notes.txt", "users/zoe/notes.txt",
            "tenants/acme/plan.txt", "tenants/globex/plan.txt", "tenants/acme/secrets/api-key.txt",
            "exports/customers.csv", "other", "docs/../users/zoe/notes.txt",
        ])

    @Test(arguments: [demo, documents])
    func anExampleConfigurationPlansExactlyAndItsPlanAgreesWithCheckForEveryName(_ shipped: Shipped)
        async throws
    {
        let path = Self.root.appendingPathComponent(shipped.path).path
        let service = try Assembler().assemble(contentsOf: URL(fileURLWithPath: path)).service(named: nil)
        var checks = 0
        var disagreements: [String] = []
        for subject in shipped.subjects {
            for action in shipped.actions {
                for attributes in shipped.attributes {
                    for at in shipped.instants {
                        var options = ["--config", path, "--action", action, "--at", at]
                        if let subject { options += ["--subject", subject] }
                        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                            options += ["--attr", "\(key)=\(value)"]
                        }
                        let plan = try await service.gate.plan(
                            subject: subject, action: AccessAction(rawValue: action), attributes: attributes,
                            at: try Date(at, strategy: .iso8601))
                        let sql = await Captured.run(["plan"] + options + ["--sql"])
                        #expect(sql.status == 0, "\(options): \(sql.err)")
                        // The command's plan is the one checked below.
                        #expect(sql.out == [plan.sql(column: "resource")], "\(options)")
                        for name in shipped.names {
                            let check = await Captured.run(["check"] + options + ["--", name])
                            checks += 1
                            #expect(
                                check.status == 0 || check.status == 3, "\(options) \(name): \(check.err)")
                            if (check.status == 0) != plan.permits(name), disagreements.count < 5 {
                                disagreements.append(
                                    "\(options) \(name.debugDescription): check \(check.status), plan "
                                        + "\(plan.residual)")
                            }
                        }
                    }
                }
            }
        }
        #expect(
            checks == shipped.subjects.count * shipped.actions.count * shipped.attributes.count
                * shipped.instants.count * shipped.names.count)
        #expect(disagreements.isEmpty, "\(disagreements)")
    }
}
